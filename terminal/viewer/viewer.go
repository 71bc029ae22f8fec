// Package viewer runs dshtest's full-screen views: the real transcript
// renderer (terminal's model) on a stored log, and a plain pager
// for the model's view of the same log (its surface messages).
//
// Both are Bubble Tea models drawn on the alternate screen; Run is the only
// place that starts a program, so tests drive the models with teatest.
package viewer

import (
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/terminal/display"
)

// Run runs m as a full-screen program reading keys from in and drawing to
// out, until the user quits. opts are added after the streams.
//
// SIGINT, SIGTERM and SIGHUP end the program as q does, the terminal
// restored, and Run then returns an *Interrupted: Bubble Tea's own
// handler returned nil for SIGTERM and left SIGHUP to end the process
// where it stood, the terminal in raw mode on the alternate screen and a
// copy of standard input left behind.
func Run(m tea.Model, in io.Reader, out io.Writer, opts ...tea.ProgramOption) error {
	all := append([]tea.ProgramOption{tea.WithInput(in), tea.WithOutput(out), tea.WithoutSignalHandler()}, opts...)
	p := tea.NewProgram(m, all...)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	got, done := make(chan os.Signal, 1), make(chan struct{})
	defer close(done)
	go func() {
		select {
		case s := <-sig:
			got <- s
			p.Quit()
		case <-done:
		}
	}()
	_, err := p.Run()
	select {
	case s := <-got:
		return &Interrupted{Signal: s}
	default:
		return err
	}
}

// Interrupted is Run's error for a program a signal ended.
type Interrupted struct{ Signal os.Signal }

func (e *Interrupted) Error() string { return "interrupted (" + e.Signal.String() + ")" }

// Reading wraps m, shown while what it shows is still read behind it:
// next blocks until the next messages for m are ready (a batch of events
// and a status, say) and reports false once there are no more. The
// messages are pulled one batch at a time, once m has taken the previous
// one, so that a key pressed meanwhile waits for one batch at most, not
// for a queue of them.
func Reading(m tea.Model, next func() ([]tea.Msg, bool)) tea.Model {
	return &reading{m: m, next: next}
}

type reading struct {
	m    tea.Model
	next func() ([]tea.Msg, bool)
}

// pulled is what a pull brought.
type pulled struct {
	msgs []tea.Msg
	more bool
}

func (r *reading) pull() tea.Msg {
	msgs, more := r.next()
	return pulled{msgs, more}
}

func (r *reading) Init() tea.Cmd { return tea.Batch(r.m.Init(), r.pull) }

func (r *reading) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	p, ok := msg.(pulled)
	if !ok {
		var cmd tea.Cmd
		r.m, cmd = r.m.Update(msg)
		return r, cmd
	}
	var cmds []tea.Cmd
	for _, msg := range p.msgs {
		var cmd tea.Cmd
		r.m, cmd = r.m.Update(msg)
		cmds = append(cmds, cmd)
	}
	if p.more {
		cmds = append(cmds, r.pull)
	}
	return r, tea.Batch(cmds...)
}

func (r *reading) View() tea.View { return r.m.View() }

// Pager pages through lines, wrapped to the width: a title row, a window
// of rows and a status row. Keys: q or Ctrl+C quit; PgUp/PgDn, Up/Down
// (k/j), Home/End scroll. It opens at the top.
type Pager struct {
	title         string
	source        []string
	lines         []string // source wrapped to width
	width, height int
	top           int
}

// NewPager returns a pager over lines (plain, escaped text) with a title.
func NewPager(title string, lines []string, width, height int) *Pager {
	p := &Pager{title: title, source: lines, width: width, height: height}
	p.wrap()
	return p
}

// wrap re-wraps the source lines to the width. The lines are plain,
// escaped text; they are measured and wrapped as the renderer measures its
// rows (display.WrapText), so a row fits the width as terminals draw it.
func (p *Pager) wrap() {
	p.lines = p.lines[:0]
	for _, l := range p.source {
		if p.width < 1 || display.TextWidth(l) <= p.width {
			p.lines = append(p.lines, l)
			continue
		}
		p.lines = append(p.lines, display.WrapText(l, p.width)...)
	}
}

// Init implements tea.Model.
func (p *Pager) Init() tea.Cmd { return nil }

// Top returns the index of the first line shown.
func (p *Pager) Top() int { return p.top }

// Size returns the pager's size.
func (p *Pager) Size() (width, height int) { return p.width, p.height }

func (p *Pager) window() int { return max(p.height-2, 1) }

func (p *Pager) maxTop() int { return max(len(p.lines)-p.window(), 0) }

func (p *Pager) scroll(n int) { p.top = min(max(p.top+n, 0), p.maxTop()) }

// Update implements tea.Model.
func (p *Pager) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if msg.Width != p.width {
			p.width = msg.Width
			p.wrap()
		}
		p.height = msg.Height
		p.scroll(0)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "q", "ctrl+c":
			return p, tea.Quit
		case "pgdown", "space", "f":
			p.scroll(p.window())
		case "pgup", "b":
			p.scroll(-p.window())
		case "down", "j":
			p.scroll(1)
		case "up", "k":
			p.scroll(-1)
		case "home", "g":
			p.top = 0
		case "end", "G":
			p.top = p.maxTop()
		}
	}
	return p, nil
}

// Screen returns the pager's rows: the title, the window and the status
// line, each cut to the width.
func (p *Pager) Screen() []string {
	if p.height <= 0 {
		return nil
	}
	rows := []string{display.Cut(p.title, p.width)}
	h := p.window()
	for i := p.top; i < p.top+h; i++ {
		if i < len(p.lines) {
			rows = append(rows, display.Cut(p.lines[i], p.width))
		} else {
			rows = append(rows, "~")
		}
	}
	end := min(p.top+h, len(p.lines))
	status := "q quit · PgUp/PgDn · Home/End"
	if len(p.lines) > 0 {
		status = "lines " + strconv.Itoa(p.top+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(p.lines)) + " · " + status
	}
	rows = append(rows, display.Cut(status, p.width))
	return rows[:min(len(rows), p.height)]
}

// View implements tea.Model.
func (p *Pager) View() tea.View {
	v := tea.NewView(strings.Join(p.Screen(), "\n"))
	v.AltScreen = true
	return v
}
