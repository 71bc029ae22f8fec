package reader_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog"
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

// TestReadAheadLendsHugeLines: a line of a batch's size or more is lent to
// the stream, not copied into a batch: reading a log of 4 MiB lines
// allocates the decoder's copy of each line, and the blocks and the buffer
// that gather one, reused from line to line, under six lines' worth (a
// copy of each line into a batch was 1.6 times the text more).
func TestReadAheadLendsHugeLines(t *testing.T) {
	const n, size = 8, 4 << 20
	path, textLen := hugeLines(t, n, size)
	before, s := openCounted(t, path)
	var after runtime.MemStats
	i := 0
	for s.Next() {
		if e := s.Event(); e.Seq != int64(i) || len(e.Data) != size+len(`{"title":""}`) {
			t.Fatalf("event %d: seq %d, %d bytes of data", i, e.Seq, len(e.Data))
		}
		i++
	}
	if err := s.Err(); err != nil || i != n {
		t.Fatalf("%d events, err %v", i, err)
	}
	s.Close()
	runtime.ReadMemStats(&after)
	alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(textLen)+6*size
	t.Logf("%d bytes allocated reading %d bytes of text", alloc, textLen)
	if alloc > limit {
		t.Errorf("%d bytes allocated reading %d bytes of text, over %d", alloc, textLen, limit)
	}
}

// TestHugeLineHeldOnce: a single line of 24 MiB, of a headered log or a
// header-less one, is read into one allocation of its size, which the
// event's data slices, and the blocks that gathered it: 2.2 times the
// line is allocated (56 MB), where a buffer grown by appends and the decoder's copy
// of the line had allocated six times it (150 MB).
func TestHugeLineHeldOnce(t *testing.T) {
	const size = 24 << 20
	text := bytes.Repeat([]byte("x"), size)
	line := fmt.Sprintf(`{"type":"session/title","seq":0,"time":0,"data":{"title":"%s"}}`+"\n", text)
	for _, tc := range []struct{ name, log string }{
		{"headered", `{"type":"session","version":0,"id":"h1","createdAt":1,"cwd":"/w"}` + "\n" + line},
		{"header-less", line},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := logforms.WriteFile(t, t.TempDir(), "s.jsonl", []byte(tc.log))
			before, s := openCounted(t, path)
			var after runtime.MemStats
			if !s.Next() || len(s.Event().Data) != size+len(`{"title":""}`) {
				t.Fatalf("no event of %d bytes: %v", size, s.Err())
			}
			for s.Next() {
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			s.Close()
			alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(2*size+8<<20)
			t.Logf("%d bytes allocated reading a line of %d", alloc, len(line))
			if alloc > limit {
				t.Errorf("%d bytes allocated reading a line of %d, over %d", alloc, len(line), limit)
			}
		})
	}
}

// openCounted opens the log at path once the heap is collected, and
// returns the memory statistics from just before.
func openCounted(t *testing.T, path string) (runtime.MemStats, *reader.Stream) {
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return before, s
}

// hugeLines writes a headered log of n session/title events whose titles
// are size bytes each, and returns its path and length.
func hugeLines(t *testing.T, n, size int) (string, int) {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":0,"id":"ra","createdAt":1,"cwd":"/w"}` + "\n")
	text := bytes.Repeat([]byte("x"), size)
	for i := range n {
		fmt.Fprintf(&b, `{"type":"session/title","seq":%d,"time":%d,"data":{"title":"%s"}}`+"\n", i, i, text)
	}
	return logforms.WriteFile(t, t.TempDir(), "s.jsonl", b.Bytes()), b.Len()
}

// TestClosedStreamHoldsNoLine: a stream closed before its end (repro's
// second read stops at the events the first read yielded) and still held
// (its header, its summary) holds none of the lines or events it read:
// neither the container's buffer nor the decoder's nor the last event.
func TestClosedStreamHoldsNoLine(t *testing.T) {
	const size = 8 << 20
	path, _ := hugeLines(t, 3, size)
	before, s := openCounted(t, path)
	var after runtime.MemStats
	if !s.Next() || s.Event().Seq != 0 {
		t.Fatalf("first event: %v", s.Err())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if s.Header() == nil {
		t.Error("the header is gone with the buffers")
	}
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("a closed stream holds %d bytes", held)
	if held > size/2 {
		t.Errorf("a closed stream holds %d bytes of a log of %d-byte lines", held, size)
	}
	runtime.KeepAlive(s)
}

// TestPaddedLineNotHeld: an event of a line of a megabyte or more keeps
// its data as a slice of the line only when the data is most of the line:
// twenty lines of 1.1 MB of white space around 9 KB of data, their events
// all kept, hold about their data, not the lines (a 41 KB compressed log of
// 600 such lines had taken render to 686 MB).
func TestPaddedLineNotHeld(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":0,"id":"pad","createdAt":1,"cwd":"/w","delegationDepth":0}` + "\n")
	pad := strings.Repeat(" ", 1100<<10)
	data := strings.Repeat("d", 9<<10)
	const n = 20
	for i := range n {
		fmt.Fprintf(&b, `{"type":"session/title",%s"seq":%d,"time":%d,"data":{"title":"%s"}}`+"\n", pad, i, i, data)
	}
	path := logforms.WriteFile(t, t.TempDir(), "s.jsonl", b.Bytes())
	before, s := openCounted(t, path)
	var kept []sessionlog.Event
	for s.Next() {
		kept = append(kept, *s.Event())
	}
	if err := s.Err(); err != nil || len(kept) != n {
		t.Fatalf("%d events, %v", len(kept), err)
	}
	s.Close()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 8<<20 {
		t.Errorf("%d events of 9 KB of data hold %d bytes", n, held)
	}
	runtime.KeepAlive(kept)
}
