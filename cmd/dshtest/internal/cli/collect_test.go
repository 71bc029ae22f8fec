package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// TestCollect: collect gathers what reader.Collect does on each of its
// paths: one slice sized from a raw file's size, a sized slice whose
// estimate falls short (a log whose first events are much bigger than the
// rest), and pages when the text's size is unknown (Zstandard).
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	small := sessiongen.Generate(3, sessiongen.Config{Events: 20000, Terse: 2, Hostile: -1, Huge: -1})
	var big bytes.Buffer
	if err := jsonl.WriteLog(&big, small); err != nil {
		t.Fatal(err)
	}
	// Short-falling: the first page's events carry a long ignorable note.
	var skew bytes.Buffer
	for i := range small {
		e := small[i]
		if i < 5000 {
			e.Type, e.Ignorable = sessiongen.UnknownType, true
			e.Data = json.RawMessage(`{"note":"` + strings.Repeat("x", 2000) + `"}`)
			e.SurfaceOp, e.SourceEventSeqs = nil, nil
		}
		line, err := jsonl.AppendEvent(nil, &e)
		if err != nil {
			t.Fatal(err)
		}
		skew.Write(append(line, '\n'))
	}
	head := []byte(`{"type":"session","version":0,"id":"c","createdAt":1,"cwd":"/w"}`)
	zst := logforms.Zstd(append([][]byte{head}, logforms.SplitLines(big.Bytes())...), 300)
	for name, data := range map[string][]byte{"raw.jsonl": big.Bytes(), "skew.jsonl": skew.Bytes(), "log.jsonl.zstd": zst} {
		path := logforms.WriteFile(t, dir, name, data)
		open := func() *reader.Stream {
			s, err := reader.Open(path, reader.Options{AllowUnknown: true})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		want, err := reader.Collect(open())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := collect(open(), nil, nil)
		if err != nil {
			t.Fatalf("%s: collect: %v", name, err)
		}
		if len(got.Events) != len(want.Events) || !reflect.DeepEqual(got.Lines, want.Lines) {
			t.Fatalf("%s: %d events, want %d", name, len(got.Events), len(want.Events))
		}
		for i := range want.Events {
			if !sameEvent(&got.Events[i], &want.Events[i]) {
				t.Fatalf("%s: event %d differs", filepath.Base(name), i)
			}
		}
	}
}

func sameEvent(a, b *sessionlog.Event) bool {
	return a.Type == b.Type && a.Seq == b.Seq && a.Time == b.Time && a.Ignorable == b.Ignorable &&
		bytes.Equal(a.Data, b.Data) && bytes.Equal(a.SurfaceOp, b.SurfaceOp) && bytes.Equal(a.SourceEventSeqs, b.SourceEventSeqs)
}
