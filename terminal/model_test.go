package terminal

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// frozen is the compaction scenarios' frozen clock (terminal.md §9.4).
func frozen() int64 { return ms("2026-07-21 14:40:00") }

var (
	ctrlR  = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	ctrlO  = tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	ctrlC  = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	pgUp   = tea.KeyPressMsg{Code: tea.KeyPgUp}
	pgDown = tea.KeyPressMsg{Code: tea.KeyPgDown}
	home   = tea.KeyPressMsg{Code: tea.KeyHome}
	end    = tea.KeyPressMsg{Code: tea.KeyEnd}
	quit   = tea.KeyPressMsg{Code: 'q', Text: "q"}
)

// run drives the real program under teatest: it starts m at w×h with a
// pinned colour profile and environment, sends msgs in order, quits with
// the given key and returns the final model.
func run(t *testing.T, m *Model, w, h int, quitKey tea.Msg, msgs ...tea.Msg) *Model {
	t.Helper()
	// Bubble Tea sends the initial size from a goroutine of its own, so it
	// may arrive after msgs; the model was built at that size already, so
	// the filter drops it (and teatest's copy) to keep the order of msgs.
	initial := tea.WindowSizeMsg{Width: w, Height: h}
	filter := func(_ tea.Model, msg tea.Msg) tea.Msg {
		if msg == tea.Msg(initial) {
			return nil
		}
		return msg
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ANSI),
			tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithFilter(filter)))
	for _, msg := range msgs {
		tm.Send(msg)
	}
	tm.Send(quitKey)
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
}

func exampleConfig(t *testing.T, w, h int) Config {
	return Config{SessionID: "example", Log: readLog(t, "../sessionlog/testdata/example-session.jsonl"),
		Width: w, Height: h, Clock: frozen}
}

// expectedScreen is the screen an independent oracle predicts: the pure
// Render of the whole-log projection, windowed at row top (−1: the tail).
func expectedScreen(doc Document, h, top int, header, status string) []string {
	win := max(h-2, 0)
	if top < 0 || top > len(doc.Lines)-win {
		top = max(len(doc.Lines)-win, 0)
	}
	rows := []string{header}
	for i := range win {
		if top+i < len(doc.Lines) {
			rows = append(rows, doc.Lines[top+i])
		} else {
			rows = append(rows, "")
		}
	}
	return append(rows, status)
}

// sameScreen compares two screens decoded into cells.
func sameScreen(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("screen has %d rows, want %d", len(got), len(want))
	}
	g, w := screen.Decode(got), screen.Decode(want)
	for i := range g {
		if g[i].Text != w[i].Text || fmt.Sprint(g[i].Runs) != fmt.Sprint(w[i].Runs) {
			t.Errorf("screen row %d:\n got %q %v\nwant %q %v", i, g[i].Text, g[i].Runs, w[i].Text, w[i].Runs)
		}
	}
}

func decodedText(rows []string) []string {
	var out []string
	for _, r := range screen.Decode(rows) {
		out = append(out, r.TrimRight())
	}
	return out
}

