package viewer_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/viewer"
	"github.com/dshtest/dshtest/transcript"
)

// programOptions pins what Bubble Tea would otherwise detect.
var programOptions = teatest.WithProgramOptions(
	tea.WithColorProfile(colorprofile.ANSI),
	tea.WithEnvironment([]string{"TERM=xterm-256color"}),
)

func exampleLog(t *testing.T) []sessionlog.Event {
	t.Helper()
	path := filepath.Join("..", "..", "sessionlog", "testdata", "example-session.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	log, err := jsonl.ReadLog(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return log.Events
}

// transcriptModel is what "dshtest view" mounts.
func transcriptModel(t *testing.T, w, h int) *terminal.Model {
	events := exampleLog(t)
	now := events[len(events)-1].Time
	return terminal.New(terminal.Config{
		SessionID: "example-session", Log: events, Width: w, Height: h,
		Clock: func() int64 { return now },
	})
}

var (
	keyQ      = tea.KeyPressMsg{Code: 'q', Text: "q"}
	keyCtrlO  = tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	keyCtrlR  = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	keyPgUp   = tea.KeyPressMsg{Code: tea.KeyPgUp}
	keyPgDown = tea.KeyPressMsg{Code: tea.KeyPgDown}
	keyHome   = tea.KeyPressMsg{Code: tea.KeyHome}
	keyEnd    = tea.KeyPressMsg{Code: tea.KeyEnd}
)

// gate wraps a model to count the window sizes it has been sent, so that a
// test can wait for the program's own initial size messages before sending
// its resize (Bubble Tea sends one from a goroutine at start).
type gate struct {
	tea.Model
	sizes atomic.Int32
}

func (g *gate) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		defer g.sizes.Add(1)
	}
	var cmd tea.Cmd
	g.Model, cmd = g.Model.Update(msg)
	return g, cmd
}

// run drives m through msgs in a real Bubble Tea program and returns the
// model after q quit it.
func run(t *testing.T, m tea.Model, w, h int, msgs ...tea.Msg) tea.Model {
	t.Helper()
	g := &gate{Model: m}
	tm := teatest.NewTestModel(t, g, teatest.WithInitialTermSize(w, h), programOptions)
	// teatest sends one initial size and the program another.
	deadline := time.Now().Add(10 * time.Second)
	for g.sizes.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the program never received its initial size")
		}
		runtime.Gosched()
	}
	for _, msg := range msgs {
		tm.Send(msg)
	}
	tm.Send(keyQ)
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*gate).Model
}

// plain strips styling and trailing spaces from screen rows.
func plain(rows []string) string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(ansi.Strip(r), " ")
	}
	return strings.Join(out, "\n")
}

func checkScreen(t *testing.T, rows []string, w, h int) {
	t.Helper()
	if len(rows) != h {
		t.Fatalf("screen has %d rows, want %d", len(rows), h)
	}
	for i, r := range rows {
		if got := ansi.StringWidth(r); got > w {
			t.Errorf("row %d is %d cells wide, more than %d: %q", i, got, w, ansi.Strip(r))
		}
	}
}

// TestTranscriptToggles: Ctrl+O cycles the tool cards, Ctrl+R hides
// reasoning, and q quits the program.
func TestTranscriptToggles(t *testing.T) {
	tests := []struct {
		keys          []tea.Msg
		tools         display.ToolMode
		hideReasoning bool
		notice        string
	}{
		{nil, display.ToolsCollapsed, false, ""},
		{[]tea.Msg{keyCtrlO}, display.ToolsExpanded, false, "Tool and context cards expanded."},
		{[]tea.Msg{keyCtrlO, keyCtrlO}, display.ToolsHidden, false, "Tool cards hidden."},
		{[]tea.Msg{keyCtrlO, keyCtrlO, keyCtrlO}, display.ToolsCollapsed, false, "Tool and context cards collapsed."},
		{[]tea.Msg{keyCtrlR}, display.ToolsCollapsed, true, "Reasoning blocks hidden."},
		{[]tea.Msg{keyCtrlR, keyCtrlR}, display.ToolsCollapsed, false, "Reasoning blocks shown."},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			m := run(t, transcriptModel(t, 140, 24), 140, 24, tt.keys...).(*terminal.Model)
			s := m.Settings()
			if s.Tools != tt.tools || s.HideReasoning != tt.hideReasoning {
				t.Errorf("tools %v, hide reasoning %v; want %v, %v", s.Tools, s.HideReasoning, tt.tools, tt.hideReasoning)
			}
			screen := m.Screen()
			checkScreen(t, screen, 140, 24)
			if tt.notice != "" && !strings.Contains(plain(screen), tt.notice) {
				t.Errorf("screen lacks the notice %q:\n%s", tt.notice, plain(screen))
			}
			doc := plain(m.Document().Lines)
			if got := strings.Contains(doc, "Run ls."); got == tt.hideReasoning {
				t.Errorf("reasoning shown = %v, want %v", got, !tt.hideReasoning)
			}
		})
	}
}

