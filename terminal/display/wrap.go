package display

import (
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// Wrapping styled lines: a line is split into grapheme cells (a printable-ASCII
// line is wrapped on its bytes, without cells) and broken into rows of at most
// a width; pooled cell buffers keep the split from allocating per line.

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
			if c := s[0]; c >= 0x20 && c < 0x7f && (len(s) == 1 || s[1] < 0x80) {
				fn(Cell{Text: s[:1], Width: 1, Style: sp.Style})
				s = s[1:]
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

// WrapLine word-wraps one logical line to width cells. Breaks fall on
// spaces, which are dropped at the break; a word longer than the width is
// broken between grapheme clusters. Leading indentation of the logical line
// is kept on its first row. A grapheme wider than the whole width (a wide
// rune at width 1) is replaced by U+FFFD so that no row exceeds the width.
func WrapLine(l Line, width int) []Line {
	w := Wrap(l, width)
	w.Release() // the rows share nothing with the cells (fromCells)
	return w.Rows
}

// Wrapping is a line wrapped to a width (WrapLine's rows) and how it was
// split: a printable-ASCII line by bytes, any other line wider than the
// width into cells, which are scratch until release.
type Wrapping struct {
	Rows  []Line
	ASCII bool
	Cells []Cell // nil unless the line was split into cells
	buf   *[]Cell
}

// Wrap wraps l to width: the one place that chooses how a line is split.
func Wrap(l Line, width int) Wrapping {
	width = max(width, 1)
	switch {
	case l.Width() <= width:
		return Wrapping{Rows: []Line{l}}
	case PrintableASCII(l):
		return Wrapping{Rows: wrapASCII(l, width), ASCII: true}
	}
	buf := scratchCells()
	*buf = appendCells((*buf)[:0], l)
	// wrapCells writes into the cells: only a wide cluster's text changes.
	return Wrapping{Rows: wrapCells(*buf, width), Cells: *buf, buf: buf}
}

// Release returns the cells to the pool; they must not be used after.
func (w *Wrapping) Release() {
	if w.buf != nil {
		releaseCells(w.buf)
		w.buf, w.Cells = nil, nil
	}
}

// wrapCells is WrapLine of a line of more than width cells (width ≥ 1),
// split into cells. It writes into cells: a cluster wider than the width
// becomes U+FFFD.
func wrapCells(cells []Cell, width int) []Line {
	var rows [][]Cell
	var cur, pend []Cell
	curW, pendW := 0, 0
	flush := func() {
		rows = append(rows, cur)
		cur, curW = nil, 0
	}
	for i := 0; i < len(cells); {
		j, w := i, 0
		if cells[i].Text == " " {
			for j < len(cells) && cells[j].Text == " " {
				w++
				j++
			}
			pend, pendW = cells[i:j], w
			i = j
			continue
		}
		for j < len(cells) && cells[j].Text != " " {
			if int(cells[j].Width) > width {
				cells[j].Text, cells[j].Width = "\uFFFD", 1
			}
			w += int(cells[j].Width)
			j++
		}
		word := cells[i:j]
		i = j
		if len(cur) == 0 && len(rows) > 0 {
			pend, pendW = nil, 0 // no indentation on continuation rows
		}
		if curW+pendW+w <= width {
			cur = extendRow(extendRow(cur, pend), word)
			curW += pendW + w
			pend, pendW = nil, 0
			continue
		}
		pend, pendW = nil, 0
		if len(cur) > 0 {
			flush()
		}
		if w <= width {
			cur, curW = extendRow(cur, word), w
			continue
		}
		for k, c := range word { // hard break
			if curW+int(c.Width) > width {
				flush()
			}
			cur = extendRow(cur, word[k:k+1])
			curW += int(c.Width)
		}
	}
	if len(cur) > 0 || len(rows) == 0 {
		if curW+pendW <= width {
			cur = extendRow(cur, pend)
		}
		rows = append(rows, cur)
	}
	out := make([]Line, len(rows))
	for i, r := range rows {
		out[i] = fromCells(r)
	}
	return out
}

// extendRow appends add to the row cur. Rows are runs of the cells of one
// line, and what is appended to a row follows it in the line, so the row
// grows in place as a longer sub-slice of the cells; otherwise (never, as
// WrapLine calls it) it is copied, never written into the cells.
func extendRow(cur, add []Cell) []Cell {
	if len(add) == 0 {
		return cur
	}
	if len(cur) == 0 {
		return add
	}
	if n := len(cur); cap(cur)-n >= len(add) && &cur[:n+1][n] == &add[0] {
		return cur[:n+len(add)]
	}
	return append(cur[:len(cur):len(cur)], add...)
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

// wrapASCII is WrapLine for a line of printable ASCII, one cell a byte. It
// follows WrapLine's steps on byte offsets instead of cells, and cuts the
// rows out of the line's own text: every row of WrapLine is a contiguous
// run of the line's cells.
func wrapASCII(l Line, width int) []Line {
	var out []Line
	ASCIIRows(l.PlainText(), width, func(a, b int) { out = append(out, l.slice(a, b)) })
	return out
}

// ASCIIRows works out WrapLine's rows of printable-ASCII text s, one cell
// a byte, and calls row with each row's byte range s[a:b], in order.
func ASCIIRows(s string, width int, row func(a, b int)) {
	type run struct{ a, b int } // s[a:b]; empty when a == b
	rows := 0
	emit := func(r run) {
		rows++
		row(r.a, r.b)
	}
	var cur, pend run
	for i := 0; i < len(s); {
		j := i
		if s[i] == ' ' {
			for j < len(s) && s[j] == ' ' {
				j++
			}
			pend, i = run{i, j}, j
			continue
		}
		for j < len(s) && s[j] != ' ' {
			j++
		}
		word := run{i, j}
		i = j
		if cur.a == cur.b && rows > 0 {
			pend = run{} // no indentation on continuation rows
		}
		curW, pendW, w := cur.b-cur.a, pend.b-pend.a, word.b-word.a
		if curW+pendW+w <= width {
			switch {
			case curW > 0:
				cur.b = word.b
			case pendW > 0:
				cur = run{pend.a, word.b}
			default:
				cur = word
			}
			pend = run{}
			continue
		}
		pend = run{}
		if curW > 0 {
			emit(cur)
			cur = run{}
		}
		if w <= width {
			cur = word
			continue
		}
		for k := word.a; k < word.b; k++ { // hard break
			if cur.b-cur.a+1 > width {
				emit(cur)
				cur = run{}
			}
			if cur.a == cur.b {
				cur = run{k, k}
			}
			cur.b = k + 1
		}
	}
	if cur.a != cur.b || rows == 0 {
		if pendW := pend.b - pend.a; pendW > 0 && cur.b-cur.a+pendW <= width {
			if cur.a == cur.b {
				cur = pend
			} else {
				cur.b = pend.b
			}
		}
		emit(cur)
	}
}

// slice returns the cells [a, b) of a line of one-byte cells, as fromCells
// would build them: spans of equal style merged, nil when empty.
func (l Line) slice(a, b int) Line {
	var out Line
	off := 0
	for _, sp := range l {
		lo, hi := max(a, off), min(b, off+len(sp.Text))
		off += len(sp.Text)
		if lo >= hi {
			continue
		}
		text := sp.Text[lo-(off-len(sp.Text)) : hi-(off-len(sp.Text))]
		if n := len(out); n > 0 && out[n-1].Style == sp.Style {
			out[n-1].Text += text
			continue
		}
		out = append(out, Span{Text: text, Style: sp.Style})
	}
	return out
}
