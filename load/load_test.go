package load_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

const head = `{"type":"session","version":0,"id":"s1","createdAt":1784630400000,"cwd":"/p","delegationDepth":0}`

// A header-less log whose third line (seq 2) replaces a seq not on the
// surface: a refusal of the surface fold.
const badReplace = `{"type":"turn/start","seq":0,"time":1784630400000,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1784630400000,"data":{"turn":1,"step":1}}
{"type":"user/message","seq":2,"time":1784630400000,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"Hello"}],"source":{"kind":"user"}},"surfaceOp":{"op":"replace","start":5,"end":5},"sourceEventSeqs":[5]}
`

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, path string, opts load.Options) *load.File {
	t.Helper()
	f, err := load.Open(path, opts)
	must(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// plain reads a log as the reader yields it, one append at a time: what
// Collect must gather, however it sizes its slice.
func plain(t *testing.T, path string, opts reader.Options) ([]sessionlog.Event, []int) {
	t.Helper()
	s, err := reader.Open(path, opts)
	must(t, err)
	defer s.Close()
	var events []sessionlog.Event
	var lines []int
	for s.Next() {
		events, lines = append(events, *s.Event()), append(lines, s.Line())
	}
	must(t, s.Err())
	return events, lines
}

func sameEvent(a, b *sessionlog.Event) bool {
	return a.Type == b.Type && a.Seq == b.Seq && a.Time == b.Time && a.Ignorable == b.Ignorable &&
		bytes.Equal(a.Data, b.Data) && bytes.Equal(a.SurfaceOp, b.SurfaceOp) && bytes.Equal(a.SourceEventSeqs, b.SourceEventSeqs)
}

// TestCollect: Collect gathers what the reader yields on each of its
// paths: one slice sized from a raw file's size, a sized slice whose
// estimate falls short (a log whose first events are much bigger than the
// rest), and pages when the text's size is unknown (Zstandard).
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	small := sessiongen.Generate(3, sessiongen.Config{Events: 20000, Terse: 2, Hostile: -1, Huge: -1})
	var big bytes.Buffer
	must(t, jsonl.WriteLog(&big, small))
	// Short-falling: the first page's events carry a long ignorable note.
	var skew bytes.Buffer
	for i := range small {
		e := small[i]
		if i < 5000 {
			e.Type, e.Ignorable = sessiongen.UnknownType, true
			e.Data = json.RawMessage(`{"note":"` + strings.Repeat("x", 2000) + `"}`)
			e.SurfaceOp, e.SourceEventSeqs = nil, nil
		}
		line, err := jsonl.AppendEvent(nil, &e)
		must(t, err)
		skew.Write(append(line, '\n'))
	}
	zst := logforms.Zstd(append([][]byte{[]byte(head)}, logforms.SplitLines(big.Bytes())...), 300)
	opts := reader.Options{AllowUnknown: true}
	for name, data := range map[string][]byte{"raw.jsonl": big.Bytes(), "skew.jsonl": skew.Bytes(), "log.jsonl.zstd": zst} {
		path := logforms.WriteFile(t, dir, name, data)
		want, wantLines := plain(t, path, opts)
		folds := []bool{false, true}
		if name == "skew.jsonl" {
			folds = folds[:1] // its notes shadow what later events replace
		}
		for _, fold := range folds {
			lg, err := open(t, path, load.Options{Read: opts}).Collect(fold)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(lg.Events) != len(want) || !reflect.DeepEqual(lg.Lines, wantLines) {
				t.Fatalf("%s: %d events, want %d", name, len(lg.Events), len(want))
			}
			for i := range want {
				if !sameEvent(&lg.Events[i], &want[i]) {
					t.Fatalf("%s: event %d differs", name, i)
				}
			}
			if fold != (lg.Session != nil) || lg.Surface == nil && fold {
				t.Errorf("%s: fold %v: session %v, surface %v", name, fold, lg.Session != nil, lg.Surface != nil)
			}
		}
	}
}

// TestRefusalsPlaced: a refusal of the surface fold names the file and
// the event's line, the same from every way of reading (Collect folding
// as the events arrive, Collect then Validate, Stream), behind a session
// header too; a reader's refusal is placed alike.
func TestRefusalsPlaced(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, log, want string
	}{
		{"bad.jsonl", badReplace, "bad.jsonl:3: surface replace: start seq 5 not found in surface (seq 2)"},
		{"headed.jsonl", head + "\n" + badReplace, "headed.jsonl:4: surface replace: start seq 5 not found in surface (seq 2)"},
		{"gap.jsonl", strings.Replace(badReplace, `"seq":1,`, `"seq":7,`, 1), "gap.jsonl:2: seq 7 is not contiguous; expected 1 (seq 7)"},
		{"malformed.jsonl", badReplace[:100] + "\n", "malformed.jsonl:2: malformed JSON: "},
	} {
		path := logforms.WriteFile(t, dir, tc.name, []byte(tc.log))
		ways := map[string]func() error{
			"collect": func() error { _, err := open(t, path, load.Options{}).Collect(true); return err },
			"validate": func() error {
				lg, err := open(t, path, load.Options{}).Collect(false)
				if err != nil {
					return err
				}
				return lg.Validate()
			},
			"stream": func() error {
				n := 0
				_, err := open(t, path, load.Options{}).Stream(func(*sessionlog.Event, int64) bool { n++; return true })
				return err
			},
		}
		for way, read := range ways {
			err := read()
			var e *sessionlog.Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), filepath.Join(dir, tc.want)) {
				t.Errorf("%s, %s: %v; want %s", tc.name, way, err, tc.want)
			}
		}
	}
}