// TestTranscriptScroll: the view follows the tail; Home shows the top,
// PgDn and PgUp move by a window, End follows the tail again.
func TestTranscriptScroll(t *testing.T) {
	const first, last = "List the files", "Summarize the README in one line"
	tests := []struct {
		name       string
		keys       []tea.Msg
		has, lacks string
	}{
		{"tail", nil, last, first},
		{"home", []tea.Msg{keyHome}, first, last},
		{"home-pgdown-pgup", []tea.Msg{keyHome, keyPgDown, keyPgUp}, first, last},
		{"pgup-from-tail", []tea.Msg{keyPgUp}, "", last},
		{"home-end", []tea.Msg{keyHome, keyEnd}, last, first},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := run(t, transcriptModel(t, 80, 24), 80, 24, tt.keys...).(*terminal.Model)
			screen := plain(m.Screen())
			if tt.has != "" && !strings.Contains(screen, tt.has) {
				t.Errorf("screen lacks %q:\n%s", tt.has, screen)
			}
			if strings.Contains(screen, tt.lacks) {
				t.Errorf("screen shows %q:\n%s", tt.lacks, screen)
			}
		})
	}
}

// TestTranscriptResize: a resize re-wraps the document to the new width
// and the screen takes the new size; nothing is lost.
func TestTranscriptResize(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{44, 18}, {104, 30}, {20, 6}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m := run(t, transcriptModel(t, 80, 24), 80, 24, tea.WindowSizeMsg{Width: sz.w, Height: sz.h}).(*terminal.Model)
			checkScreen(t, m.Screen(), sz.w, sz.h)
			doc := m.Document()
			if doc.Width != sz.w {
				t.Errorf("document width %d, want %d", doc.Width, sz.w)
			}
			var norm strings.Builder
			for _, r := range plain(doc.Lines) {
				if r != '\n' && r != ' ' {
					norm.WriteRune(r)
				}
			}
			for _, text := range []string{"List the files", "Show README.md", "Summarize the README in one line", transcript.MarkerText} {
				if !strings.Contains(norm.String(), strings.ReplaceAll(text, " ", "")) {
					t.Errorf("document at %dx%d lacks %q", sz.w, sz.h, text)
				}
			}
		})
	}
}

// TestPager: the surface pager scrolls by lines and pages, clamps at the
// ends and on resize, and quits on q.
func TestPager(t *testing.T) {
	lines := make([]string, 100)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d", i+1)
	}
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	tests := []struct {
		name string
		msgs []tea.Msg
		top  int
	}{
		{"start", nil, 0},
		{"down", []tea.Msg{down, down}, 2},
		{"pgdown", []tea.Msg{keyPgDown}, 22},
		{"pgdown-pgup", []tea.Msg{keyPgDown, keyPgDown, keyPgUp}, 22},
		{"pgup-at-top", []tea.Msg{keyPgUp}, 0},
		{"end", []tea.Msg{keyEnd}, 78},
		{"end-home", []tea.Msg{keyEnd, keyHome}, 0},
		{"end-taller", []tea.Msg{keyEnd, tea.WindowSizeMsg{Width: 80, Height: 50}}, 52},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := run(t, viewer.NewPager("title", lines, 80, 24), 80, 24, tt.msgs...).(*viewer.Pager)
			if p.Top() != tt.top {
				t.Errorf("top %d, want %d", p.Top(), tt.top)
			}
			_, h := p.Size()
			screen := p.Screen()
			if len(screen) != h {
				t.Fatalf("%d rows, want %d", len(screen), h)
			}
			if screen[0] != "title" || screen[1] != fmt.Sprintf("line %d", tt.top+1) {
				t.Errorf("screen starts %q, %q", screen[0], screen[1])
			}
			if !strings.HasPrefix(screen[h-1], fmt.Sprintf("lines %d–", tt.top+1)) {
				t.Errorf("status %q", screen[h-1])
			}
		})
	}
}

