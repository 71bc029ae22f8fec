package viewer_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dshtest/dshtest/internal/testkit/hostile"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/viewer"
)

// recorder keeps every frame a model draws.
type recorder struct {
	tea.Model
	mu     sync.Mutex
	frames []string
}

func (r *recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	r.Model, cmd = r.Model.Update(msg)
	return r, cmd
}

func (r *recorder) View() tea.View {
	v := r.Model.View()
	r.mu.Lock()
	r.frames = append(r.frames, v.Content)
	r.mu.Unlock()
	return v
}

// TestViewHostile drives both of view's screens (the renderer and the
// --surface pager) over a hostile log through teatest, and checks every
// frame they draw against the byte rule: the renderer's own SGR styling
// aside, nothing of the log's controls, BiDi or tag characters is drawn,
// in the title row or anywhere else.
func TestViewHostile(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("..", "..", "sessionlog", "testdata", "example-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log, err := hostile.Log(in)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := jsonl.ParseLog(log, "h.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := surface.Load(lf.Events, nil)
	if err != nil {
		t.Fatal(err)
	}
	var header struct{ ID string }
	if err := json.Unmarshal(lf.Header, &header); err != nil {
		t.Fatal(err)
	}
	now := lf.Events[len(lf.Events)-1].Time
	keys := []tea.Msg{
		tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}, // tools expanded
		tea.KeyPressMsg{Code: tea.KeyHome},
		tea.KeyPressMsg{Code: tea.KeyPgDown},
		tea.KeyPressMsg{Code: tea.KeyPgDown},
		tea.KeyPressMsg{Code: tea.KeyPgDown},
		tea.KeyPressMsg{Code: tea.KeyEnd},
		tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl},
	}
	for _, surface := range []bool{false, true} {
		// What "dshtest view" and "dshtest view --surface" show.
		var m tea.Model = terminal.New(terminal.Config{SessionID: header.ID, Log: lf.Events, Width: 80, Height: 24,
			Clock: func() int64 { return now }})
		if surface {
			m = viewer.SurfacePager(header.ID, sess.DeriveMessages(), 80, 24)
		}
		rec := &recorder{Model: m}
		tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(80, 24),
			teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ANSI), tea.WithEnvironment([]string{"TERM=xterm-256color"})))
		for _, k := range keys {
			tm.Send(k)
		}
		tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
		tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		rec.mu.Lock()
		frames := rec.frames
		rec.mu.Unlock()
		if len(frames) == 0 {
			t.Fatalf("surface=%v: no frame drawn", surface)
		}
		for i, f := range frames {
			if err := hostile.Check(hostile.StripSGR(f)); err != nil {
				t.Fatalf("surface=%v frame %d: %v", surface, i, err)
			}
		}
		if surface && !containsEscaped(frames[len(frames)-1]) {
			t.Errorf("surface title row does not show the id's controls escaped:\n%s", frames[len(frames)-1])
		}
	}
}

func containsEscaped(frame string) bool {
	for i := 0; i+len(`session-\x1b]0;PWNED`) <= len(frame); i++ {
		if frame[i:i+len(`session-\x1b]0;PWNED`)] == `session-\x1b]0;PWNED` {
			return true
		}
	}
	return false
}