// TestName: Options.Name is what every refusal and warning of the file
// calls it, as the scenario verb load names a file of its archive.
func TestName(t *testing.T) {
	dir := t.TempDir()
	bad := logforms.WriteFile(t, dir, "bad.jsonl", []byte(badReplace))
	_, err := load.Read(bad, load.Options{Name: "bad.jsonl"})
	if want := "bad.jsonl:3: surface replace: start seq 5 not found in surface (seq 2)"; err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
	}
	_, err = load.Read(filepath.Join(dir, "missing.jsonl"), load.Options{Name: "missing.jsonl"})
	if want := "missing.jsonl: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
	}
	torn := logforms.WriteFile(t, dir, "torn.jsonl", []byte(head+"\n"+badReplace[:len(badReplace)-40]))
	lg, err := load.Read(torn, load.Options{Name: "torn.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if lg.Path != "torn.jsonl" || lg.Name != "torn.jsonl" || len(lg.Warnings) != 1 || !strings.HasPrefix(lg.Warnings[0].String(), "torn.jsonl:4: ") {
		t.Errorf("path %q, name %q, warnings %v", lg.Path, lg.Name, lg.Warnings)
	}
}

// TestOpenReader: a log read from a reader is read as the file is, and
// once.
func TestOpenReader(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "sessionlog", "testdata", "example-session.jsonl"))
	must(t, err)
	want, err := load.Read(logforms.WriteFile(t, dir, "log.jsonl", src), load.Options{})
	must(t, err)
	f, err := load.OpenReader(bytes.NewReader(src), "log.jsonl", load.Options{})
	must(t, err)
	defer f.Close()
	got, err := f.Collect(true)
	must(t, err)
	if len(got.Events) != len(want.Events) || !reflect.DeepEqual(got.Lines, want.Lines) || got.Path != "log.jsonl" {
		t.Fatalf("%d events from the reader, want %d", len(got.Events), len(want.Events))
	}
	if _, err := f.Collect(true); err == nil || err.Error() != "log.jsonl: a log read from a stream is read once" {
		t.Errorf("a second read: %v", err)
	}
	f, err = load.OpenReader(strings.NewReader(badReplace), "bad.jsonl", load.Options{})
	must(t, err)
	if _, err := f.Collect(true); err == nil || err.Error() != "bad.jsonl:3: surface replace: start seq 5 not found in surface (seq 2)" {
		t.Errorf("a bad log from a reader: %v", err)
	}
}

// TestStreamStops: a callback that stops the read ends it with
// ErrStopped and no Log; a whole stream has a Surface only from
// StreamSurface.
func TestStreamStops(t *testing.T) {
	path := filepath.Join("..", "sessionlog", "testdata", "example-session.jsonl")
	n := 0
	lg, err := open(t, path, load.Options{}).Stream(func(*sessionlog.Event, int64) bool { n++; return n < 5 })
	if lg != nil || err != load.ErrStopped || n != 5 {
		t.Fatalf("%d events, %v, %v; want 5, nil, ErrStopped", n, lg, err)
	}
	lg, err = open(t, path, load.Options{}).Stream(func(*sessionlog.Event, int64) bool { return true })
	if err != nil || lg.Events != nil || lg.Surface != nil || lg.Header != nil {
		t.Fatalf("a whole stream: %v, events %v, surface %v", err, lg.Events, lg.Surface)
	}
	lg, err = open(t, path, load.Options{}).StreamSurface(func(*sessionlog.Event, int64) bool { return true })
	if err != nil || lg.Events != nil || lg.Surface == nil || lg.Surface.Len() == 0 {
		t.Fatalf("a whole stream with its surface: %v, events %v, surface %v", err, lg.Events, lg.Surface)
	}
}

