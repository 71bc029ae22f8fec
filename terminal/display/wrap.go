package display

import (
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// Wrapping styled lines: a line is split into grapheme cells and broken into
// rows of at most a width (a printable-ASCII line is wrapped on its bytes,
// without cells: wrapascii.go); pooled cell buffers keep the split from
// allocating per line.

// Cell is one grapheme cluster of a styled line.
type Cell struct {
	Text  string
	Style Style
	Width int8 // a cluster is at most a few cells wide; 24 bytes a cell, not 32
}

// Cells splits a line into grapheme clusters. A printable ASCII byte
// followed by another ASCII byte (or by the end of its span) is a cluster of
// one cell on its own (UAX #29 breaks between them), which spares the
// segmenter most of the text.
func Cells(l Line) []Cell {
	n := 0
	for _, sp := range l {
		n += len(sp.Text)
	}
	return appendCells(make([]Cell, 0, n), l)
}

// appendCells appends Cells(l) to cells.
func appendCells(cells []Cell, l Line) []Cell {
	eachCell(l, func(c Cell) { cells = append(cells, c) })
	return cells
}

// cellPool holds the cell buffers of wrap, which splits every wrapped line
// of a document that is not printable ASCII and drops the cells once its
// rows are built. A buffer grown past maxPooledCells is let go.
var cellPool = sync.Pool{New: func() any { return new([]Cell) }}

const maxPooledCells = 1 << 14

func scratchCells() *[]Cell { return cellPool.Get().(*[]Cell) }

func releaseCells(buf *[]Cell) {
	if cap(*buf) <= maxPooledCells {
		clear(*buf) // no text kept alive by a pooled buffer
		*buf = (*buf)[:0]
		cellPool.Put(buf)
	}
}

// CellCount is len(Cells(l)), without the cells.
func CellCount(l Line) int {
	n := 0
	eachCell(l, func(Cell) { n++ })
	return n
}

// eachCell calls fn with each of Cells' cells in turn.
func eachCell(l Line, fn func(Cell)) {
	for _, sp := range l {
		s := sp.Text
		for s != "" {
			if asciiAlone(s) {
				fn(Cell{Text: s[:1], Width: 1, Style: sp.Style})
				s = s[1:]
				continue
			}
			if n, w, ok := loneAt(s); ok {
				fn(Cell{Text: s[:n], Width: int8(w), Style: sp.Style})
				s = s[n:]
				continue
			}
			g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
			if g == "" {
				break
			}
			termCells(g, w, func(p string, w int) {
				fn(Cell{Text: p, Width: int8(min(w, 127)), Style: sp.Style})
			})
			s = s[len(g):]
		}
	}
}

// fromCells joins cells back into a line, a span per run of one style.
func fromCells(cells []Cell) Line {
	if len(cells) == 0 {
		return nil
	}
	// One string holds the row's text; its spans are slices of it.
	n, runs := 0, 1
	for i, c := range cells {
		n += len(c.Text)
		if i > 0 && c.Style != cells[i-1].Style {
			runs++
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, c := range cells {
		b.WriteString(c.Text)
	}
	text := b.String()
	l := make(Line, 0, runs)
	start, at := 0, 0
	for i, c := range cells {
		if i > 0 && c.Style != cells[i-1].Style {
			l = append(l, Span{Text: text[start:at], Style: cells[i-1].Style})
			start = at
		}
		at += len(c.Text)
	}
	return append(l, Span{Text: text[start:], Style: cells[len(cells)-1].Style})
}

// WrapLine wraps one logical line to width cells by pi-tui's rules (see
// Wrap); the rows only.
func WrapLine(l Line, width int) []Line {
	return Wrap(l, width).Rows
}

// Wrapping is a line wrapped to a width: its rows and, for each row, the
// style its padding is drawn in.
type Wrapping struct {
	Rows []Line
	// Pads is the style of each row's padding: the SGR state the row's text
	// leaves open, less underline, which pi-tui closes at a break
	// (presenters.md §3.6). A line that fits, and a line's last row, close
	// every style: plain.
	Pads []Style
}

// Wrap wraps l to width cells as pi-tui 0.80.7's wrapTextWithAnsi wraps the
// SGR string a palette writes for it (docs/spec/presenters.md §3.6):
//
//   - A line no wider than the width is one row, as it is.
//   - Otherwise it is cut into tokens: runs of spaces, runs of other
//     clusters, and every cluster holding a Han, Kana, Hangul or Bopomofo
//     character (cjkBreak; U+00B7 is one) as a token of its own, so a row
//     may break on either side of it.
//   - A run of spaces is white space only if no style starts in it (the SGR
//     sequence of a style change sits on the next visible cell, so a space
//     after a styled span carries its close). White space that overflows a
//     row is dropped; any other token that overflows starts the next row,
//     a styled space included (the leading space of §3.6).
//   - A token wider than the width is broken between clusters; the row
//     before it is emitted even when it holds no text but an open style.
//   - Every row is trimmed of trailing spaces, but for spaces the line's
//     closing sequence follows.
//
// A cluster wider than the whole width (a wide rune at width 1) is shown as
// U+FFFD, so that no row exceeds the width.
func Wrap(l Line, width int) Wrapping { return wrap(l, -1, width) }

// WrapMeasured is Wrap of l, which the caller has measured w cells wide
// (Line.Width): a body laid out at several widths measures each line once.
func WrapMeasured(l Line, w, width int) Wrapping { return wrap(l, w, width) }

// wrap is Wrap of l, w cells wide (-1: not measured yet).
func wrap(l Line, w, width int) Wrapping {
	width = max(width, 1)
	if n, ok := asciiLen(l); ok {
		if n <= width {
			return fits(l)
		}
		return wrapASCII(l, n, width)
	}
	if w < 0 {
		w = l.Width()
	}
	if w <= width {
		return fits(l)
	}
	return wrapGeneral(l, width)
}

// fits is the Wrapping of a line that fits: the line as it is, no
// padding style. Its row and pad are made in one allocation: most lines
// fit.
func fits(l Line) Wrapping {
	b := &struct {
		rows [1]Line
		pads [1]Style
	}{rows: [1]Line{l}}
	return Wrapping{Rows: b.rows[:], Pads: b.pads[:]}
}

// wrapGeneral is Wrap of a line wider than width (width ≥ 1) through its
// cells: any line, printable ASCII or not.
func wrapGeneral(l Line, width int) Wrapping {
	buf := scratchCells()
	defer releaseCells(buf)
	*buf = appendCells((*buf)[:0], l)
	return wrapCells(*buf, width)
}

// RowCount is len(WrapLine(l, width)), without building the rows: a fold
// counts every row of a body and keeps a few.
func RowCount(l Line, width int) int { return rowCount(l, -1, width) }

// RowCountMeasured is RowCount of l, which the caller has measured w cells
// wide (Line.Width).
func RowCountMeasured(l Line, w, width int) int { return rowCount(l, w, width) }

// rowCount is RowCount of l, w cells wide (-1: not measured yet).
func rowCount(l Line, w, width int) int {
	width = max(width, 1)
	if n, ok := asciiLen(l); ok {
		if n <= width {
			return 1
		}
		return countASCII(l, n, width)
	}
	if w < 0 {
		w = l.Width()
	}
	if w <= width {
		return 1
	}
	buf := scratchCells()
	defer releaseCells(buf)
	*buf = appendCells((*buf)[:0], l)
	return countCells(*buf, width)
}

// token is a run of cells [a, b) that wraps as one.
type token struct {
	a, b, w int
	space   bool // white space: dropped when it overflows a row
}

// eachToken cuts cells into wrap tokens (see Wrap) and calls yield with
// each in turn: walkCells reads them once, in order, so none is kept (a
// slice of them was an eighth of repro's allocations).
func eachToken(cells []Cell, yield func(token)) {
	for i := 0; i < len(cells); {
		c := cells[i]
		var t token
		if c.Text != " " && cjkBreak(c.Text) {
			t = token{a: i, b: i + 1, w: int(c.Width)}
			i++
		} else {
			isSpace := c.Text == " "
			t = token{a: i, space: isSpace}
			for i < len(cells) && (cells[i].Text == " ") == isSpace && (isSpace || !cjkBreak(cells[i].Text)) {
				var before Style // the SGR state before cell i
				if i > 0 {
					before = cells[i-1].Style
				}
				if isSpace && cells[i].Style != before {
					t.space = false // a style change is an SGR sequence in the run
				}
				t.w += int(cells[i].Width)
				i++
			}
			t.b = i
		}
		// The line's closing sequence follows its last cell.
		if i == len(cells) && t.space && cells[len(cells)-1].Style != (Style{}) {
			t.space = false
		}
		yield(t)
	}
}

// wrapCells is Wrap of a line of more than width cells (width ≥ 1), split
// into cells. It writes into cells: a cluster wider than the width becomes
// U+FFFD. The rows share nothing with the cells (fromCells).
func wrapCells(cells []Cell, width int) Wrapping {
	var out Wrapping
	closed := cells[len(cells)-1].Style == (Style{}) // no sequence after the last cell
	// emit ends a row. Its trailing spaces are trimmed back to the last
	// SGR sequence after them: a style change, the line's close, or one
	// that kept says ends the row (the underline close before a broken
	// word, the sequence of the cell a broken word goes on with).
	emit := func(a, b int, st Style, kept bool) {
		kept = kept || !closed && b == len(cells)
		for b > a && !kept && isTrimmedSpace(cells[b-1].Text) {
			b--
			kept = b > a && cells[b].Style != cells[b-1].Style
		}
		out.Rows = append(out.Rows, fromCells(cells[a:b]))
		st.Attrs &^= Underline
		out.Pads = append(out.Pads, st)
	}
	walkCells(cells, width, emit)
	return out
}

// countCells is len(wrapCells(cells, width).Rows), without the rows.
func countCells(cells []Cell, width int) int {
	n := 0
	walkCells(cells, width, func(int, int, Style, bool) { n++ })
	return n
}

// walkCells takes wrapCells' steps, calling emit for each row in turn: the
// row is cells [a, b) before its trailing spaces are trimmed, st the SGR
// state its padding is drawn in, kept whether a sequence ends it.
func walkCells(cells []Cell, width int, emit func(a, b int, st Style, kept bool)) {
	for i := range cells {
		if int(cells[i].Width) > width {
			cells[i].Text, cells[i].Width = "\uFFFD", 1
		}
	}
	after := func(i int) Style { // the SGR state after cell i
		if i == len(cells)-1 {
			return Style{}
		}
		return cells[i].Style
	}
	// The row in progress is cells [a, b), curW wide; open reports that it
	// is not empty (text, or an open style), state the SGR state after it.
	a, b, curW, open, state := 0, 0, 0, false, Style{}
	eachToken(cells, func(t token) {
		if t.w > width && !t.space {
			if open {
				emit(a, b, state, state.Attrs&Underline != 0)
			}
			a, curW = t.a, 0
			for i := t.a; i < t.b; i++ {
				if w := int(cells[i].Width); curW+w > width {
					// The SGR sequence of cell i ends the row before it.
					emit(a, i, cells[i].Style, cells[i].Style != cells[i-1].Style || cells[i].Style.Attrs&Underline != 0)
					a, curW = i, 0
				}
				curW += int(cells[i].Width)
			}
			b, open, state = t.b, true, after(t.b-1)
			return
		}
		if curW > 0 && curW+t.w > width {
			emit(a, b, state, false)
			if t.space {
				a, b, curW, open = t.b, t.b, 0, state != (Style{})
				state = after(t.b - 1)
				return
			}
			a, curW = t.a, 0
		}
		b, curW, open = t.b, curW+t.w, true
		state = after(t.b - 1)
	})
	if open {
		emit(a, b, Style{}, false)
	}
}

// isTrimmedSpace reports whether a cell is white space that JavaScript's
// trimEnd removes from a row's end.
func isTrimmedSpace(s string) bool {
	switch s {
	case " ", "\u00a0", "\u1680", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff":
		return true
	}
	r := []rune(s)
	return len(r) == 1 && r[0] >= 0x2000 && r[0] <= 0x200a
}

// TruncateLine cuts a line to at most width cells, ending it with "…" when
// something was cut.
func TruncateLine(l Line, width int) Line {
	width = max(width, 1)
	if l.Width() <= width {
		return l
	}
	cells := Cells(l)
	var out []Cell
	w := 0
	for _, c := range cells {
		if w+int(c.Width) > width-1 {
			break
		}
		out = append(out, c)
		w += int(c.Width)
	}
	var st Style
	if len(cells) > 0 {
		st = cells[len(out)].Style
	}
	out = append(out, Cell{Text: "…", Width: 1, Style: st})
	return fromCells(out)
}

// CutLine cuts a line to at most width cells, with no ellipsis: the
// clusters that fit, as pi-tui's truncateToWidth(text, width, "") keeps
// them (a wide cluster that would straddle the edge is dropped).
func CutLine(l Line, width int) Line {
	width = max(width, 1)
	if l.Width() <= width {
		return l
	}
	cells := Cells(l)
	w, n := 0, 0
	for n < len(cells) && w+int(cells[n].Width) <= width {
		w += int(cells[n].Width)
		n++
	}
	return fromCells(cells[:n])
}

// PrintableASCII reports whether every byte of l is printable ASCII: a
// cell of width one on its own (see Cells).
func PrintableASCII(l Line) bool {
	for _, sp := range l {
		for i := 0; i < len(sp.Text); i++ {
			if c := sp.Text[i]; c < 0x20 || c >= 0x7f {
				return false
			}
		}
	}
	return true
}