// TestRun: Run starts a program on the given streams and returns when the
// keys read quit it.
func TestRun(t *testing.T) {
	p := viewer.NewPager("title", []string{"a", "b", "c"}, 20, 5)
	var out bytes.Buffer
	err := viewer.Run(p, strings.NewReader("jq"), &out,
		tea.WithWindowSize(20, 5), tea.WithColorProfile(colorprofile.ANSI),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	if err != nil {
		t.Fatal(err)
	}
	if p.Top() != 0 { // three lines fit in the window: nothing to scroll
		t.Errorf("top %d, want 0", p.Top())
	}
	if out.Len() == 0 {
		t.Error("the program drew nothing")
	}
}

// TestPagerWraps: long lines wrap to the width and re-wrap on resize.
func TestPagerWraps(t *testing.T) {
	long := strings.Repeat("word ", 20) // 100 cells
	p := run(t, viewer.NewPager("t", []string{long, "short"}, 30, 12), 30, 12).(*viewer.Pager)
	rows := p.Screen()
	if got := strings.Join(rows[1:6], "|"); !strings.Contains(got, "short") {
		t.Errorf("at 30 columns the long line does not wrap into 4 rows: %q", got)
	}
	for i, r := range rows {
		if ansi.StringWidth(r) > 30 {
			t.Errorf("row %d wider than 30: %q", i, r)
		}
	}
	p = run(t, viewer.NewPager("t", []string{long, "short"}, 30, 12), 30, 12,
		tea.WindowSizeMsg{Width: 120, Height: 12}).(*viewer.Pager)
	if rows := p.Screen(); rows[2] != "short" {
		t.Errorf("at 120 columns row 2 is %q, want %q", rows[2], "short")
	}
}

// TestReading: Reading pulls one batch at a time, once the model has taken
// the previous one; a key pressed while the next batch is awaited is drawn
// at once; the pulls end when next says so; and the screen at the end is
// what a replay of the whole log shows after the same key.
func TestReading(t *testing.T) {
	log := exampleLog(t)
	cfg := terminal.Config{SessionID: "s", Width: 80, Height: 24, Clock: func() int64 { return 0 }}
	batches := make(chan []tea.Msg)
	var pulls, applied, keys atomic.Int32
	inFlight := atomic.Bool{}
	next := func() ([]tea.Msg, bool) {
		if inFlight.Swap(true) {
			t.Error("a pull while another one's batch was not yet applied")
		}
		pulls.Add(1)
		msgs, ok := <-batches
		if ok {
			msgs = append(msgs, countMsg{&applied, &inFlight})
		} else {
			inFlight.Store(false)
		}
		return msgs, ok
	}
	tm := teatest.NewTestModel(t, viewer.Reading(&counter{Model: terminal.New(cfg), keys: &keys}, next), teatest.WithInitialTermSize(80, 24), programOptions)
	half := len(log) / 2
	deadline := time.Now().Add(10 * time.Second)
	batches <- []tea.Msg{terminal.EventsMsg{Events: log[:half]}, terminal.StatusMsg{Text: "reading 50%"}}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("reading 50%")) },
		teatest.WithDuration(10*time.Second))
	// The next pull is waiting on batches: a key is not.
	tm.Send(keyCtrlR)
	for keys.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("a key waited for the next batch")
		}
		runtime.Gosched()
	}
	batches <- []tea.Msg{terminal.EventsMsg{Events: log[half:]}, terminal.StatusMsg{}}
	close(batches)
	for pulls.Load() < 3 && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	tm.Send(keyQ)
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
	if n, a := pulls.Load(), applied.Load(); n != 3 || a != 2 {
		t.Errorf("%d pulls, %d batches applied; want 3 and 2", n, a)
	}
	full := cfg
	full.Log = log
	replay := terminal.New(full)
	replay.Update(keyCtrlR)
	if got, want := final.View().Content, replay.View().Content; got != want {
		t.Errorf("screen at the end:\n%s\nwant the replay's\n%s", plain(strings.Split(got, "\n")), plain(strings.Split(want, "\n")))
	}
}

// countMsg, the last message of a batch, says the model took the batch.
type countMsg struct {
	applied  *atomic.Int32
	inFlight *atomic.Bool
}

// counter takes countMsg for the model it wraps, and counts the keys.
type counter struct {
	tea.Model
	keys *atomic.Int32
}

func (c *counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		defer c.keys.Add(1)
	}
	if m, ok := msg.(countMsg); ok {
		m.applied.Add(1)
		m.inFlight.Store(false)
		return c, nil
	}
	var cmd tea.Cmd
	c.Model, cmd = c.Model.Update(msg)
	return c, cmd
}
