// Package review is dshtest review: a Bubble Tea viewer that walks the
// pending screens a failing run wrote and lets a person decide each one.
//
// For each pending fixture it shows the recorded and the new screen side
// by side (one above the other when the terminal is narrow), in their real
// colours from the fixture's style runs, with the changed cells
// highlighted. Keys: a accept, r reject, s skip (A, R, S: the same for
// every screen not yet decided), d document ↔ screen, n/p next/previous,
// q quit, and the scroll keys (Up/Down, PgUp/PgDn, Home/End). The
// decisions themselves are the caller's (a Decider), so accepting renders
// the scenario twice as record does. Summary says what was decided, for
// the line printed on exit.
package review

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/screen/picture"
	"github.com/dshtest/dshtest/terminal/display"
)

// Item is one pending screen.
type Item struct {
	// Name is the fixture's name, Scenario the scenario owning it.
	Name, Scenario string
	// Recorded is the recorded fixture (nil when there is none); New is
	// the pending screen.
	Recorded, New []byte
}

// Decider carries out decisions on items, in order, and returns how many
// it carried out: the first n items are decided, and an error (with n
// short of all) leaves the rest undecided and is shown on the status
// line. Items come several at a time for A and R, so that a scenario
// owning several of them is rendered once for all.
type Decider interface {
	Accept([]Item) (n int, err error)
	Reject([]Item) (n int, err error)
}

// Decision is what became of an item.
type Decision int

// The decisions.
const (
	Undecided Decision = iota
	Accepted
	Rejected
	Skipped
)

func (d Decision) String() string {
	return [...]string{"pending", "accepted", "rejected", "skipped"}[d]
}

// side is one parsed fixture, both sections as grids.
type side struct {
	doc, scr Grid
	err      error
}

// Grid is a drawn section and its height in rows.
type Grid struct {
	picture.Grid
	Height int
}

func parse(data []byte) side {
	if data == nil {
		return side{}
	}
	f, err := screen.ParseFixture(data)
	if err != nil {
		return side{err: err}
	}
	w, h := picture.Size(f)
	return side{
		doc: Grid{picture.FromRows(f.Document, w), len(f.Document)},
		scr: Grid{picture.FromRows(f.Screen, w), h},
	}
}

// Model is the review viewer.
type Model struct {
	items     []Item
	rec, nw   []side
	decisions []Decision
	decider   Decider

	cur           int
	document      bool // showing the document section instead of the screen
	top           int  // first body row shown
	width, height int
	status        string
}

// New returns a viewer over items at width × height.
func New(items []Item, d Decider, width, height int) *Model {
	m := &Model{items: items, decider: d, width: width, height: height, decisions: make([]Decision, len(items))}
	for _, it := range items {
		m.rec = append(m.rec, parse(it.Recorded))
		m.nw = append(m.nw, parse(it.New))
	}
	return m
}

// Decisions returns each item's decision, in order.
func (m *Model) Decisions() []Decision { return append([]Decision(nil), m.decisions...) }

// Current returns the index of the item shown.
func (m *Model) Current() int { return m.cur }

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.scroll(0)
	case tea.KeyPressMsg:
		if len(m.items) == 0 {
			return m, tea.Quit
		}
		switch msg.String() {
		case "q", "ctrl+c":
			return m, tea.Quit
		case "a":
			return m.decided(m.decide(Accepted, []int{m.cur}))
		case "r":
			return m.decided(m.decide(Rejected, []int{m.cur}))
		case "s":
			return m.decided(m.decide(Skipped, []int{m.cur}))
		case "A", "shift+a":
			return m.decided(m.DecideRemaining(Accepted))
		case "R", "shift+r":
			return m.decided(m.DecideRemaining(Rejected))
		case "S", "shift+s":
			return m.decided(m.DecideRemaining(Skipped))
		case "d":
			m.document = !m.document
			m.top = 0
		case "n", "right", "tab":
			m.move(1)
		case "p", "left", "shift+tab":
			m.move(-1)
		case "down", "j":
			m.scroll(1)
		case "up", "k":
			m.scroll(-1)
		case "pgdown", "space", "f":
			m.scroll(m.bodyHeight())
		case "pgup", "b":
			m.scroll(-m.bodyHeight())
		case "home", "g":
			m.top = 0
		case "end", "G":
			m.top = m.maxTop()
		}
	}
	return m, nil
}

// remaining returns the undecided items, the current one first and then
// in the order the viewer walks them.
func (m *Model) remaining() []int {
	var out []int
	for k := range len(m.items) {
		if i := (m.cur + k) % len(m.items); m.decisions[i] == Undecided {
			out = append(out, i)
		}
	}
	return out
}

// DecideRemaining carries out d on every item not yet decided, as the
// keys A, R and S do, and returns the Decider's error.
func (m *Model) DecideRemaining(d Decision) error {
	return m.decide(d, m.remaining())
}

// decided quits once every item is decided; the error is on the status
// line already.
func (m *Model) decided(error) (tea.Model, tea.Cmd) {
	if len(m.remaining()) == 0 {
		return m, tea.Quit
	}
	return m, nil
}

