package container

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshtest/dshtest/sessionlog"
)

// TestTextCap: a small log whose text inflates past the text cap is refused
// naming the cap, within a bounded time and allocation, in each form that
// inflates: Zstandard frames of huge prompts, Zstandard frames of blank
// lines (the error path: no text is made per bad line), a zip export's
// member, and raw JSONL (the cap applies to every form).
func TestTextCap(t *testing.T) {
	const textCap = 8 << 20
	prompt := strings.Repeat("a", 1<<20)
	var turns []byte
	for i := 0; i < 64; i++ { // 64 MiB of text, a few kilobytes compressed
		turns = append(turns, `{"type":"x/y","seq":`+strconv.Itoa(i)+`,"time":0,"data":{"t":"`+prompt+`"},"ignorable":true}`+"\n"...)
	}
	blanks := bytes.Repeat([]byte("\n"), 64<<20)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct{ name, path, want string }{
		{"zstd prompts", write("p.jsonl.zstd", append(zstdFrame(t, []byte(hdr+"\n")), zstdFrame(t, turns)...)), "text limit"},
		{"zstd blank lines", write("b.jsonl.zstd", append(zstdFrame(t, []byte(hdr+"\n")), zstdFrame(t, blanks)...)), "text limit"},
		{"raw JSONL", write("r.jsonl", append([]byte(hdr+"\n"), turns...)), "text limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			lg, err := Open(c.path, Options{MaxText: textCap, MaxLine: 2 << 20})
			if err != nil {
				t.Fatal(err)
			}
			for lg.Next() {
			}
			lg.Close()
			runtime.ReadMemStats(&after)
			if !errors.Is(lg.Err(), sessionlog.ErrTextTooLong) || !strings.Contains(lg.Err().Error(), "text limit") {
				t.Fatalf("err %v, want the text over the cap", lg.Err())
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*textCap {
				t.Errorf("allocated %d bytes for an %d-byte text cap", alloc, textCap)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
