package harness

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/transcript"
)

// config is the terminal configuration for mounting on log with the
// script's current view settings. The location is pinned to UTC so that
// "Completed" stamps do not depend on TZ.
func (s *script) config(log []sessionlog.Event) terminal.Config {
	v := s.view
	return terminal.Config{
		SessionID:          SessionID,
		Log:                log,
		Width:              v.width,
		Height:             v.height,
		Scheme:             v.scheme,
		HideReasoning:      v.hideReasoning,
		Tools:              v.tools,
		Transcript:         transcript.Options{EagerSteps: v.eager},
		Projection:         s.suite.cfg.Projection,
		Clock:              s.clock,
		Location:           time.UTC,
		Presenters:         presenters(v.presenter),
		MaxToolOutputLines: v.maxToolLines,
	}
}

// mount mounts a fresh terminal on the current log: the replay path.
func (s *script) mount() {
	log := s.events()
	s.term = terminal.New(s.config(log))
	s.mountN = len(log)
	s.filter = nil
	if f := s.suite.cfg.LiveFilter; f != nil {
		s.filter = f(log)
	}
}

// update sends msg to the mounted terminal and adopts the settings it
// reports, so that a replay terminal can be built with the same ones.
func (s *script) update(msg tea.Msg) {
	m, _ := s.term.Update(msg)
	s.term = m.(*terminal.Model)
	st := s.term.Settings()
	s.view.scheme, s.view.hideReasoning, s.view.tools = st.Scheme, st.HideReasoning, st.Tools
}

// ctrlKey is the key press of Ctrl+<c>.
func ctrlKey(c rune) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: c, Mod: tea.ModCtrl}
}

// presenters returns the card presenters for a presenter option.
func presenters(name string) *cards.Presenters {
	switch name {
	case "upstream-bash":
		return cards.DefaultPresenters().With("bash", upstreamBash)
	}
	return nil
}

// upstreamBash is the static bash presenter of upstream's compaction and
// advanced-card fixtures (reference/upstream-tui-snapshots/README.md): the
// card ignores the logged arguments and result text.
func upstreamBash(c cards.ToolCall) cards.CardView {
	v := &cards.TerminalView{
		Title:       "pnpm run test:coverage",
		Command:     "pnpm run test:coverage",
		Description: "Run the coverage gate",
		Cwd:         "/workspace/project",
	}
	if c.HasResult {
		v.Output = "packages/ui/tui 100%\n4016 tests passed\n1 test skipped\ncoverage complete"
		exit := 0
		v.ExitCode = &exit
	}
	return cards.CardView{Terminal: v}
}

// fixture captures what the terminal shows now.
func (s *script) fixture(m *terminal.Model) *Fixture {
	st := m.Settings()
	return &Fixture{
		Width:         st.Width,
		Height:        s.view.height,
		Scheme:        st.Scheme,
		HideReasoning: st.HideReasoning,
		Tools:         st.Tools,
		Document:      screen.Decode(m.Document().Lines),
		Screen:        screen.Decode(m.Screen()),
	}
}
