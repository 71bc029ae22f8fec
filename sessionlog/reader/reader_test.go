package reader_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/sessionlog/reader"
	_ "github.com/dshtest/dshtest/sessionlog/sqlite" // the forms include SQLite
	"github.com/dshtest/dshtest/surface"
)

const head = `{"type":"session","version":0,"id":"s1","createdAt":1784630400000,"cwd":"/p","delegationDepth":0}` + "\n"

const turn = `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1,"data":{"turn":1,"step":1}}
{"type":"text-chunks","seq0":2,"time0":2,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}
`

// TestRead pins what the reader makes of each shape of input: events,
// closers, upgrades, warnings, or the one-line refusal.
func TestRead(t *testing.T) {
	for _, tt := range []struct {
		name, log string
		opts      reader.Options
		events    int
		closers   int
		upgraded  int
		warning   string
		err       string
	}{
		{name: "header only", log: head},
		{name: "header-less, read as written", log: turn, events: 5},
		{name: "packed row, then recovery", log: head + turn, events: 7, closers: 2},
		{name: "no recovery", log: head + turn, opts: reader.Options{NoRecover: true}, events: 5},
		{name: "byte-order mark", log: "\xEF\xBB\xBF" + head + turn, events: 7, closers: 2, warning: "f.jsonl:1: file starts with a UTF-8 byte-order mark"},
		{name: "torn tail", log: head + turn + `{"type":"step/end","seq":5,"ti`, events: 7, closers: 2, warning: "f.jsonl:5: torn tail (the final line has no newline): dropped 1 line"},
		{name: "unknown", log: head + `{"type":"x/y","seq":0,"time":1,"data":{}}` + "\n",
			err: `f.jsonl:2: event type "x/y" is unknown to this harness and not marked ignorable (seq 0); --allow-unknown reads it as log-only`},
		{name: "unknown allowed", log: head + `{"type":"x/y","seq":0,"time":1,"data":{}}` + "\n", opts: reader.Options{AllowUnknown: true}, events: 1},
		{name: "unknown with surfaceOp", log: head + `{"type":"x/y","seq":0,"time":1,"data":{},"surfaceOp":"append"}` + "\n", opts: reader.Options{AllowUnknown: true},
			err: `f.jsonl:2: event type "x/y" is unknown to this harness and carries a surfaceOp (seq 0)`},
		{name: "older user message upgraded", log: head + `{"type":"user/message","seq":0,"time":1,"data":{"content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}` + "\n",
			events: 1, upgraded: 1},
		{name: "version refused", log: strings.Replace(head, `"version":0`, `"version":3`, 1), err: "f.jsonl:1: "},
		{name: "second header", log: head + turn + head, err: "f.jsonl:5: a second session header at line 5"},
		{name: "line too long", log: head + turn, opts: reader.Options{MaxLineBytes: 60}, err: "f.jsonl:1: line is longer than the 60-byte line limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.jsonl")
			if err := os.WriteFile(p, []byte(tt.log), 0o644); err != nil {
				t.Fatal(err)
			}
			// By path, and from a reader named as the file.
			for via, read := range map[string]func() (*readLog, error){
				"path":   func() (*readLog, error) { return read(p, tt.opts) },
				"reader": func() (*readLog, error) { return readFrom(strings.NewReader(tt.log), p, tt.opts) },
			} {
				lg, err := read()
				if tt.err != "" {
					var re *sessionlog.Error
					if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.err) || strings.Contains(err.Error(), "\n") {
						t.Fatalf("%s: err %v, want one line containing %q", via, err, tt.err)
					}
					if !strings.HasPrefix(err.Error(), p) {
						t.Errorf("%s: err %q does not name the file", via, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", via, err)
				}
				if len(lg.Events) != tt.events || len(lg.Closers) != tt.closers || lg.Upgraded != tt.upgraded {
					t.Errorf("%s: events %d closers %d upgraded %d; want %d %d %d", via, len(lg.Events), len(lg.Closers), lg.Upgraded, tt.events, tt.closers, tt.upgraded)
				}
				var warns []string
				for _, w := range lg.Warnings {
					warns = append(warns, strings.TrimPrefix(w.String(), dir+"/"))
				}
				if got := strings.Join(warns, "\n"); (tt.warning == "") != (got == "") || !strings.Contains(got, tt.warning) {
					t.Errorf("%s: warnings %q, want %q", via, got, tt.warning)
				}
				for i, e := range lg.Events {
					if e.Seq != int64(i) {
						t.Fatalf("%s: event %d has seq %d", via, i, e.Seq)
					}
				}
				if _, err := surface.Load(lg.Events, nil); err != nil {
					t.Errorf("%s: surface.Load: %v", via, err)
				}
			}
		})
	}
}