// budget records what a read tells it.
type budget struct{ read, grown, window int64 }

func (b *budget) Read(text int64)                    { b.read = max(b.read, text) }
func (b *budget) Grow(text int64)                    { b.grown = text }
func (b *budget) Window(bytes int64, _ func() int64) { b.window = bytes }

// TestBudget: the budget is told of the text as it is read, and of all of
// it once Collect is done.
func TestBudget(t *testing.T) {
	path := filepath.Join("..", "sessionlog", "testdata", "example-session.jsonl")
	fi, err := os.Stat(path)
	must(t, err)
	f := open(t, path, load.Options{})
	b := &budget{}
	f.SetBudget(b)
	_, err = f.Collect(true)
	must(t, err)
	if b.grown != fi.Size() || b.read != fi.Size() {
		t.Errorf("budget told %d read, %d grown; want %d", b.read, b.grown, fi.Size())
	}
}

// TestSourceChanged: a held log replaced (by rename or in place), grown
// or touched between two reads of its Source is refused, one line, before
// the second read; an unchanged one is read again, the events the first
// read yielded.
func TestSourceChanged(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "sessionlog", "testdata", "example-session.jsonl"))
	must(t, err)
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
	}{
		{"unchanged", nil},
		{"replaced by rename", func(t *testing.T, path string) {
			tmp := path + ".new"
			must(t, os.WriteFile(tmp, src, 0o644))
			must(t, os.Rename(tmp, path))
		}},
		{"rewritten in place", func(t *testing.T, path string) {
			must(t, os.WriteFile(path, src[:len(src)/2], 0o644))
		}},
		{"appended to", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			must(t, err)
			_, err = f.Write([]byte("\n"))
			must(t, err)
			must(t, f.Close())
		}},
		{"touched", func(t *testing.T, path string) {
			later := time.Now().Add(time.Hour)
			must(t, os.Chtimes(path, later, later))
		}},
		// A SQLite database written in WAL mode changes only its -wal
		// file until a checkpoint.
		{"its write-ahead log written", func(t *testing.T, path string) {
			must(t, os.WriteFile(path+"-wal", []byte("frames"), 0o644))
		}},
		{"its journal written", func(t *testing.T, path string) {
			must(t, os.WriteFile(path+"-journal", []byte("pages"), 0o644))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			must(t, os.WriteFile(path, src, 0o644))
			f := open(t, path, load.Options{Hold: true})
			if f.HeldPath() != path {
				t.Fatalf("held %q", f.HeldPath())
			}
			var first *load.Log
			read := f.Source(func(lg *load.Log, n int, err error) {
				if err != nil || n != 41 {
					t.Fatalf("first read: %d events, %v", n, err)
				}
				first = lg
			})
			count := func() (int, error) {
				n := 0
				err := read(func(*sessionlog.Event) bool { n++; return true })
				return n, err
			}
			if n, err := count(); err != nil || n != 41 || first == nil {
				t.Fatalf("first read: %d events, %v", n, err)
			}
			if tc.change != nil {
				tc.change(t, path)
			}
			n, err := count()
			if tc.change == nil {
				if err != nil || n != 41 || f.Unchanged() != nil {
					t.Fatalf("read again: %d events, %v; want 41, nil", n, err)
				}
				return
			}
			var e *sessionlog.Error
			if !errors.As(err, &e) || !errors.Is(err, load.ErrChanged) || n != 0 || !errors.Is(f.Unchanged(), load.ErrChanged) {
				t.Fatalf("read after a change: %d events, %v; want the changed-file refusal and none", n, err)
			}
			if want := path + ": the file changed while repro read it (device, inode, size or modification time differ, its or its SQLite journal's); run repro on a copy that is not being written"; err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
		})
	}
}

