package container

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog"
)

const hdr = logforms.Header

func ev(seq int, typ string) string  { return logforms.Event(seq, typ) }
func jsonl(lines ...string) string   { return logforms.JSONL(lines...) }
func turn(from int) []string         { return logforms.Turn(from) }
func cat(parts ...[]string) []string { return logforms.Cat(parts...) }
func linesOf(text string) [][]byte   { return splitLines([]byte(text)) }

// read collects a log's lines (copied), its refusal and its warnings.
func read(lg *Log, err error) (lines [][]byte, pos []sessionlog.Pos, warns []Warning, refusal error) {
	if err != nil {
		return nil, nil, nil, err
	}
	defer lg.Close()
	for lg.Next() {
		l := lg.Line()
		lines = append(lines, append([]byte(nil), l.Data...))
		pos = append(pos, l.Pos)
	}
	return lines, pos, lg.Warnings(), lg.Err()
}

type want struct {
	lines   int    // lines yielded, header included
	err     string // substring of the refusal
	errLine int
	warn    string // substring of the one warning
	wLine   int
	dropped int
}

func check(t *testing.T, name string, lg *Log, openErr error, w want) {
	t.Helper()
	lines, _, warns, refusal := read(lg, openErr)
	if w.err != "" {
		if refusal == nil || !strings.Contains(refusal.Error(), w.err) {
			t.Fatalf("%s: refusal %v, want %q", name, refusal, w.err)
		}
		if ce, ok := refusal.(*sessionlog.Error); !ok || ce.Line != w.errLine {
			t.Fatalf("%s: refusal %#v, want line %d", name, refusal, w.errLine)
		}
		if strings.Contains(refusal.Error(), "\n") {
			t.Fatalf("%s: refusal is not one line: %q", name, refusal)
		}
		return
	}
	if refusal != nil {
		t.Fatalf("%s: unexpected refusal %v", name, refusal)
	}
	if len(lines) != w.lines {
		t.Fatalf("%s: %d lines, want %d", name, len(lines), w.lines)
	}
	if w.warn == "" {
		if len(warns) != 0 {
			t.Fatalf("%s: unexpected warnings %v", name, warns)
		}
		return
	}
	if len(warns) != 1 || !strings.Contains(warns[0].String(), w.warn) || warns[0].Line != w.wLine || warns[0].Dropped != w.dropped {
		t.Fatalf("%s: warnings %+v, want %q at line %d dropping %d", name, warns, w.warn, w.wLine, w.dropped)
	}
}

