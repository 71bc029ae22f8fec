package container

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// TestMillionEventsStream reads a 1M-event .jsonl.zstd (one frame per 1000
// events) and samples the heap while doing so: the reader streams frame by
// frame, so the heap stays far below the size of the plaintext (and of the
// compressed file plus the plaintext, which a whole-file reader would hold).
func TestMillionEventsStream(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 1M-event log")
	}
	const events = 1_000_000
	p := filepath.Join(t.TempDir(), "big.jsonl.zstd")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.Write(zstdFrame(t, []byte(hdr+"\n")))
	plain := int64(len(hdr) + 1)
	var batch []byte
	for i := 0; i < events; i++ {
		batch = append(batch, `{"type":"assistant/chunk","seq":`...)
		batch = strconv.AppendInt(batch, int64(i), 10)
		batch = append(batch, `,"time":`...)
		batch = strconv.AppendInt(batch, int64(i*37%1000), 10)
		batch = append(batch, `,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"tok`...)
		batch = strconv.AppendInt(batch, int64(i*2654435761%100000), 36)
		batch = append(batch, "\"}}}\n"...)
		if (i+1)%1000 == 0 {
			plain += int64(len(batch))
			w.Write(zstdFrame(t, batch))
			batch = batch[:0]
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, _ := os.Stat(p)

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	lg, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	n := 0
	for lg.Next() {
		n++
		if n%50_000 == 0 {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak {
				peak = ms.HeapAlloc
			}
		}
	}
	if lg.Err() != nil || len(lg.Warnings()) != 0 || n != events+1 {
		t.Fatalf("read %d lines: %v %v", n, lg.Err(), lg.Warnings())
	}
	grown := int64(peak) - int64(base)
	t.Logf("compressed %d bytes, plaintext %d bytes, heap grew at most %d bytes while reading", fi.Size(), plain, grown)
	if grown > plain/4 || grown > 32<<20 {
		t.Fatalf("heap grew by %d bytes reading a %d-byte plaintext: not streaming", grown, plain)
	}
}
