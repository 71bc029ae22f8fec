package jsonl

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
)

// FuzzDecode: decoding never panics; every error is a *sessionlog.Error naming a
// line ≥ 1 that exists; whatever decodes (the whole log or the prefix
// before an error) re-encodes to bytes that decode to the same bytes again.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"example-session.jsonl", "upstream-compaction-scenario.jsonl", "packed-container.jsonl"} {
		data, err := os.ReadFile("../testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		// Keep seeds small (minimizing a large interesting input stalls the
		// fuzzer): drop lines over 600 bytes, and add a torn copy.
		var small []byte
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if len(line) <= 600 {
				small = append(small, line...)
			}
		}
		f.Add(small)
		f.Add(small[:len(small)/2])
	}
	f.Add([]byte(""))
	f.Add([]byte("\n\n"))
	f.Add([]byte("\x28\xb5\x2f\xfd\x00\x01"))
	f.Add([]byte(`{"type":"text-chunks","seq0":0,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[2],"texts":["a","b"]}}`))
	f.Add([]byte(`{"type":"session","version":0}` + "\n" + `{"type":"session","seq":0,"time":1,"data":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		log, err := ParseLog(data, "fuzz")
		if log == nil {
			t.Fatal("nil Log")
		}
		if err != nil {
			var de *sessionlog.Error
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *sessionlog.Error: %v", err, err)
			}
			if lines := bytes.Count(data, []byte("\n")) + 1; de.Line < 1 || de.Line > lines {
				t.Fatalf("error names line %d of %d: %v", de.Line, lines, err)
			}
			if de.Path != "fuzz" || !strings.HasPrefix(err.Error(), "fuzz:"+strconv.Itoa(de.Line)+": ") {
				t.Fatalf("error text %q", err)
			}
		}
		var once bytes.Buffer
		if _, err := log.WriteTo(&once); err != nil {
			t.Fatalf("encode: %v", err)
		}
		again, err := ParseLog(once.Bytes(), "again")
		if err != nil {
			t.Fatalf("re-decoding the encoding failed: %v\n%s", err, once.Bytes())
		}
		var twice bytes.Buffer
		if _, err := again.WriteTo(&twice); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once.Bytes(), twice.Bytes()) {
			t.Fatalf("encode(decode(encode(x))) != encode(x):\n%s\n%s", once.Bytes(), twice.Bytes())
		}
	})
}