// TestRawRules covers upstream's SessionLogScanner rules (containers.md §2).
func TestRawRules(t *testing.T) {
	committed := cat([]string{hdr}, turn(0))
	cases := []struct {
		name string
		text string
		want want
	}{
		{"complete", jsonl(committed...), want{lines: 5}},
		{"header only", jsonl(hdr), want{lines: 1}},
		{"empty", "", want{err: "empty or header-less session log"}},
		{"header without newline", hdr, want{err: "empty or header-less session log"}},
		{"header not JSON", "{\"type\":\n", want{err: "corrupt session log: header line is not valid JSON", errLine: 1}},
		{"header not a session", jsonl(ev(0, "turn/start")), want{err: "corrupt session log: first line is not a session header", errLine: 1}},
		{"CRLF tolerated", strings.ReplaceAll(jsonl(committed...), "\n", "\r\n"), want{lines: 5}},
		{"torn raw tail", jsonl(committed...) + ev(4, "turn/start"), want{lines: 5, warn: "the final line has no newline", wLine: 6, dropped: 1}},
		{"torn tail even if valid JSON", jsonl(committed...) + `{"type":"turn/end","seq":4,"time":0,"data":{}}`,
			want{lines: 5, warn: "no newline", wLine: 6, dropped: 1}},
		{"bad line before a later turn/end", jsonl(cat([]string{hdr}, turn(0)[:2], []string{`{"type":`}, turn(0)[2:])...),
			want{err: "corrupt session log: unparsable committed event at line 3", errLine: 4}},
		{"bad line without a later turn/end", jsonl(cat(committed, []string{ev(4, "turn/start"), `{not json`, ev(5, "step/start")})...),
			want{lines: 6, warn: "corrupt session log: unparsable committed event at line 6", wLine: 7, dropped: 2}},
		{"seq gap before a later turn/end", jsonl(cat([]string{hdr}, turn(0)[:2], []string{ev(9, "step/end"), ev(10, "turn/end")})...),
			want{err: "corrupt session log: seq gap in committed region at line 3 (expected 2, got 9)", errLine: 4}},
		{"seq gap on the turn/end itself", jsonl(cat([]string{hdr}, turn(0)[:3], []string{ev(7, "turn/end")})...),
			want{err: "seq gap in committed region at line 4 (expected 3, got 7)", errLine: 5}},
		{"seq gap without a later turn/end", jsonl(cat(committed, []string{ev(5, "turn/start"), ev(6, "step/start")})...),
			want{lines: 5, warn: "seq gap in committed region at line 5 (expected 4, got 5)", wLine: 6, dropped: 2}},
		{"missing seq", jsonl(hdr, `{"type":"turn/start","time":0,"data":{}}`, ev(1, "turn/end")),
			want{err: "(expected 0, got undefined)", errLine: 2}},
		{"string seq", jsonl(hdr, `{"type":"turn/start","seq":"0","time":0,"data":{}}`, ev(1, "turn/end")),
			want{err: "(expected 0, got 0)", errLine: 2}},
		{"case-folded key is not seq", jsonl(hdr, `{"type":"turn/start","SEQ":0,"time":0,"data":{}}`, ev(1, "turn/end")),
			want{err: "got undefined", errLine: 2}},
		{"second header", jsonl(cat(committed, []string{hdr})...), want{err: "a second session header at line 6", errLine: 6}},
		{"blank line in the middle", jsonl(cat([]string{hdr}, turn(0)[:2], []string{""}, turn(0)[2:])...),
			want{err: "unparsable committed event at line 3", errLine: 4}},
		{"trailing blank line", jsonl(committed...) + "\n", want{lines: 5, warn: "unparsable", wLine: 6, dropped: 1}},
		{"packed row", jsonl(hdr, ev(0, "turn/start"),
			`{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1,-1],"texts":["a","b","c"]}}`, ev(4, "turn/end")),
			want{lines: 4}},
		{"packed row gap", jsonl(hdr, ev(0, "turn/start"),
			`{"type":"text-chunks","seq0":2,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}`, ev(5, "turn/end")),
			want{err: "seq gap in committed region at line 2 (expected 1, got 2)", errLine: 3}},
		{"malformed packed row", jsonl(hdr, ev(0, "turn/start"),
			`{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b","c"]}}`, ev(4, "turn/end")),
			want{err: "unparsable committed event at line 2", errLine: 3}},
		{"packed row with an extra key", jsonl(hdr, ev(0, "turn/start"),
			`{"type":"tool-call-chunks","seq0":1,"time0":5,"seq":1,"data":{"turn":1,"step":1,"index":0,"id":"c","dt":[],"args":["{"]}}`, ev(2, "turn/end")),
			want{err: "unparsable committed event at line 2", errLine: 3}},
		{"tool-call row with name", jsonl(hdr, ev(0, "turn/start"),
			`{"type":"tool-call-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"id":"c","name":"bash","dt":[0],"args":["{","}"]}}`, ev(3, "turn/end")),
			want{lines: 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "log", []byte(c.text))
			lg, err := Open(p, Options{})
			check(t, "file", lg, err, c.want)
			lg, err = OpenReader(strings.NewReader(c.text), "stream", Options{})
			check(t, "stream", lg, err, c.want)
		})
	}
}

func TestLineCap(t *testing.T) {
	text := jsonl(hdr, ev(0, "turn/start"), `{"type":"x","seq":1,"time":0,"data":"`+strings.Repeat("a", 300)+`"}`, ev(2, "turn/end"))
	lg, err := OpenReader(strings.NewReader(text), "cap", Options{MaxLine: 200})
	check(t, "cap", lg, err, want{err: "line is longer than the 200-byte line limit", errLine: 3})
	lg, err = OpenReader(strings.NewReader(text), "cap", Options{MaxLine: 400})
	check(t, "under cap", lg, err, want{lines: 4})
}

// zlog builds a Zstandard log from frames of plaintext.
func zlog(t *testing.T, frames ...string) []byte {
	var out []byte
	for _, f := range frames {
		out = append(out, zstdFrame(t, []byte(f))...)
	}
	return out
}

