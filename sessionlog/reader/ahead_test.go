package reader_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// TestReadAhead: a headered log read through the line scanner that runs
// ahead of the stream yields every event in order with its line, across
// many batches (the buffers the stream hands back are reused), and a
// stream closed part way stops the scanner (run it under -race).
func TestReadAhead(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":0,"id":"ra","createdAt":1,"cwd":"/w"}` + "\n")
	const n = 5000
	for i := range n {
		// Lines of varying length, so that reused buffers hold stale bytes.
		fmt.Fprintf(&b, `{"type":"session/title","seq":%d,"time":%d,"data":{"title":"t%0*d"}}`+"\n", i, i, 1+i%37, i)
	}
	dir := t.TempDir()
	path := logforms.WriteFile(t, dir, "s.jsonl", b.Bytes())
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for s.Next() {
		e := s.Event()
		want := fmt.Sprintf(`{"title":"t%0*d"}`, 1+i%37, i)
		if e.Seq != int64(i) || string(e.Data) != want || s.Line() != i+2 {
			t.Fatalf("event %d: seq %d line %d data %s, want %s", i, e.Seq, s.Line(), e.Data, want)
		}
		i++
	}
	if err := s.Err(); err != nil || i != n {
		t.Fatalf("%d events, err %v", i, err)
	}
	s.Close()
	for _, stopAt := range []int{0, 1, 300, 4000} {
		s, err := reader.Open(filepath.Join(dir, "s.jsonl"), reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < stopAt && s.Next(); k++ {
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s.Close() // twice is harmless
	}
}
