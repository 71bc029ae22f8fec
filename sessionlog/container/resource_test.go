package container

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/klauspost/compress/zstd"
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

// TestZipZstdMemberSpool: a deflated Zstandard member is spooled to a
// temporary file that is never seen in $TMPDIR (unlinked at once, so no
// exit leaves it) and never longer than the text cap; a member declaring
// more than the cap is refused before any spool; a stored one is read in
// place.
func TestZipZstdMemberSpool(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	z := append(zstdFrame(t, []byte(hdr+"\n")), zstdFrame(t, []byte(`{"type":"turn/start","seq":0,"time":0,"data":{}}`+"\n"))...)
	write := func(name string, method uint16, member []byte) string {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "session.jsonl", Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(member)
		zw.Close()
		p := filepath.Join(dir, name)
		os.WriteFile(p, buf.Bytes(), 0o644)
		return p
	}
	for _, method := range []uint16{zip.Deflate, zip.Store} {
		lg, err := Open(write("ok.zip", method, z), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("method %d: %d files in $TMPDIR while the log is open", method, len(left))
		}
		n := 0
		for lg.Next() {
			n++
		}
		lg.Close()
		if n != 2 || lg.Err() != nil {
			t.Fatalf("method %d: %d lines, %v", method, n, lg.Err())
		}
	}
	big := append(append([]byte{}, z[:4]...), make([]byte, 16<<20)...) // the magic, then 16 MiB
	_, err := Open(write("big.zip", zip.Deflate, big), Options{MaxText: 1 << 20})
	if !errors.Is(err, sessionlog.ErrTextTooLong) || !strings.Contains(err.Error(), "over the 1048576-byte text limit") {
		t.Fatalf("err %v, want the member over the cap", err)
	}
}

// TestZipTwoSessionMembers: an export with two members named session.jsonl
// (or two of one subagent), also as ./session.jsonl or /session.jsonl,
// which unzip extracts to the same file, is refused, naming both, not read
// as one of them; a lone ./session.jsonl is the root log.
func TestZipTwoSessionMembers(t *testing.T) {
	for _, tc := range []struct {
		members []string
		want    string
	}{
		{[]string{"session.jsonl", "media/a.png", "session.jsonl"}, "holds 2 members named session.jsonl (archive entries 1 and 3)"},
		{[]string{"session.jsonl", "./session.jsonl"}, "holds 2 members named session.jsonl (archive entries 1 and 2)"},
		{[]string{"/session.jsonl", "media/a.png", "session.jsonl"}, "holds 2 members named session.jsonl (archive entries 1 and 3)"},
		{[]string{"./session.jsonl"}, ""},
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, name := range tc.members {
			w, _ := zw.Create(name)
			w.Write([]byte(hdr + "\n"))
		}
		zw.Close()
		p := filepath.Join(t.TempDir(), "two.zip")
		os.WriteFile(p, buf.Bytes(), 0o644)
		lg, err := Open(p, Options{})
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.members, err)
			} else {
				lg.Close()
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want both members named", tc.members, err)
		}
	}
}

// rawFrame writes a Zstandard frame of stored blocks (no content size, a
// 128 KiB window): structurally valid, as large as its text, and a deflated
// zip member shrinks it a thousandfold. block returns the i-th block, nil
// after the last.
func rawFrame(w io.Writer, block func(i int) []byte) {
	w.Write([]byte{0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x38})
	b := block(0)
	for i := 1; b != nil; i++ {
		next := block(i)
		h := uint32(len(b)) << 3
		if next == nil {
			h |= 1
		}
		w.Write([]byte{byte(h), byte(h >> 8), byte(h >> 16)})
		w.Write(b)
		b = next
	}
}