// TestZstdRules covers the Zstandard container (containers.md §3).
func TestZstdRules(t *testing.T) {
	h := hdr + "\n"
	t1, t2 := jsonl(turn(0)...), jsonl(turn(4)...)
	good := zlog(t, h, t1, t2)
	frame1 := int64(len(zlog(t, h)))
	frame2 := frame1 + int64(len(zlog(t, t1)))
	last := zstdFrame(t, []byte(t2))
	skippable := func(n int) []byte {
		b := make([]byte, 8+n)
		binary.LittleEndian.PutUint32(b, 0x184D2A50)
		binary.LittleEndian.PutUint32(b[4:], uint32(n))
		return b
	}
	flip := func(b []byte, at int) []byte { c := append([]byte(nil), b...); c[at] ^= 0x40; return c }

	// A torn last frame: a batch of many lines so that some blocks are complete.
	var big []string
	for i := 8; i < 8+6000; i++ {
		big = append(big, fmt.Sprintf(`{"type":"assistant/chunk","seq":%d,"time":%d,"data":{"turn":3,"step":1,"chunk":{"type":"text-delta","index":0,"text":"%x"}}}`, i, i*7919%1000, i*2654435761))
	}
	bigFrame := zstdFrame(t, []byte(jsonl(big...)))
	torn := append(zlog(t, h, t1, t2), bigFrame[:len(bigFrame)*2/3]...)

	cases := []struct {
		name string
		data []byte
		want want
	}{
		{"complete", good, want{lines: 9}},
		{"header only", zlog(t, h), want{lines: 1}},
		{"empty", nil, want{err: "empty or header-less session log"}},
		{"header frame torn", zlog(t, h)[:10], want{err: "empty or header-less Zstandard session log"}},
		// Not upstream's framing (FramingStream): the frames are one stream
		// of raw text, read with the raw rules.
		{"one frame of the whole log", zlog(t, h+t1+t2), want{lines: 9}},
		{"first frame holds two lines", zlog(t, h+t1), want{lines: 5}},
		{"frames cut mid-line", zlog(t, (h + t1)[:30], (h + t1)[30:], t2), want{lines: 9}},
		{"one frame ending in a torn line", zlog(t, h+t1+`{"type":"turn/start"`), want{lines: 5, warn: "the final line has no newline", wLine: 6, dropped: 1}},
		{"one frame, a bad line before a later turn/end", zlog(t, h+jsonl(ev(0, "turn/start"), "{bad", ev(1, "turn/end"))),
			want{err: "unparsable committed event at line 2", errLine: 3}},
		{"one frame not starting with a header", zlog(t, t1+t2), want{err: "first line is not a session header", errLine: 1}},
		{"frames cut mid-line, the last torn", append(zlog(t, h+t1[:20]), zstdFrame(t, []byte(t1[20:]+t2))[:len(zstdFrame(t, []byte(t1[20:]+t2)))-2]...),
			want{lines: 9, warn: fmt.Sprintf("frame at byte %d is incomplete", len(zlog(t, h+t1[:20]))), wLine: 10}},
		{"first frame not a header", zlog(t, ev(0, "turn/start")+"\n", t1), want{err: "first line is not a session header", errLine: 1}},
		{"line spans frames", zlog(t, h, t1[:20], t1[20:], t2), want{lines: 9}},
		{"torn inside the last frame's checksum", good[:len(good)-2], want{lines: 9, warn: fmt.Sprintf("frame at byte %d is incomplete", frame2), wLine: 10}},
		{"torn inside the last frame's first block", append(zlog(t, h, t1), last[:len(last)-8]...),
			want{lines: 5, warn: "is incomplete", wLine: 6}},
		{"a few stray bytes after the last frame", append(append([]byte(nil), good...), 0x28, 0xB5), want{lines: 9, warn: "is incomplete", wLine: 10}},
		{"corrupt checksum", flip(good, len(good)-1), want{err: fmt.Sprintf("corrupt Zstandard session log: frame at byte %d failed validation", frame2)}},
		{"corrupt header checksum", flip(good, int(frame1)-1), want{err: "frame at byte 0 failed validation"}},
		{"skippable frame first", append(skippable(4), good...), want{err: "corrupt Zstandard session log: invalid frame magic at byte 0"}},
		{"skippable frame later", append(append(zlog(t, h), skippable(4)...), zlog(t, t1)...),
			want{err: fmt.Sprintf("invalid frame magic at byte %d", frame1)}},
		{"bad line in a complete frame", zlog(t, h, jsonl(ev(0, "turn/start"), "{bad")), want{err: "complete frame contains a torn JSONL record", errLine: 3}},
		{"bad line before a later turn/end", zlog(t, h, jsonl(ev(0, "turn/start"), "{bad"), jsonl(ev(1, "turn/end"))),
			want{err: "unparsable committed event at line 2", errLine: 3}},
		{"partial line at the end of complete frames", zlog(t, h, t1, `{"type":"turn/start"`), want{err: "complete frame contains a torn JSONL record", errLine: 6}},
		{"second header in a later frame", zlog(t, h, t1, h), want{err: "a second session header at line 6", errLine: 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "log", c.data)
			lg, err := Open(p, Options{})
			check(t, "file", lg, err, c.want)
			lg, err = OpenReader(bytes.NewReader(c.data), "reader", Options{})
			check(t, "reader", lg, err, c.want)
		})
	}
	t.Run("reserved bits", func(t *testing.T) {
		b := append([]byte(nil), good...)
		b[frame1+4] |= 0x08
		lg, err := OpenReader(bytes.NewReader(b), "r", Options{})
		check(t, "reserved frame-header bit", lg, err, want{err: fmt.Sprintf("reserved frame-header bit at byte %d", frame1+4)})
	})
	t.Run("torn in the middle of the last frame keeps its complete lines", func(t *testing.T) {
		lines, _, warns, refusal := read(OpenReader(bytes.NewReader(torn), "r", Options{}))
		if refusal != nil || len(warns) != 1 {
			t.Fatalf("refusal %v warnings %v", refusal, warns)
		}
		kept := len(lines) - 9
		if kept == 0 || kept >= len(big) {
			t.Fatalf("kept %d of the torn frame's %d lines", kept, len(big))
		}
		for i := 0; i < kept; i++ {
			if string(lines[9+i]) != big[i] {
				t.Fatalf("recovered line %d differs", i)
			}
		}
		if warns[0].Line != 10+kept || warns[0].Kept != int64(8+kept) {
			t.Fatalf("warning %+v", warns[0])
		}
		t.Logf("%v", warns[0])
	})
}