// TestProgramKeys drives the program with Ctrl+R, Ctrl+O and the scroll
// keys, and checks the final screen against the pure renderer's document
// windowed where the keys should have scrolled it, and the status line.
func TestProgramKeys(t *testing.T) {
	const w, h = 110, 20
	log := readLog(t, "../sessionlog/testdata/example-session.jsonl")
	tr := transcript.Project(log, transcript.Options{})
	win := h - 2
	for _, tc := range []struct {
		name   string
		msgs   []tea.Msg
		s      Settings
		status string
	}{
		{"mount follows the tail", nil, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"ctrl+r hides reasoning", []tea.Msg{ctrlR}, Settings{HideReasoning: true},
			"example · 41 events · 1 compaction · tools collapsed · reasoning off · Reasoning blocks hidden."},
		{"ctrl+r twice shows it", []tea.Msg{ctrlR, ctrlR}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on · Reasoning blocks shown."},
		{"ctrl+o expands", []tea.Msg{ctrlO}, Settings{Tools: display.ToolsExpanded},
			"example · 41 events · 1 compaction · tools expanded · reasoning on · Tool and context cards expanded."},
		{"ctrl+o twice hides", []tea.Msg{ctrlO, ctrlO}, Settings{Tools: display.ToolsHidden},
			"example · 41 events · 1 compaction · tools hidden · reasoning on · Tool cards hidden."},
		{"ctrl+o thrice collapses", []tea.Msg{ctrlO, ctrlO, ctrlO}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on · Tool and context cards collapsed."},
		{"pgup", []tea.Msg{pgUp}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"pgup twice", []tea.Msg{pgUp, pgUp}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"pgup twice, pgdown", []tea.Msg{pgUp, pgUp, pgDown}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"pgup, pgdown back to the tail", []tea.Msg{pgUp, pgDown}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"pgup, pgdown twice", []tea.Msg{pgUp, pgDown, pgDown}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"home", []tea.Msg{home}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"home, pgdown", []tea.Msg{home, pgDown}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"home, end", []tea.Msg{home, end}, Settings{},
			"example · 41 events · 1 compaction · tools collapsed · reasoning on"},
		{"home keeps its place while toggling", []tea.Msg{home, ctrlO}, Settings{Tools: display.ToolsExpanded},
			"example · 41 events · 1 compaction · tools expanded · reasoning on · Tool and context cards expanded."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := run(t, New(exampleConfig(t, w, h)), w, h, quit, tc.msgs...)
			s := tc.s
			s.Width, s.Now = w, frozen()
			doc := Render(tr, s)
			got := m.Screen()
			if st := decodedText(got[h-1:])[0]; st != tc.status {
				t.Errorf("status %q, want %q", st, tc.status)
			}
			want := expectedScreen(doc, h, scrollTop(len(doc.Lines), win, tc.msgs), got[0], got[h-1])
			sameScreen(t, got, want)
			if d := m.Document(); !slices.Equal(d.Lines, doc.Lines) {
				t.Errorf("Document differs from Render:\n%s", lineDiffText(d.Lines, doc.Lines))
			}
			if s2 := m.Settings(); s2.Width != w || s2.Tools != s.Tools || s2.HideReasoning != s.HideReasoning {
				t.Errorf("Settings() = %+v", s2)
			}
		})
	}
}

// scrollTop is the scrolling rule the keys implement, on a document of n
// rows and a window of win rows: the view starts at the tail (−1); PgUp
// moves up a page, stopping at the top; PgDn moves down a page, and
// reaching the tail follows it again; Home goes to the top, End to the tail.
func scrollTop(n, win int, msgs []tea.Msg) int {
	tail := max(n-win, 0)
	top := -1
	for _, msg := range msgs {
		switch msg {
		case pgUp:
			if top < 0 {
				top = tail
			}
			top = max(top-win, 0)
		case pgDown:
			if top >= 0 {
				top += win
			}
			if top >= tail {
				top = -1
			}
		case home:
			top = 0
		case end:
			top = -1
		}
	}
	return top
}

// TestProgramChrome pins the header and status rows' exact cells.
func TestProgramChrome(t *testing.T) {
	m := run(t, New(exampleConfig(t, 50, 10)), 50, 10, quit, ctrlR)
	rows := screen.Decode(m.Screen())
	if len(rows) != 10 {
		t.Fatalf("%d rows", len(rows))
	}
	got := []string{fmt.Sprintf("%q %v", rows[0].Text, rows[0].Runs), fmt.Sprintf("%q %v", rows[9].Text, rows[9].Runs)}
	want := []string{
		`"dshtest · example                                 " [style 0-6 fg=bright-magenta bold style 7-16 dim]`,
		`"example · 41 events · 1 compaction · tools collap…" [style 0-49 dim]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s", lineDiffText(got, want))
	}
	for i, r := range rows {
		if r.Width > 50 {
			t.Errorf("row %d is %d wide", i, r.Width)
		}
	}
}

// TestProgramQuit: q and Ctrl+C end the program.
func TestProgramQuit(t *testing.T) {
	for _, k := range []tea.Msg{quit, ctrlC} {
		m := run(t, New(exampleConfig(t, 40, 12)), 40, 12, k)
		if len(m.Screen()) != 12 {
			t.Errorf("screen has %d rows", len(m.Screen()))
		}
	}
}

// TestProgramResize: a WindowSizeMsg reflows the document and the window.
func TestProgramResize(t *testing.T) {
	log := readLog(t, "../sessionlog/testdata/example-session.jsonl")
	tr := transcript.Project(log, transcript.Options{})
	for _, size := range [][2]int{{44, 18}, {104, 30}, {20, 8}} {
		m := run(t, New(exampleConfig(t, 80, 24)), 80, 24, quit, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		doc := Render(tr, Settings{Width: size[0], Now: frozen()})
		got := m.Screen()
		checkWidths(t, got, size[0])
		sameScreen(t, got, expectedScreen(doc, size[1], -1, got[0], got[len(got)-1]))
	}
}

// TestProgramLiveEvents mounts on an empty log and sends every event of the
// example session as EventMsg after mount: the screen and the document
// equal a mount on the full log.
func TestProgramLiveEvents(t *testing.T) {
	cfg := exampleConfig(t, 80, 24)
	log := cfg.Log
	cfg.Log = nil
	var msgs []tea.Msg
	for _, e := range log {
		msgs = append(msgs, EventMsg{Event: e})
	}
	live := run(t, New(cfg), 80, 24, quit, msgs...)
	replay := run(t, New(exampleConfig(t, 80, 24)), 80, 24, quit)
	sameScreen(t, live.Screen(), replay.Screen())
	if a, b := live.Document(), replay.Document(); !slices.Equal(a.Lines, b.Lines) {
		t.Errorf("live vs replay:\n%s", lineDiffText(a.Lines, b.Lines))
	}
	// Scrolled to the top, the view stays there while events arrive.
	tr := transcript.Project(log, transcript.Options{})
	doc := Render(tr, Settings{Width: 80, Now: frozen()})
	msgs20 := append([]tea.Msg{home}, msgs[20:]...)
	cfg20 := cfg
	cfg20.Log = log[:20]
	top := run(t, New(cfg20), 80, 24, quit, msgs20...)
	got := top.Screen()
	sameScreen(t, got, expectedScreen(doc, 24, 0, got[0], got[23]))
	// Following the tail, it follows them.
	tail := run(t, New(cfg20), 80, 24, quit, msgs[20:]...)
	sameScreen(t, tail.Screen(), replay.Screen())

	// ResumeMsg remounts through the replay path.
	resumed := run(t, New(cfg), 80, 24, quit, append(msgs[:10:10], ResumeMsg{Log: log})...)
	sameScreen(t, resumed.Screen(), replay.Screen())
}

// TestProgramCompactionScenario reproduces upstream's live compaction
// scenario through the program (terminal.md §10.3/10.4): mount seqs 0–5 at
// 80x24; append seq 6 and resize to 44x18; resize to 104x30; and the replay
// scenario, mount 0–6 at 104x30, which must equal the live one exactly.
func TestProgramCompactionScenario(t *testing.T) {
	events := readLog(t, compactionLog)
	cfg := func(n, w, h int) Config {
		return Config{SessionID: "main-session", Log: events[:n], Width: w, Height: h, Clock: frozen,
			Transcript: transcript.Options{EagerSteps: true}, Presenters: staticBash()}
	}
	seq6 := EventMsg{Event: events[6]}
	before := run(t, New(cfg(6, 80, 24)), 80, 24, quit)
	narrow := run(t, New(cfg(6, 80, 24)), 80, 24, quit, seq6, tea.WindowSizeMsg{Width: 44, Height: 18})
	wide := run(t, New(cfg(6, 80, 24)), 80, 24, quit, seq6, tea.WindowSizeMsg{Width: 44, Height: 18},
		tea.WindowSizeMsg{Width: 104, Height: 30})
	replayed := run(t, New(cfg(7, 104, 30)), 104, 30, quit)

	compareRows(t, screen.Decode(before.Document().Lines), upstreamRows(t, "surface-before-compaction", 3, 18), nil)
	compareRows(t, screen.Decode(narrow.Document().Lines), upstreamRows(t, "surface-after-compaction-narrow", 3, 20), nil)
	compareRows(t, screen.Decode(wide.Document().Lines), upstreamRows(t, "surface-after-compaction-wide", 3, 19), nil)
	compareRows(t, screen.Decode(replayed.Document().Lines), upstreamRows(t, "surface-replayed-compaction", 3, 19), nil)
	if a, b := wide.Screen(), replayed.Screen(); !slices.Equal(a, b) {
		t.Errorf("live wide screen differs from replayed:\n%s", lineDiffText(a, b))
	}
	// The 44x18 window shows the last 16 document rows, ending in the marker.
	got := decodedText(narrow.Screen())
	if got[16] != transcript.MarkerText || got[17] != "main-session · 7 events · 1 compaction · to…" {
		t.Errorf("narrow screen tail %q", got[15:])
	}
}

// logs returns every JSONL log of the projection's testdata.
func logs(t *testing.T) map[string][]sessionlog.Event {
	paths, err := filepath.Glob("../sessionlog/testdata/*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no logs: %v", err)
	}
	out := map[string][]sessionlog.Event{}
	for _, p := range paths {
		out[strings.TrimSuffix(filepath.Base(p), ".jsonl")] = readLog(t, p)
	}
	return out
}

// TestLiveEqualsReplay: for every log, a model mounted on the empty log and
// fed every event as EventMsg shows the same document as a model mounted on
// the full log, and as the pure renderer over the whole-log projection, at
// widths 20, 44, 80 and 104, both schemes, reasoning on and off and every
// tool mode, under both step rules. Every row fits the width. After every
// single event the live document also equals a fresh replay of the prefix.
func TestLiveEqualsReplay(t *testing.T) {
	for name, log := range logs(t) {
		for _, eager := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/eager=%v", name, eager), func(t *testing.T) {
				opts := transcript.Options{EagerSteps: eager}
				clock := func() int64 { return ms("2026-07-21 10:45:00") }
				cfg := Config{SessionID: name, Width: 44, Height: 12, Clock: clock, Transcript: opts}
				live := New(cfg)
				for i, e := range log {
					live.Update(EventMsg{Event: e})
					pc := cfg
					pc.Log = log[:i+1]
					a, b := live.Document(), New(pc).Document()
					if !slices.Equal(a.Lines, b.Lines) {
						t.Fatalf("after seq %d (%s), live vs replay:\n%s", e.Seq, e.Type, lineDiffText(a.Lines, b.Lines))
					}
				}
				fc := cfg
				fc.Log = log
				replay := New(fc)
				tr := transcript.Project(log, opts)
				// The render cache is keyed by ItemID: IDs must be unique.
				for _, m := range []*Model{live, replay} {
					seen := map[transcript.ItemID]bool{}
					for _, it := range m.Transcript().Items {
						if seen[it.ID] {
							t.Fatalf("duplicate item ID %+v", it.ID)
						}
						seen[it.ID] = true
					}
				}
				for _, width := range []int{20, 44, 80, 104} {
					for _, scheme := range []display.Scheme{display.SchemeDark, display.SchemeLight} {
						for _, hide := range []bool{false, true} {
							for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
								for _, m := range []*Model{live, replay} {
									setState(m, width, scheme, hide, tools)
								}
								a, b := live.Document(), replay.Document()
								what := fmt.Sprintf("width %d scheme %d hide %v tools %d", width, scheme, hide, tools)
								if !slices.Equal(a.Lines, b.Lines) {
									t.Fatalf("%s: live vs replay:\n%s", what, lineDiffText(a.Lines, b.Lines))
								}
								c := Render(tr, replay.Settings())
								if !slices.Equal(a.Lines, c.Lines) {
									t.Fatalf("%s: model vs Render:\n%s", what, lineDiffText(a.Lines, c.Lines))
								}
								checkWidths(t, a.Lines, width)
								sameScreen(t, live.Screen(), replay.Screen())
							}
						}
					}
				}
			})
		}
	}
}

// TestEventsMsgStepIndex: a model fed a log in batches (EventsMsg, as a
// viewer reading behind its screen feeds it) keeps its step index as it
// goes; after every batch its document with the tools hidden, which the
// index decides, equals a fresh replay of the prefix, with reasoning shown
// and hidden.
func TestEventsMsgStepIndex(t *testing.T) {
	for name, log := range logs(t) {
		for _, batch := range []int{1, 3, 7} {
			t.Run(fmt.Sprintf("%s/batch=%d", name, batch), func(t *testing.T) {
				clock := func() int64 { return ms("2026-07-21 10:45:00") }
				cfg := Config{SessionID: name, Width: 44, Height: 12, Clock: clock, Tools: display.ToolsHidden}
				live := New(cfg)
				for from := 0; from < len(log); from += batch {
					to := min(from+batch, len(log))
					live.Update(EventsMsg{Events: log[from:to]})
					pc := cfg
					pc.Log = log[:to]
					replay := New(pc)
					for _, hide := range []bool{false, true} {
						for _, m := range []*Model{live, replay} {
							if m.Settings().HideReasoning != hide {
								m.Update(ctrlR)
							}
						}
						if a, b := live.Document(), replay.Document(); !slices.Equal(a.Lines, b.Lines) {
							t.Fatalf("after seq %d, reasoning hidden %v, live vs replay:\n%s", log[to-1].Seq, hide, lineDiffText(a.Lines, b.Lines))
						}
					}
				}
			})
		}
	}
}

// setState brings a model to the given size and toggles through its
// messages and keys.
func setState(m *Model, width int, scheme display.Scheme, hide bool, tools display.ToolMode) {
	m.Update(tea.WindowSizeMsg{Width: width, Height: 12})
	m.Update(SchemeMsg{Scheme: scheme})
	if m.Settings().HideReasoning != hide {
		m.Update(ctrlR)
	}
	for m.Settings().Tools != tools {
		m.Update(ctrlO)
	}
}

// TestModelClock: open buckets and the compaction indicator count up with
// the injected clock, and only items that depend on it are re-rendered.
func TestModelClock(t *testing.T) {
	now := int64(10_000)
	tr := transcript.Transcript{Items: []transcript.Item{
		step(1, 1, 1, false),
		footer(1, 1, 1, transcript.Timing{Open: transcript.BucketWait, OpenSince: 10_000}, 0),
	}, Progress: &transcript.Progress{StartTime: 9_000}}
	proj := Projection{
		Replay: func([]sessionlog.Event, transcript.Options) transcript.Transcript { return tr },
		Live: func(transcript.Options) LiveProjector {
			return transcript.NewProjector(transcript.Options{})
		},
	}
	m := New(Config{Width: 40, Height: 10, Clock: func() int64 { return now }, Projection: proj})
	rows := func() []string { return decodedText(m.Screen()[1:9]) }
	if got := rows(); got[2] != "Model wait 0.0s" || got[4] != "Context being compacted 1.0s" {
		t.Errorf("at 10s: %q", got)
	}
	now = 12_345
	if got := rows(); got[2] != "Model wait 2.3s" || got[4] != "Context being compacted 3.3s" {
		t.Errorf("at 12.345s: %q", got)
	}
}

// TestReplayOnly: a ReplayOnly model shows what a model mounted on the same
// log shows, keeps no reference to the log, and refuses a live event.
func TestReplayOnly(t *testing.T) {
	cfg := exampleConfig(t, 80, 24)
	want := New(cfg).Document()
	cfg.ReplayOnly = true
	m := New(cfg)
	if got := m.Document(); !slices.Equal(got.Lines, want.Lines) {
		t.Fatalf("ReplayOnly document:\n%s", lineDiffText(got.Lines, want.Lines))
	}
	if m.mounted != nil || m.cfg.Log != nil {
		t.Fatal("ReplayOnly model keeps the log")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("EventMsg to a ReplayOnly model did not panic")
		}
	}()
	m.Update(EventMsg{Event: cfg.Log[0]})
}

// TestEventsMsg: a model fed a log in batches of EventsMsg, mounted on a
// prefix of it or on nothing, shows what one fed the same events as
// EventMsg shows, and what a replay of the whole log shows: screen and
// document.
func TestEventsMsg(t *testing.T) {
	for name, log := range logs(t) {
		for _, mounted := range []int{0, len(log) / 3} {
			for _, batch := range []int{1, 3, 64} {
				t.Run(fmt.Sprintf("%s/mounted=%d/batch=%d", name, mounted, batch), func(t *testing.T) {
					clock := func() int64 { return ms("2026-07-21 10:45:00") }
					cfg := Config{SessionID: name, Width: 44, Height: 12, Clock: clock}
					one, batched := New(cfg), New(Config{SessionID: name, Width: 44, Height: 12, Clock: clock, Log: log[:mounted]})
					for _, e := range log {
						one.Update(EventMsg{Event: e})
					}
					for i := mounted; i < len(log); i += batch {
						batched.Update(EventsMsg{Events: log[i:min(i+batch, len(log))]})
					}
					full := cfg
					full.Log = log
					replay := New(full)
					for _, m := range []*Model{one, replay} {
						if a, b := batched.Document(), m.Document(); !slices.Equal(a.Lines, b.Lines) {
							t.Fatalf("document:\n%s", lineDiffText(a.Lines, b.Lines))
						}
						if a, b := batched.Screen(), m.Screen(); !slices.Equal(a, b) {
							t.Fatalf("screen:\n%s", lineDiffText(a, b))
						}
					}
				})
			}
		}
	}
}

// TestStatusMsg: a StatusMsg's text sits after the session id on the
// status line, escaped, until an empty one removes it; a key's notice
// stays after the settings.
func TestStatusMsg(t *testing.T) {
	m := New(Config{SessionID: "s", Width: 140, Height: 4, Clock: func() int64 { return 0 }})
	plain := func() string { return ansi.Strip(m.Screen()[3]) }
	before := plain()
	m.Update(StatusMsg{Text: "reading 42%\x1b[31m\n"})
	m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	got := plain()
	if !strings.HasPrefix(got, "s · reading 42%") || strings.ContainsAny(got, "\x1b\n") ||
		!strings.Contains(got, "· 0 events · 0 compactions · tools collapsed · reasoning off · Reasoning blocks hidden.") {
		t.Fatalf("status with a text: %q", got)
	}
	m.Update(StatusMsg{})
	m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	if got := plain(); !strings.HasPrefix(got, strings.TrimRight(before, " ")) {
		t.Fatalf("status after an empty StatusMsg: %q, want %q and the notice", got, before)
	}
}

// TestReplayed: a ReplayOnly model mounted on a transcript its reader
// replayed (Config.Replayed) shows what one mounted on the log does, and
// Replayed is refused where it cannot stand for the log.
func TestReplayed(t *testing.T) {
	clock := func() int64 { return ms("2026-07-21 10:45:00") }
	for name, log := range logs(t) {
		r := transcript.NewReplay(transcript.Options{})
		for i := range log {
			r.Apply(&log[i])
		}
		mounted := New(Config{SessionID: name, Width: 44, Height: 12, Clock: clock, Log: log, ReplayOnly: true})
		replayed := New(Config{SessionID: name, Width: 44, Height: 12, Clock: clock, ReplayOnly: true,
			Replayed: &Replayed{Transcript: r.Transcript(), Events: len(log)}})
		if a, b := mounted.Document(), replayed.Document(); !slices.Equal(a.Lines, b.Lines) {
			t.Fatalf("%s: document:\n%s", name, lineDiffText(a.Lines, b.Lines))
		}
		if a, b := mounted.Screen(), replayed.Screen(); !slices.Equal(a, b) {
			t.Fatalf("%s: screen:\n%s", name, lineDiffText(a, b))
		}
	}
	for name, cfg := range map[string]Config{
		"not ReplayOnly": {Replayed: &Replayed{}},
		"with Log":       {Replayed: &Replayed{}, ReplayOnly: true, Log: []sessionlog.Event{{}}},
		"with a Replay seam": {Replayed: &Replayed{}, ReplayOnly: true,
			Projection: Projection{Replay: transcript.Project}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			New(cfg)
		}()
	}
}
