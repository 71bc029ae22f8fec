package container

import (
	"archive/zip"
	"bytes"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
)

// FuzzTextCap holds every form to the byte rule (TestTextCap's, on any
// input): arbitrary bytes read raw (whatever form they sniff as), as the
// plaintext of a Zstandard frame, and as a zip export's session.jsonl,
// under a small text cap and line cap. A read either succeeds, with no
// more text than the cap and no line over the line cap, or is refused; a
// refusal for size names its limit; nothing panics, and the allocation is
// bounded by the caps, not by what the bytes inflate to.
func FuzzTextCap(f *testing.F) {
	const textCap, lineCap = 4096, 512
	f.Add([]byte(hdr + "\n" + `{"type":"turn/start","seq":0,"time":0,"data":{}}` + "\n"))
	f.Add([]byte(hdr + "\n" + strings.Repeat("\n", 8192)))
	f.Add([]byte(hdr + "\n" + `{"type":"x/y","seq":0,"time":0,"data":{"t":"` + strings.Repeat("a", 1024) + `"},"ignorable":true}` + "\n"))
	f.Add(append(zstdFrame(f, []byte(hdr+"\n")), zstdFrame(f, bytes.Repeat([]byte("\n"), 1<<16))...))
	f.Add([]byte{})
	opts := Options{MaxText: textCap, MaxLine: lineCap}
	f.Fuzz(func(t *testing.T, data []byte) {
		forms := []struct {
			name  string
			input []byte
			text  int64 // the plaintext's size, or -1 when the bytes decide it
		}{
			{"raw", data, -1},
			{"zstd", zstdFrame(t, data), int64(len(data))},
			{"zip", zipOf(t, data), int64(len(data))},
		}
		for _, fm := range forms {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			text, err := readAll(fm.input, opts)
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20+16*uint64(len(fm.input)) {
				t.Errorf("%s: %d bytes of input allocated %d", fm.name, len(fm.input), alloc)
			}
			switch {
			case err == nil:
				if text > textCap {
					t.Errorf("%s: read %d bytes of text under a %d-byte cap", fm.name, text, textCap)
				}
				if fm.text > textCap {
					t.Errorf("%s: a %d-byte text accepted under a %d-byte cap", fm.name, fm.text, textCap)
				}
			case errors.Is(err, sessionlog.ErrTextTooLong):
				if !strings.Contains(err.Error(), "text limit") {
					t.Errorf("%s: %v does not name the text limit", fm.name, err)
				}
			case errors.Is(err, errLineOverCap):
				t.Errorf("%s: %v", fm.name, err)
			case errors.Is(err, sessionlog.ErrTooLong):
				if !strings.Contains(err.Error(), strconv.Itoa(lineCap)+"-byte line limit") {
					t.Errorf("%s: %v does not name the line limit", fm.name, err)
				}
			}
		}
	})
}

// readAll reads a log held in b, checking every line against the line cap,
// and returns the text read (lines and their newlines) and the refusal.
func readAll(b []byte, opts Options) (int64, error) {
	lg, err := OpenReader(bytes.NewReader(b), "fuzz", opts)
	if err != nil {
		return 0, err
	}
	defer lg.Close()
	var text int64
	for lg.Next() {
		l := lg.Line().Data
		if len(l) > opts.LineLimit() {
			return text, errLineOverCap
		}
		text += int64(len(l)) + 1
	}
	return text, lg.Err()
}

var errLineOverCap = errors.New("a line over the line cap was yielded")

// zipOf is a web export holding b as its session.jsonl, deflated.
func zipOf(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