func TestSessionDirectory(t *testing.T) {
	dir := t.TempDir()
	check(t, "empty dir", nil, func() error { _, err := Open(dir, Options{}); return err }(), want{err: "not a session directory"})
	writeFile(t, dir, "session.jsonl", []byte(jsonl(hdr)))
	lg, err := Open(dir, Options{})
	check(t, "raw", lg, err, want{lines: 1})
	writeFile(t, dir, "session.jsonl.zstd", zlog(t, hdr+"\n"))
	_, err = Open(dir, Options{})
	check(t, "both", nil, err, want{err: "holds both"})
	os.Remove(filepath.Join(dir, "session.jsonl"))
	lg, err = Open(dir, Options{})
	check(t, "zstd", lg, err, want{lines: 1})
	// by content, never by name: a .zstd name holding raw text reads as raw
	writeFile(t, dir, "session.jsonl.zstd", []byte(jsonl(cat([]string{hdr}, turn(0))...)))
	lg, err = Open(dir, Options{})
	if err != nil || lg.Form() != FormJSONL {
		t.Fatalf("raw text under a .zstd name: %v %v", err, lg)
	}
	check(t, "raw under zstd name", lg, nil, want{lines: 5})
}

func TestZipExport(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "dsh-session-s1.zip")
	writeZip(t, p, []byte(jsonl(cat([]string{hdr}, turn(0))...)), "sub.agent/1")
	lg, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lg.Subagents(), ","); got != "sub_agent_1" {
		t.Fatalf("subagents %q", got)
	}
	check(t, "root", lg, nil, want{lines: 5})
	lg, err = Open(p, Options{Subagent: "sub.agent/1"})
	check(t, "subagent", lg, err, want{lines: 5})
	if lg.Name() != p+"!subagents/sub_agent_1/session.jsonl" {
		t.Fatalf("name %q", lg.Name())
	}
	z := writeZstdLog(t, linesOf(jsonl(cat([]string{hdr}, turn(0))...)), 2)
	zp := filepath.Join(dir, "zstd-member.zip")
	writeZip(t, zp, z, "")
	lg, err = Open(zp, Options{})
	check(t, "zstd member", lg, err, want{lines: 5})
	_, err = Open(p, Options{Subagent: "nope"})
	check(t, "missing subagent", nil, err, want{err: `no subagent "nope" (subagents: sub_agent_1)`})
}

