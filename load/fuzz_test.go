package load_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// FuzzLoad reads arbitrary bytes every way a log is loaded (Collect
// folding as the events arrive, Collect then Validate, Stream): the ways
// agree on the verdict and its text, a refusal is one *sessionlog.Error
// naming the file, and nothing panics.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(badReplace))
	f.Add([]byte(head + "\n" + badReplace))
	f.Add([]byte(head + "\n" + badReplace[:120]))
	f.Add([]byte("\xEF\xBB\xBF" + badReplace))
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := load.Options{Read: reader.Options{MaxLineBytes: 1 << 16}}
		ways := map[string]func(f *load.File) error{
			"collect": func(f *load.File) error { _, err := f.Collect(true); return err },
			"validate": func(f *load.File) error {
				lg, err := f.Collect(false)
				if err != nil {
					return err
				}
				return lg.Validate()
			},
			"stream": func(f *load.File) error {
				_, err := f.Stream(func(*sessionlog.Event, int64) bool { return true })
				return err
			},
		}
		verdicts := map[string]string{}
		for way, read := range ways {
			lf, err := load.OpenReader(bytes.NewReader(data), "f.jsonl", opts)
			if err == nil {
				err = read(lf)
				lf.Close()
			}
			verdicts[way] = "ok"
			if err != nil {
				var e *sessionlog.Error
				if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "f.jsonl") {
					t.Fatalf("%s: %v: not a refusal naming the file", way, err)
				}
				verdicts[way] = err.Error()
			}
		}
		if verdicts["collect"] != verdicts["validate"] || verdicts["collect"] != verdicts["stream"] {
			t.Fatalf("the ways disagree: %q", verdicts)
		}
	})
}