// TestHold: a held log is the file read, for a file, a session directory
// or a store's session found by id; what cannot be read again as it was
// (a pipe) is not held.
func TestHold(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	session := filepath.Join(store, "--p--", "s-one", "session.jsonl") // where the header's cwd /p puts it
	must(t, os.MkdirAll(filepath.Dir(session), 0o755))
	must(t, os.WriteFile(session, []byte(strings.Replace(head, `"s1"`, `"s-one"`, 1)+"\n"), 0o644))
	opts := load.Options{Hold: true}
	for _, tc := range []struct {
		name string
		open func() (*load.File, error)
		want string // the file held, "" for none
	}{
		{"a file", func() (*load.File, error) { return load.Open(session, opts) }, session},
		{"a session directory", func() (*load.File, error) { return load.Open(filepath.Dir(session), opts) }, session},
		{"a store's session", func() (*load.File, error) { return load.OpenSession(store, "s-one", opts) }, session},
		{"not held", func() (*load.File, error) { return load.Open(session, load.Options{}) }, ""},
		{"a pipe", func() (*load.File, error) {
			r, w, err := os.Pipe()
			must(t, err)
			t.Cleanup(func() { r.Close() })
			go func() { w.WriteString(badReplace); w.Close() }()
			return load.Open("/dev/fd/"+strconv.Itoa(int(r.Fd())), opts)
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := tc.open()
			must(t, err)
			defer f.Close()
			if got := f.HeldPath(); got != tc.want || f.Held() != (tc.want != "") {
				t.Errorf("held %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := load.OpenSession(store, "s-two", opts); err == nil {
		t.Error("a missing session opened")
	}
}

// windows records the windows a read tells the budget of, in order.
type windows struct {
	budget
	told []int64
}

func (w *windows) Window(bytes int64, _ func() int64) { w.told = append(w.told, bytes) }

// TestSourceWindow: a Zstandard log read through Source tells the budget
// of its decoder's window as each read opens, shares one decoder between
// the two reads, and releases it (window 0) once the second is done: what
// follows needs none.
func TestSourceWindow(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "sessionlog", "testdata", "example-session.jsonl"))
	must(t, err)
	const window = 16 << 20
	plain := append([]byte(head+"\n"), src...)
	path := logforms.WriteFile(t, t.TempDir(), "s.jsonl.zstd", logforms.ZstdWindow(t, plain, window))
	f := open(t, path, load.Options{})
	w := &windows{}
	f.SetBudget(w)
	read := f.Source(func(*load.Log, int, error) {})
	for range 2 {
		must(t, read(func(*sessionlog.Event) bool { return true }))
	}
	// The frame holds less than its window: a single segment, whose
	// window is its content size.
	if len(w.told) != 3 || w.told[0] <= 0 || w.told[0] > window || w.told[1] != w.told[0] || w.told[2] != 0 {
		t.Errorf("windows told %v, want the window twice, then 0", w.told)
	}
}

// TestSourceAgainClosers: a later read of Source yields the events the
// first read yielded, closers included, whether the log ends inside a turn
// (the first read appended closers) or outside one (a later read does not
// look for closers: there are none).
func TestSourceAgainClosers(t *testing.T) {
	const head = `{"type":"session","version":0,"id":"s1","createdAt":1784630400000,"cwd":"/p","delegationDepth":0}` + "\n"
	const inTurn = `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1,"data":{"turn":1,"step":1}}
{"type":"text-chunks","seq0":2,"time0":2,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}
`
	const closed = inTurn + `{"type":"step/end","seq":5,"time":3,"data":{"turn":1,"step":1}}
{"type":"turn/end","seq":6,"time":3,"data":{"turn":1,"reason":{"kind":"completed"}}}
`
	for _, tc := range []struct {
		name    string
		log     string
		events  int
		closers int
	}{
		{"ends inside a turn", head + inTurn, 7, 2},
		{"ends outside a turn", head + closed, 7, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			must(t, os.WriteFile(path, []byte(tc.log), 0o644))
			f := open(t, path, load.Options{Hold: true})
			read := f.Source(func(lg *load.Log, n int, err error) {
				if err != nil || n != tc.events || lg == nil || len(lg.Summary.Closers) != tc.closers {
					t.Fatalf("first read: %d events, %v", n, err)
				}
			})
			collect := func() []sessionlog.Event {
				var evs []sessionlog.Event
				err := read(func(e *sessionlog.Event) bool {
					d := *e
					d.Data, d.SurfaceOp, d.SourceEventSeqs = bytes.Clone(e.Data), bytes.Clone(e.SurfaceOp), bytes.Clone(e.SourceEventSeqs)
					evs = append(evs, d)
					return true
				})
				must(t, err)
				return evs
			}
			first, again := collect(), collect()
			if len(first) != tc.events || len(again) != len(first) {
				t.Fatalf("read %d events, then %d; want %d both times", len(first), len(again), tc.events)
			}
			for i := range first {
				if !sameEvent(&first[i], &again[i]) {
					t.Errorf("event %d read again differs: %+v, then %+v", i, first[i], again[i])
				}
			}
		})
	}
}
