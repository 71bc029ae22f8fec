package load_test

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

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// TestTextCapForms: the text cap of the container's TestTextCap holds for
// the forms read outside the container's scanner too: raw JSONL with a
// header, a header-less log, and standard input (spooled by load.Spool,
// which stops at the cap and leaves no file). A small cap refuses a 64 MiB
// text with the one refusal (container.TextTooLong), within a bounded
// allocation and time.
func TestTextCapForms(t *testing.T) {
	const textCap = 8 << 20
	prompt := strings.Repeat("a", 1<<20)
	var turns []byte
	for i := 0; i < 64; i++ { // 64 MiB of text
		turns = append(turns, `{"type":"x/y","seq":`+strconv.Itoa(i)+`,"time":0,"data":{"t":"`+prompt+`"},"ignorable":true}`+"\n"...)
	}
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	raw := write("r.jsonl", append([]byte(head+"\n"), turns...))
	bare := write("b.jsonl", turns)
	opts := load.Options{Read: reader.Options{MaxTextBytes: textCap, MaxLineBytes: 2 << 20, AllowUnknown: true}}
	read := func(path string) error {
		lf, err := load.Open(path, opts)
		if err != nil {
			return err
		}
		defer lf.Close()
		_, err = lf.Stream(func(*sessionlog.Event, int64) bool { return true })
		return err
	}
	// bound is the allocation allowed, in times the cap: the header-less
	// decoder drops a line buffer over 1 MiB after each line and grows the
	// next one again, and copies each event's data into its arena.
	cases := []struct {
		name  string
		run   func() error
		want  string
		bound uint64
	}{
		{"raw with header", func() error { return read(raw) }, "r.jsonl:9: the log's text is longer than the 8388608-byte text limit", 4},
		{"bare", func() error { return read(bare) }, "b.jsonl:8: the log's text is longer than the 8388608-byte text limit", 6},
		{"stdin", func() error {
			p, err := load.Spool(bytes.NewReader(turns), "-", opts.Read)
			if err == nil {
				os.Remove(p)
				return errors.New("spooled")
			}
			return err
		}, "-: the log's text is longer than the 8388608-byte text limit", 1},
		{"stdin under the cap", func() error {
			p, err := load.Spool(bytes.NewReader(append([]byte(head+"\n"), turns[:len(turns)/64]...)), "-", opts.Read)
			if err != nil {
				return err
			}
			defer os.Remove(p)
			return read(p)
		}, "", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			err := c.run()
			runtime.ReadMemStats(&after)
			if c.want == "" && err != nil {
				t.Fatalf("err %v, want none", err)
			}
			if c.want != "" && (!errors.Is(err, sessionlog.ErrTextTooLong) || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > c.bound*textCap {
				t.Errorf("allocated %d bytes for an %d-byte text cap", alloc, textCap)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("%d files left in $TMPDIR", len(left))
			}
		})
	}
}
