package cli

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// drive runs m as a program would, on this goroutine: its commands one at
// a time (a pull blocks until the read has more), each message through
// Update, until there is nothing left to do or done says so of the view.
// It returns the last view's content and how many updates it took.
func drive(m tea.Model, done func(view string) bool) (string, int) {
	queue := []tea.Cmd{m.Init()}
	view, updates := m.View().Content, 0
	for len(queue) > 0 && !done(view) {
		cmd := queue[0]
		queue = queue[1:]
		if cmd == nil {
			continue
		}
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			var next tea.Cmd
			m, next = m.Update(msg)
			view, updates = m.View().Content, updates+1
			queue = append(queue, next)
		}
	}
	return view, updates
}

// writeLog writes events as a raw log in dir and returns its path.
func writeLog(t *testing.T, dir, name string, events []sessionlog.Event) string {
	t.Helper()
	var b bytes.Buffer
	if err := jsonl.WriteLog(&b, events); err != nil {
		t.Fatal(err)
	}
	return logforms.WriteFile(t, dir, name, b.Bytes())
}

// statusRow is the last row of a view's content.
func statusRow(view string) string { return view[strings.LastIndexByte(view, '\n')+1:] }

// TestViewReadsBehind: view opens a log it has not read within its wait
// on what it has, reads the rest behind the screen through the live path
// with "reading N%" on the status line, and ends on the replay's screen.
// A log read within the wait opens on the replay's screen at once; a quit
// during the read stops it; a refusal found during it stays on the status
// line, and view then returns it as readLog would, with its line.
func TestViewReadsBehind(t *testing.T) {
	dir := t.TempDir()
	events := sessiongen.Generate(5, sessiongen.Config{Events: 30000, Terse: 2})
	path := writeLog(t, dir, "long.jsonl", events)
	a := &app{stdout: new(bytes.Buffer), stderr: new(bytes.Buffer), env: map[string]string{}}
	flags := func() *logFlags { return &logFlags{maxLine: 64 << 20, maxText: container.DefaultMaxText} }
	s := terminal.Settings{}
	var opts transcript.Options
	now := terminal.FrozenNow(events)
	replay := transcriptModel("long", events, true, s, opts, terminal.Projection{}, func() int64 { return now }).View().Content

	view := func(t *testing.T, path string, wait time.Duration, done func(string) bool) (string, int, error) {
		t.Helper()
		var final string
		var updates int
		err := a.viewWith([]string{path}, flags(), s, opts, terminal.Projection{}, true, wait, func(m tea.Model) error {
			final, updates = drive(m, done)
			return nil
		})
		return final, updates, err
	}
	never := func(string) bool { return false }

	// behind views path read behind the screen and returns the status
	// lines drawn while it read, once it has ended on the replay's screen.
	behind := func(t *testing.T, path string) []string {
		t.Helper()
		var seen []string
		final, updates, err := view(t, path, 0, func(v string) bool {
			if st := statusRow(v); strings.Contains(st, "reading") {
				seen = append(seen, st)
			}
			return false
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d updates, %d while reading", updates, len(seen))
		// At most viewBatch events an update, less what the first screen
		// took (a few batches, as the scheduler has it): 30k events make
		// about 30 updates, and 10 leave room for the first screen's share.
		if len(seen) < 2 || updates < 10 {
			t.Fatalf("%d updates, %d of them reading: the log was not read behind the screen", updates, len(seen))
		}
		if final != replay {
			t.Errorf("the screen after the read is not the replay's:\n%s\nwant\n%s", final, replay)
		}
		return seen
	}

	t.Run("behind", func(t *testing.T) {
		if seen := behind(t, path); !strings.Contains(seen[0], "long · reading ") {
			t.Errorf("status while reading: %q", seen[0])
		}
	})

	t.Run("behind, zstd", func(t *testing.T) {
		// upstream's form: the frames declare their sizes, so the status
		// says how far the read is.
		var raw bytes.Buffer
		if err := jsonl.WriteLog(&raw, events); err != nil {
			t.Fatal(err)
		}
		head := []byte(`{"type":"session","version":0,"id":"long","createdAt":1,"cwd":"/w"}`)
		zpath := logforms.WriteFile(t, dir, "long.jsonl.zstd", logforms.Zstd(append([][]byte{head}, logforms.SplitLines(raw.Bytes())...), 300))
		if seen := behind(t, zpath); !strings.Contains(seen[len(seen)-1], "%") {
			t.Fatalf("status while reading: %q", seen)
		}
	})

	t.Run("read within the wait", func(t *testing.T) {
		final, updates, err := view(t, path, time.Minute, never)
		if err != nil {
			t.Fatal(err)
		}
		if updates != 0 || final != replay {
			t.Errorf("%d updates; screen\n%s\nwant the replay's\n%s", updates, final, replay)
		}
	})

	t.Run("quit while reading", func(t *testing.T) {
		_, updates, err := view(t, path, 0, func(string) bool { return true })
		if err != nil || updates != 0 {
			t.Fatalf("%d updates, %v; want a quit at once and no error", updates, err)
		}
	})

	t.Run("refused while reading", func(t *testing.T) {
		bad := append([]sessionlog.Event(nil), events...)
		i := len(bad) - 10
		bad[i].Seq = bad[i-1].Seq // a seq out of order
		badPath := writeLog(t, dir, "bad.jsonl", bad)
		want := ""
		if _, err := a.readLog([]string{badPath}, flags(), nil); err != nil {
			want = err.Error()
		} else {
			t.Fatal("readLog took the broken log")
		}
		final, _, err := view(t, badPath, 0, never)
		var ie *sessionlog.Error
		if !errors.As(err, &ie) || err.Error() != want {
			t.Fatalf("error %v, want readLog's %s", err, want)
		}
		if st := statusRow(final); !strings.Contains(st, "read refused, q quits and prints why") {
			t.Errorf("status after the refusal: %q", st)
		}
		if _, _, err := view(t, badPath, time.Minute, never); err == nil || err.Error() != want {
			t.Errorf("read within the wait: %v, want %s", err, want)
		}
	})
}

// TestReadingStatus: the percentage never reads 100 before the read ends.
func TestReadingStatus(t *testing.T) {
	for _, c := range []struct {
		read, size int64
		want       string
	}{{0, 0, "reading"}, {5, 0, "reading"}, {0, 10, "reading 0%"}, {5, 10, "reading 50%"}, {10, 10, "reading 99%"}} {
		if got := readingStatus(c.read, c.size); got != c.want {
			t.Errorf("readingStatus(%d, %d) = %q, want %q", c.read, c.size, got, c.want)
		}
	}
}

// TestViewLiveIsReplayOnCorpus: on every log of the shared corpus view
// takes, its screen fed through the live path, read within the wait or
// behind the screen, is the screen of the log mounted whole on the replay
// path, at the three tool modes; a log view refuses is refused the same
// either way.
func TestViewLiveIsReplayOnCorpus(t *testing.T) {
	dir := corpusDir(t)
	flags := func() *logFlags { return &logFlags{maxLine: 64 << 20, maxText: container.DefaultMaxText} }
	var opts transcript.Options
	shown := 0
	for _, cf := range readTSV(t, dir) {
		path := filepath.Join(dir, "upstream-logs", cf.name)
		for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
			s := terminal.Settings{Tools: tools}
			screen := func(live bool, wait time.Duration) (string, error) {
				a := &app{stdout: new(bytes.Buffer), stderr: new(bytes.Buffer), env: map[string]string{}}
				var final string
				err := a.viewWith([]string{path}, flags(), s, opts, terminal.Projection{}, live, wait, func(m tea.Model) error {
					final, _ = drive(m, func(string) bool { return false })
					return nil
				})
				return final, err
			}
			want, wantErr := screen(false, 0)
			if wantErr == nil && tools == display.ToolsCollapsed {
				shown++
			}
			for _, wait := range []time.Duration{time.Minute, 0} {
				got, err := screen(true, wait)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s, tools %s, wait %v: error %v, mounted %v", cf.name, tools, wait, err, wantErr)
					continue
				}
				if got != want {
					t.Errorf("%s, tools %s, wait %v: live screen\n%s\nwant the replay's\n%s", cf.name, tools, wait, got, want)
				}
			}
		}
	}
	if shown < 150 {
		t.Errorf("view showed %d corpus logs; the corpus has 156 it takes", shown)
	}
}