// decide carries out d on the items at idx and moves to the next
// undecided one (on an error, to the item that failed).
func (m *Model) decide(d Decision, idx []int) error {
	if len(idx) == 0 || d == Undecided {
		return nil
	}
	items := make([]Item, len(idx))
	for k, i := range idx {
		items[k] = m.items[i]
	}
	n, err := len(items), error(nil)
	switch d {
	case Accepted:
		n, err = m.decider.Accept(items)
	case Rejected:
		n, err = m.decider.Reject(items)
	}
	n = min(max(n, 0), len(idx))
	for _, i := range idx[:n] {
		m.decisions[i] = d
	}
	switch {
	case err != nil:
		if n < len(idx) {
			m.cur, m.top = idx[n], 0 // the one that failed
		}
		m.status = fmt.Sprintf("not %s: %s", d, oneLine(err.Error()))
		return err
	case n == 1:
		m.status = fmt.Sprintf("%s %s", d, items[0].Name)
	default:
		m.status = fmt.Sprintf("%s %d screens", d, n)
	}
	if next := m.remaining(); len(next) > 0 {
		m.cur, m.top = next[0], 0
	}
	return nil
}

// Summary says what was decided, as "2 accepted, 1 rejected, 1 skipped",
// with the items left undecided (by q) when there are any.
func (m *Model) Summary() string {
	var n [4]int
	for _, d := range m.decisions {
		n[d]++
	}
	s := fmt.Sprintf("%d accepted, %d rejected, %d skipped", n[Accepted], n[Rejected], n[Skipped])
	if n[Undecided] > 0 {
		s += ", " + strconv.Itoa(n[Undecided]) + " undecided"
	}
	return s
}

func (m *Model) move(n int) {
	if len(m.items) == 0 {
		return
	}
	m.cur = (m.cur + n + len(m.items)) % len(m.items)
	m.top = 0
	m.status = ""
}

// bodyHeight is the rows between the header and the footer.
func (m *Model) bodyHeight() int { return max(m.height-3, 1) }

func (m *Model) scroll(n int) { m.top = min(max(m.top+n, 0), m.maxTop()) }

func (m *Model) maxTop() int { return max(len(m.body())-m.bodyHeight(), 0) }

// grids returns the current item's two grids for the section shown.
func (m *Model) grids() (rec, nw *Grid, recErr, newErr error) {
	r, n := m.rec[m.cur], m.nw[m.cur]
	pick := func(s side) *Grid {
		if s.err != nil || (s.scr.Width == 0 && s.scr.Rows == nil) {
			return nil
		}
		if m.document {
			return &s.doc
		}
		return &s.scr
	}
	return pick(r), pick(n), r.err, n.err
}

// body is the current item's panels, as styled rows.
func (m *Model) body() []string {
	if len(m.items) == 0 {
		return []string{"no pending screens"}
	}
	rec, nw, recErr, newErr := m.grids()
	var changes [][]bool
	if rec != nil && nw != nil {
		changes = picture.Changes(rec.Grid, nw.Grid)
	}
	panel := func(label string, g *Grid, err error) []string {
		switch {
		case err != nil:
			return []string{label, "cannot read: " + oneLine(err.Error())}
		case g == nil:
			return []string{label, "(none)"}
		}
		rows := []string{label}
		for r := range max(g.Height, len(g.Rows)) {
			var mark []bool
			if r < len(changes) {
				mark = changes[r]
			}
			rows = append(rows, picture.ANSIRow(g.Grid, r, g.Width, mark))
		}
		return rows
	}
	left := panel("recorded", rec, recErr)
	right := panel("new", nw, newErr)
	lw := 0
	if rec != nil {
		lw = rec.Width
	}
	lw = max(lw, len("recorded"))
	rw := len("new")
	if nw != nil {
		rw = max(rw, nw.Width)
	}
	if lw+3+rw <= m.width {
		out := make([]string, max(len(left), len(right)))
		for i := range out {
			l, r := "", ""
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			out[i] = l + strings.Repeat(" ", max(lw-ansi.StringWidth(l), 0)) + " │ " + r
		}
		return out
	}
	return append(append(left, ""), right...)
}

// Screen returns the viewer's rows: a header, the body window and a
// footer, each cut to the width.
func (m *Model) Screen() []string {
	if m.height <= 0 {
		return nil
	}
	var head string
	if len(m.items) == 0 {
		head = "review · nothing pending"
	} else {
		it := m.items[m.cur]
		section := "screen"
		if m.document {
			section = "document"
		}
		changed := "new fixture"
		if rec, nw, _, _ := m.grids(); rec != nil && nw != nil {
			changed = picture.ChangeSummary(picture.Changes(rec.Grid, nw.Grid))
		}
		head = fmt.Sprintf("review %d/%d · fixtures/%s.screen (%s) · %s · %s · %s",
			m.cur+1, len(m.items), it.Name, it.Scenario, section, changed, m.decisions[m.cur])
	}
	rows := []string{display.Cut(head, m.width)}
	body := m.body()
	for i := m.top; i < m.top+m.bodyHeight(); i++ {
		if i < len(body) {
			rows = append(rows, display.Cut(body[i], m.width))
		} else {
			rows = append(rows, "")
		}
	}
	rows = append(rows, display.Cut(m.status, m.width))
	rows = append(rows, display.Cut("a accept · r reject · s skip · A/R/S all remaining · d document · n/p next/prev · ↑↓ scroll · q quit", m.width))
	return rows[:min(len(rows), m.height)]
}

// View implements tea.Model.
func (m *Model) View() tea.View {
	v := tea.NewView(strings.Join(m.Screen(), "\n"))
	v.AltScreen = true
	return v
}

// oneLine makes an error message one safe line.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