// TestSpoolWatchesText: a Zstandard stream that must be spooled (a zip's
// deflated member, a pipe) is refused the moment its text passes the line
// cap or the text cap, with the reader's refusal, having spooled little
// more than the cap it passed rather than the whole stream (up to the text
// cap), in bounded time and memory, and leaving nothing in $TMPDIR.
func TestSpoolWatchesText(t *testing.T) {
	const lineCap, textCap = 1 << 20, 8 << 20
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var wrote int64
	spooled = func(n int64) { wrote = n }
	t.Cleanup(func() { spooled = func(int64) {} })
	blocks := func(n int, b []byte) func(int) []byte {
		return func(i int) []byte {
			if i >= n {
				return nil
			}
			return b
		}
	}
	stream := func(body func(int) []byte) []byte {
		var buf bytes.Buffer
		rawFrame(&buf, blocks(1, []byte(hdr+"\n")))
		rawFrame(&buf, body)
		return buf.Bytes()
	}
	zipped := func(z []byte) string {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "session.jsonl", Method: zip.Deflate})
		w.Write(z)
		zw.Close()
		p := filepath.Join(t.TempDir(), "x.zip")
		os.WriteFile(p, buf.Bytes(), 0o644)
		return p
	}
	line := bytes.Repeat([]byte("a"), 128<<10)
	endless := stream(func(i int) []byte { // one 16 MiB line
		switch {
		case i < 128:
			return line
		case i == 128:
			return []byte("\n")
		}
		return nil
	})
	var blank bytes.Buffer // 32 MiB of text in an 80 KiB stream: RLE blocks
	blank.Write(stream(blocks(1, []byte("\n"))))
	for range 8 << 10 { // a frame of one RLE block: 4 KiB of newlines
		blank.Write([]byte{0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x38, 0x03 | (4096<<3)&0xff, byte(4096 << 3 >> 8), 0, '\n'})
	}
	cases := []struct {
		name    string
		z       []byte
		opts    Options
		want    string
		cause   error
		maxDisk int64 // the spool's bound, where it passed the cap
	}{
		{"an endless line", endless, Options{MaxLine: lineCap, MaxText: 4 * textCap}, "line is longer than the 1048576-byte line limit", sessionlog.ErrTooLong, 2 << 20},
		{"blank lines", blank.Bytes(), Options{MaxLine: lineCap, MaxText: 1 << 20}, "the log's text is longer than the 1048576-byte text limit", sessionlog.ErrTextTooLong, 16 << 10},
	}
	readAll := func(lg *Log, err error) error {
		if err != nil {
			return err
		}
		for lg.Next() {
		}
		lg.Close()
		return lg.Err()
	}
	for _, c := range cases {
		// The reader's own refusal, reading the stream in place.
		inPlace := readAll(Open(writeFile(t, t.TempDir(), "x.jsonl.zstd", c.z), c.opts))
		var ref *sessionlog.Error
		if !errors.As(inPlace, &ref) || !errors.Is(inPlace, c.cause) || ref.Reason != c.want {
			t.Fatalf("%s: read in place: %v, want %q", c.name, inPlace, c.want)
		}
		for _, via := range []string{"zip member", "pipe"} {
			t.Run(c.name+", "+via, func(t *testing.T) {
				zip := zipped(c.z)
				wrote = -1
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				start := time.Now()
				var lg *Log
				var err error
				if via == "pipe" {
					lg, err = OpenReader(io.MultiReader(bytes.NewReader(c.z)), "-", c.opts)
				} else {
					lg, err = Open(zip, c.opts)
				}
				if err == nil {
					t.Errorf("opened; want the spool refused (read: %v)", readAll(lg, nil))
				}
				runtime.ReadMemStats(&after)
				var e *sessionlog.Error
				if !errors.As(err, &e) || !errors.Is(err, c.cause) || e.Reason != ref.Reason || e.Line != ref.Line {
					t.Fatalf("err %v, want line %d: %s", err, ref.Line, ref.Reason)
				}
				if wrote < 0 || wrote > c.maxDisk {
					t.Errorf("spooled %d bytes, want at most %d", wrote, c.maxDisk)
				}
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
					t.Errorf("allocated %d bytes", alloc)
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
}

// TestZstdOpenReadsTheHeaderOnly: opening a Zstandard log of one frame
// (what `zstd session.jsonl` writes) decodes its first line and no more:
// reading a line cap's worth of the frame to find the header cost a
// whole-log frame up to 64 MiB before the first event.
func TestZstdOpenReadsTheHeaderOnly(t *testing.T) {
	prompt := strings.Repeat("lorem ipsum ", 1<<18) // 3 MiB
	plain := []byte(hdr + "\n")
	for i := 0; i < 8; i++ {
		plain = append(plain, `{"type":"x/y","seq":`+strconv.Itoa(i)+`,"time":0,"data":{"t":"`+prompt+`"},"ignorable":true}`+"\n"...)
	}
	p := filepath.Join(t.TempDir(), "whole.jsonl.zstd")
	if err := os.WriteFile(p, logforms.ZstdWhole(t, plain), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lg, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	defer lg.Close()
	// The decoder's window (8 MiB for this encoder) and its buffers.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 12<<20 {
		t.Errorf("Open allocated %d bytes of a %d-byte frame", alloc, len(plain))
	}
	n := 0
	for lg.Next() {
		n++
	}
	if lg.Err() != nil || n != 9 {
		t.Fatalf("read %d lines: %v", n, lg.Err())
	}
}

// TestZstdWindowAndDecoders: a Zstandard log reports the window its
// decoder allocates whole (Log.Window) and the text decoded so far
// (Log.Decoded), and a second read with the same Decoders reuses the first
// read's decoder and its window instead of allocating another; without
// Decoders, each read allocates its own.
func TestZstdWindowAndDecoders(t *testing.T) {
	prompt := strings.Repeat("lorem ipsum ", 1<<16) // 768 KiB
	plain := []byte(hdr + "\n")
	for i := 0; i < 4; i++ {
		plain = append(plain, `{"type":"x/y","seq":`+strconv.Itoa(i)+`,"time":0,"data":{"t":"`+prompt+`"},"ignorable":true}`+"\n"...)
	}
	const window = 64 << 20
	dir := t.TempDir()
	p := filepath.Join(dir, "long.jsonl.zstd")
	if err := os.WriteFile(p, logforms.ZstdWindow(t, plain, window), 0o644); err != nil {
		t.Fatal(err)
	}
	raw := filepath.Join(dir, "raw.jsonl")
	if err := os.WriteFile(raw, plain, 0o644); err != nil {
		t.Fatal(err)
	}
	if lg, err := Open(raw, Options{}); err != nil || lg.Window() != 0 || lg.Decoded() != 0 {
		t.Fatalf("raw log: window %d, decoded %d, err %v", lg.Window(), lg.Decoded(), err)
	} else {
		lg.Close()
	}
	// read reads the log once and returns what it allocated.
	read := func(opts Options) uint64 {
		t.Helper()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		lg, err := Open(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		if w := lg.Window(); w != window {
			t.Errorf("Window() = %d, want %d", w, window)
		}
		n := 0
		for lg.Next() {
			n++
		}
		if lg.Err() != nil || n != 5 {
			t.Fatalf("read %d lines: %v", n, lg.Err())
		}
		if d := lg.Decoded(); d != int64(len(plain)) {
			t.Errorf("Decoded() = %d, want %d", d, len(plain))
		}
		lg.Close()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	if a := read(Options{}); a < window {
		t.Errorf("a read allocated %d bytes, less than its window: is the window still allocated whole?", a)
	}
	decs := &Decoders{}
	defer decs.Close()
	first := read(Options{Decoders: decs})
	second := read(Options{Decoders: decs})
	t.Logf("first read %d bytes, second %d", first, second)
	if first < window || second > window/4 {
		t.Errorf("with Decoders: first read allocated %d bytes, second %d; want the window (%d) once", first, second, window)
	}
	// Another text cap is another decoder.
	if a := read(Options{Decoders: decs, MaxText: 1 << 30}); a < window {
		t.Errorf("a read under another text cap allocated %d bytes: it must not reuse the decoder", a)
	}
}

// TestZstdTextCapUnderWindow: a text cap smaller than a frame's window is
// the text cap's refusal once the text passes it, not a corrupt frame (the
// decoder's memory cap was once the text cap, which refused the window).
func TestZstdTextCapUnderWindow(t *testing.T) {
	prompt := strings.Repeat("lorem ipsum ", 1<<16) // 768 KiB
	plain := []byte(hdr + "\n")
	for i := 0; i < 4; i++ {
		plain = append(plain, `{"type":"x/y","seq":`+strconv.Itoa(i)+`,"time":0,"data":{"t":"`+prompt+`"},"ignorable":true}`+"\n"...)
	}
	p := filepath.Join(t.TempDir(), "w.jsonl.zstd")
	if err := os.WriteFile(p, logforms.ZstdWindow(t, plain, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		maxText int64
		refused bool
	}{{1 << 20, true}, {int64(len(plain)), false}} {
		lg, err := Open(p, Options{MaxText: tc.maxText})
		if err != nil {
			t.Fatalf("cap %d: Open: %v", tc.maxText, err)
		}
		for lg.Next() {
		}
		err = lg.Err()
		lg.Close()
		if tc.refused != (err != nil) || err != nil && !errors.Is(err, sessionlog.ErrTextTooLong) {
			t.Errorf("cap %d under an 8 MiB window: %v, want refused %v with the text limit", tc.maxText, err, tc.refused)
		}
	}
}

// TestTornFrameUnderTextCap: the incomplete final frame is decoded no
// further than the text cap, in either pass: a torn frame of a few
// kilobytes that expands to 64 MiB yields at most the cap and one byte
// (the scanner then refuses the log), where its first pass had decoded
// all of it (a torn 32 GiB bomb took 14-16 s to refuse, whatever the cap).
func TestTornFrameUnderTextCap(t *testing.T) {
	frame := logforms.ZstdFrame(t, bytes.Repeat([]byte(" "), 64<<20))
	torn := frame[:len(frame)-8]                                     // the last block and the checksum cut
	for _, limit := range []int64{1 << 10, 1 << 20, math.MaxInt64} { // the largest cap: no overflow to nothing
		r, err := tornFrame(bytes.NewReader(torn), 0, int64(len(torn)), 0, limit)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, r)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 || limit < math.MaxInt64 && n > limit+1 {
			t.Errorf("limit %d: the torn frame yields %d bytes", limit, n)
		}
	}
}

// TestReadHeaderLineBounded: a listing reads a header line of at most
// 1 MiB, from a first frame whose window is at most 16 MiB, so that a store
// of files that start otherwise costs little per file (each had cost up to
// 64 MiB of decoding and a 128 MiB window).
func TestReadHeaderLineBounded(t *testing.T) {
	dir := t.TempDir()
	long := bytes.Repeat([]byte("x"), 3<<20) // no newline
	var wide bytes.Buffer
	zw, err := zstd.NewWriter(&wide, zstd.WithWindowSize(128<<20))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(zw, bytes.NewReader(long)); err != nil { // streamed: the window is declared
		t.Fatal(err)
	}
	zw.Close()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"raw, a long first line", append(long, '\n'), "no newline in its first 1 MiB"},
		{"zstd, a long first line", logforms.ZstdFrame(t, append(long, '\n')), "no complete line in its first 1 MiB"},
		{"zstd, a 128 MiB window", wide.Bytes(), "window is over the 16 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _, err := ReadHeaderLine(path)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want a refusal saying %q", err, tc.want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 24<<20 {
				t.Errorf("%d bytes allocated reading the header line", alloc)
			}
		})
	}
}