// TestPipe reads raw JSONL from a pipe (a non-regular file) as a stream.
func TestPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write([]byte(jsonl(cat([]string{hdr}, turn(0))...)))
		w.Close()
	}()
	lg, err := Open(fmt.Sprintf("/dev/fd/%d", r.Fd()), Options{})
	if err != nil {
		t.Skipf("no /dev/fd: %v", err)
	}
	check(t, "pipe", lg, nil, want{lines: 5})
	r.Close()
}

// TestZstdStream reads a Zstandard log from a plain stream (spooled).
func TestZstdStream(t *testing.T) {
	z := writeZstdLog(t, linesOf(jsonl(cat([]string{hdr}, turn(0), turn(4))...)), 3)
	lg, err := OpenReader(struct{ io.Reader }{bytes.NewReader(z)}, "stream", Options{})
	if err == nil && lg.Form() != FormZstd {
		t.Fatalf("form %s", lg.Form())
	}
	check(t, "stream", lg, err, want{lines: 9})
	lg, err = OpenReader(struct{ io.Reader }{bytes.NewReader(z[:len(z)-1])}, "stream", Options{})
	check(t, "torn stream", lg, err, want{lines: 9, warn: "is incomplete", wLine: 10})
}

// TestZstdFrameBatches reads a log of many small frames, whose compressed
// bytes are read a batch at a time, with a frame larger than a batch among
// them: the lines are the plain log's, and a corrupt frame after the first
// batch is named by its own offset.
func TestZstdFrameBatches(t *testing.T) {
	lines := []string{hdr}
	frames := []string{hdr + "\n"}
	seq := 0
	add := func(text string) {
		batch := []string{ev(seq, "turn/start"),
			fmt.Sprintf(`{"type":"user/message","seq":%d,"time":0,"data":{"text":%q}}`, seq+1, text),
			ev(seq+2, "turn/end")}
		seq += 3
		lines = append(lines, batch...)
		frames = append(frames, jsonl(batch...))
	}
	var offsets []int64 // each frame's start
	rnd := uint64(1)
	for i := 0; i < 6000; i++ {
		if i == 3000 {
			// Hex of a pseudo-random stream compresses to about half: this
			// frame is larger than a batch.
			var b strings.Builder
			for b.Len() < 3*frameBatch {
				rnd = rnd*6364136223846793005 + 1442695040888963407
				fmt.Fprintf(&b, "%016x", rnd)
			}
			add(b.String())
			continue
		}
		add(strings.Repeat(fmt.Sprintf("line %d ", i), 1+i%40))
	}
	var data []byte
	for _, f := range frames {
		offsets = append(offsets, int64(len(data)))
		data = append(data, zstdFrame(t, []byte(f))...)
	}
	if offsets[3001] <= frameBatch || offsets[3002]-offsets[3001] <= frameBatch || offsets[5900]-offsets[3002] <= frameBatch {
		t.Fatalf("frames at %d, %d, %d: not what the test needs", offsets[3001], offsets[3002], offsets[5900])
	}
	p := writeFile(t, t.TempDir(), "log", data)
	got, _, warns, refusal := read(Open(p, Options{}))
	if refusal != nil || len(warns) != 0 {
		t.Fatalf("refusal %v, warnings %v", refusal, warns)
	}
	if len(got) != len(lines) {
		t.Fatalf("%d lines, want %d", len(got), len(lines))
	}
	for i := range lines {
		if string(got[i]) != lines[i] {
			t.Fatalf("line %d differs", i+1)
		}
	}

	// Corrupt the last byte (the checksum) of a frame well past the first
	// batch and past the big frame.
	bad := append([]byte(nil), data...)
	bad[offsets[5900]-1] ^= 0x40
	lg, err := Open(writeFile(t, t.TempDir(), "bad", bad), Options{})
	check(t, "corrupt", lg, err, want{err: fmt.Sprintf("frame at byte %d failed validation", offsets[5899])})
}

// TestSQLiteNotLinked: without the SQLite reader (package sessionlog/sqlite,
// which this package's tests do not import), a database is refused with
// the import line that enables it, and a listing of it likewise.
func TestSQLiteNotLinked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.db")
	logforms.WriteDB(t, p, linesOf(jsonl(hdr, ev(0, "turn/start"))))
	_, err := Open(p, Options{})
	check(t, "open", nil, err, want{err: `import _ "github.com/dshtest/dshtest/sessionlog/sqlite" to read it`})
	_, err = ListSQLite(p)
	check(t, "list", nil, err, want{err: NoSQLite})
}
