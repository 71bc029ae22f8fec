package container

import (
	"archive/zip"
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
// (or two of one subagent) is refused, naming both, not read as the last.
func TestZipTwoSessionMembers(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"session.jsonl", "media/a.png", "session.jsonl"} {
		w, _ := zw.Create(name)
		w.Write([]byte(hdr + "\n"))
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "two.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	_, err := Open(p, Options{})
	if err == nil || !strings.Contains(err.Error(), "holds 2 members named session.jsonl (archive entries 1 and 3)") {
		t.Fatalf("err %v, want both members named", err)
	}
}