// readLog is a whole log read: its events and the reader's summary.
type readLog struct {
	reader.Summary
	Events []sessionlog.Event
}

// read reads the whole log at path.
func read(path string, opts reader.Options) (*readLog, error) {
	s, err := reader.Open(path, opts)
	if err != nil {
		return nil, err
	}
	return collect(s)
}

// readFrom reads the whole log r holds.
func readFrom(r io.Reader, name string, opts reader.Options) (*readLog, error) {
	s, err := reader.OpenReader(r, name, opts)
	if err != nil {
		return nil, err
	}
	return collect(s)
}

func collect(s *reader.Stream) (*readLog, error) {
	defer s.Close()
	lg := &readLog{}
	for s.Next() {
		lg.Events = append(lg.Events, *s.Event())
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	lg.Summary = s.Summary()
	return lg, nil
}

// TestFormsAlike reads one log as raw text, Zstandard frames, a zip and a
// SQLite database and requires the same events.
func TestFormsAlike(t *testing.T) {
	dir := t.TempDir()
	raw := []byte(head + turn + `{"type":"step/end","seq":5,"time":3,"data":{"turn":1,"step":1}}` + "\n" +
		`{"type":"turn/end","seq":6,"time":3,"data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n")
	lines := logforms.SplitLines(raw)
	paths := map[string]string{
		"raw":  logforms.WriteFile(t, dir, "raw.jsonl", raw),
		"zstd": logforms.WriteFile(t, dir, "log.zst", logforms.WriteZstd(t, lines, 2)),
	}
	paths["zip"] = filepath.Join(dir, "e.zip")
	logforms.WriteZip(t, paths["zip"], raw, "")
	paths["sqlite"] = filepath.Join(dir, "s.db")
	logforms.WriteDB(t, paths["sqlite"], lines)
	var want []byte
	for _, form := range []string{"raw", "zstd", "zip", "sqlite"} {
		lg, err := read(paths[form], reader.Options{})
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		var b bytes.Buffer
		if err := jsonl.WriteLog(&b, lg.Events); err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b.Bytes()
		} else if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s: events differ:\n%s\nwant\n%s", form, b.Bytes(), want)
		}
	}
}

// FuzzRead feeds arbitrary bytes, raw or as Zstandard frames, through the
// reader: it must return events or one refusal line, never panic, and
// the events it returns must be contiguous from seq 0, their payloads
// valid JSON.
func FuzzRead(f *testing.F) {
	f.Add([]byte(head+turn), false)
	f.Add([]byte(head+turn), true)
	f.Add([]byte(turn), false)
	f.Add([]byte(turn), true) // a header-less log compressed
	f.Add([]byte("\xEF\xBB\xBF"+head), false)
	f.Fuzz(func(t *testing.T, data []byte, zstdForm bool) {
		dir := t.TempDir()
		if zstdForm {
			lines := logforms.SplitLines(data)
			if len(lines) == 0 {
				return
			}
			data = logforms.WriteZstd(t, lines, 2)
		}
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		lg, err := read(p, reader.Options{MaxLineBytes: 1 << 16})
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(string(data), "\n") {
				t.Fatalf("refusal spans lines: %q", err)
			}
			return
		}
		for i, e := range lg.Events {
			if e.Seq != int64(i) {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
			for _, raw := range [][]byte{e.Data, e.SurfaceOp, e.SourceEventSeqs} {
				if raw != nil && !fastjson.Valid(raw) {
					t.Fatalf("event %d holds invalid JSON %q", i, raw)
				}
			}
		}
	})
}

// TestHeaderlessZstd: a header-less log compressed with zstd, as one frame
// or frames cut anywhere, from a file or a stream, reads as the same log
// uncompressed does; a torn one is refused, never read short.
func TestHeaderlessZstd(t *testing.T) {
	dir := t.TempDir()
	raw := []byte(turn + `{"type":"step/end","seq":5,"time":3,"data":{"turn":1,"step":1}}` + "\n")
	want, err := read(logforms.WriteFile(t, dir, "raw.jsonl", raw), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cut := append(logforms.ZstdFrame(t, raw[:40]), logforms.ZstdFrame(t, raw[40:])...)
	for name, data := range map[string][]byte{"whole": logforms.ZstdWhole(t, raw), "cut": cut} {
		p := logforms.WriteFile(t, dir, name+".zst", data)
		got, err := read(p, reader.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := reader.OpenReader(f, name, reader.Options{})
		if err != nil {
			t.Fatalf("%s, streamed: %v", name, err)
		}
		n := 0
		for s.Next() {
			n++
		}
		if s.Err() != nil || n != len(want.Events) {
			t.Errorf("%s, streamed: %d events, %v", name, n, s.Err())
		}
		s.Close()
		f.Close()
		if len(got.Events) != len(want.Events) {
			t.Fatalf("%s: %d events, want %d", name, len(got.Events), len(want.Events))
		}
		for i := range got.Events {
			if !bytes.Equal(got.Events[i].Data, want.Events[i].Data) || got.Events[i].Seq != want.Events[i].Seq {
				t.Errorf("%s: event %d differs", name, i)
			}
		}
		torn := logforms.WriteFile(t, dir, name+"-torn.zst", data[:len(data)-6])
		if lg, err := read(torn, reader.Options{}); err == nil {
			t.Errorf("%s, torn: read %d events, want a refusal", name, len(lg.Events))
		}
	}
}

// TestTextSize: a raw log's text size is its file's; a Zstandard log's is
// what its frames declare (the one-shot encoders upstream and logforms use
// write it), and -1 when a frame does not (a streaming encoder's); a torn
// last frame declares more than it yields, and the read is unchanged.
func TestTextSize(t *testing.T) {
	dir := t.TempDir()
	plain := []byte(head + turn)
	lines := logforms.SplitLines(plain)
	streamed := func() []byte {
		var out []byte
		for _, l := range lines {
			var b bytes.Buffer
			w, err := zstd.NewWriter(&b, zstd.WithEncoderCRC(true))
			if err != nil {
				t.Fatal(err)
			}
			w.Write(append(append([]byte(nil), l...), '\n'))
			w.Close()
			out = append(out, b.Bytes()...)
		}
		return out
	}
	whole := logforms.Zstd(lines, 1) // a frame a line: a torn last frame loses one
	// A frame that declares a terabyte (no checksum, one raw block).
	body := lines[1]
	liar := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x00, 0, 0, 0, 0, 0, 1, 0, 0}
	n := len(body) + 1
	liar = append(liar, byte(n<<3|1), byte(n>>5), byte(n>>13))
	liar = append(append(liar, body...), '\n')
	lying := append(logforms.ZstdFrame(t, append(append([]byte(nil), lines[0]...), '\n')), liar...)
	// A torn last frame that declares 20 times the file, its first bytes
	// there: believed up to 64 times, such a declaration had load.Collect
	// make room for hundreds of megabytes of events the log did not hold.
	tornLiar := func(times int) []byte {
		f := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x00} // 8-byte content size, a window
		f = binary.LittleEndian.AppendUint64(f, uint64(times*(len(whole)+6+8+3+5)))
		f = append(f, (1000<<3|1)&0xff, 1000>>5, 0)                            // a raw block of 1000 bytes…
		return append(append([]byte(nil), whole...), append(f, `{"typ`...)...) // …cut after 5
	}
	cases := []struct {
		name string
		data []byte
		want int64
	}{
		{"log.jsonl", plain, int64(len(plain))},
		{"log.jsonl.zstd", whole, int64(len(plain))},
		{"streamed.jsonl.zstd", streamed(), -1},
		{"torn.jsonl.zstd", whole[:len(whole)-5], int64(len(plain))},
		{"lying.jsonl.zstd", lying, -1},
		{"torn-lying.jsonl.zstd", tornLiar(20), -1},
		{"torn-fair.jsonl.zstd", tornLiar(8), int64(len(plain) + 8*len(tornLiar(8)))},
	}
	for _, c := range cases {
		path := logforms.WriteFile(t, dir, c.name, c.data)
		s, err := reader.Open(path, reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.TextSize(); got != c.want {
			t.Errorf("%s: TextSize %d, want %d", c.name, got, c.want)
		}
		if c.want < 0 && strings.HasPrefix(c.name, "lying") {
			s.Close()
			continue // what it reads is the decoder's to judge
		}
		n := 0
		for s.Next() {
			n++
		}
		if s.Err() != nil || n == 0 || s.TextBytes() > int64(len(plain)) {
			t.Errorf("%s: %d events, %d bytes of text read, %v", c.name, n, s.TextBytes(), s.Err())
		}
		s.Close()
	}
}

// TestSelection: --session and --subagent of a log that cannot answer
// them are refused, not ignored: a headered log must be the session named
// (upstream's identity wording), a header-less log names none, and only a
// web export has subagents. A SQLite database's --session selects (see
// the sqlite package's tests).
func TestSelection(t *testing.T) {
	dir := t.TempDir()
	headered := logforms.WriteFile(t, dir, "h.jsonl", []byte(`{"type":"session","version":0,"id":"s-one","createdAt":1,"cwd":"/w","delegationDepth":0}`+"\n"+
		`{"type":"session/title","seq":0,"time":1,"data":{"title":"t"}}`+"\n"))
	bare := logforms.WriteFile(t, dir, "b.jsonl", []byte(`{"type":"session/title","seq":0,"time":1,"data":{"title":"t"}}`+"\n"))
	for _, tc := range []struct {
		name string
		path string
		opts reader.Options
		want string // the refusal, "" to read
	}{
		{"the session named", headered, reader.Options{Session: "s-one"}, ""},
		{"another session", headered, reader.Options{Session: "s-two"}, `stored session identity mismatch: requested "s-two", header contains "s-one"`},
		{"a subagent of a plain log", headered, reader.Options{Subagent: "c1"}, `--subagent "c1" selects a subagent's log of a web export (a .zip); this log is jsonl`},
		{"a header-less log, no selection", bare, reader.Options{}, ""},
		{"a session of a header-less log", bare, reader.Options{Session: "s-one"}, `session "s-one" asked for, but the log has no session header`},
		{"a subagent of a header-less log", bare, reader.Options{Subagent: "c1"}, `this log is header-less JSONL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			s, err := reader.Open(tc.path, tc.opts)
			if err == nil {
				for s.Next() {
				}
				err = s.Err()
				s.Close()
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want a refusal saying %s", err, tc.want)
			}
		})
	}
}

// TestNotALog: the streams upstream writes beside a session that wrap its
// events without being its log (containers.md §0) are refused saying what
// they are, at line 1 and without a seq, not as an invalid envelope.
func TestNotALog(t *testing.T) {
	ev := `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`
	for _, tc := range []struct{ name, line, want string }{
		{"headless driver", `{"type":"session_event","sessionId":"s1","event":` + ev + `}`, "the headless test driver's output"},
		{"session.event", `{"jsonrpc":"2.0","method":"session.event","params":{"sessionId":"s1","event":` + ev + `}}`, "JSON-RPC session.event notifications"},
		{"ACP", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`, "JSON-RPC messages (as ACP's standard output)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := logforms.WriteFile(t, t.TempDir(), "x.jsonl", []byte(tc.line+"\n"+tc.line+"\n"))
			s, err := reader.Open(path, reader.Options{})
			if err == nil {
				for s.Next() {
				}
				err = s.Err()
				s.Close()
			}
			want := path + ":1: not a session log: " + tc.want
			if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "(seq") {
				t.Errorf("got %v, want %s…", err, want)
			}
		})
	}
	// A header's other keys are not checked (containers.md §1.2), these
	// two included.
	for _, extra := range []string{`"method":"resume"`, `"jsonrpc":"2.0"`} {
		path := logforms.WriteFile(t, t.TempDir(), "h.jsonl", []byte(`{"type":"session","version":0,"id":"s1","createdAt":1,"cwd":"/w","delegationDepth":0,`+extra+"}\n"+ev+"\n"))
		s, err := reader.Open(path, reader.Options{})
		if err == nil {
			for s.Next() {
			}
			err = s.Err()
			s.Close()
		}
		if err != nil {
			t.Errorf("a header with %s: %v", extra, err)
		}
	}
}

// TestSessionWithSubagent: with --subagent, --session names the web
// export's own session; the subagent's log, whose header names the
// subagent, is read.
func TestSessionWithSubagent(t *testing.T) {
	header := func(id string) string {
		return `{"type":"session","version":0,"id":"` + id + `","createdAt":1,"cwd":"/w","delegationDepth":0}` + "\n" +
			`{"type":"session/title","seq":0,"time":1,"data":{"title":"t"}}` + "\n"
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, text := range map[string]string{"session.jsonl": header("root"), "subagents/child-1/session.jsonl": header("child-1")} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(text))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := logforms.WriteFile(t, t.TempDir(), "dsh-session-root.zip", buf.Bytes())
	s, err := reader.Open(path, reader.Options{Session: "root", Subagent: "child-1"})
	if err == nil {
		for s.Next() {
		}
		err = s.Err()
		s.Close()
	}
	if err != nil {
		t.Errorf("--session root --subagent child-1: %v", err)
	}
}
