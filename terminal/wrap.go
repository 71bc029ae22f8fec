package terminal

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cell is one grapheme cluster of a styled line.
type cell struct {
	g  string
	st sty
	w  int8 // a cluster is at most a few cells wide; 24 bytes a cell, not 32
}

// toCells splits a line into grapheme clusters. A printable ASCII byte
// followed by another ASCII byte (or by the end of its span) is a cluster of
// one cell on its own (UAX #29 breaks between them), which spares the
// segmenter most of the text.
func toCells(l line) []cell {
	n := 0
	for _, sp := range l {
		n += len(sp.text)
	}
	return appendCells(make([]cell, 0, n), l)
}

// appendCells appends toCells(l) to cells.
func appendCells(cells []cell, l line) []cell {
	eachCell(l, func(c cell) { cells = append(cells, c) })
	return cells
}

// cellPool holds the cell buffers of wrap, which splits every wrapped line
// of a document that is not printable ASCII and drops the cells once its
// rows are built. A buffer grown past maxPooledCells is let go.
var cellPool = sync.Pool{New: func() any { return new([]cell) }}

const maxPooledCells = 1 << 14

func scratchCells() *[]cell { return cellPool.Get().(*[]cell) }

func releaseCells(buf *[]cell) {
	if cap(*buf) <= maxPooledCells {
		clear(*buf) // no text kept alive by a pooled buffer
		*buf = (*buf)[:0]
		cellPool.Put(buf)
	}
}

// cellCount is len(toCells(l)), without the cells.
func cellCount(l line) int {
	n := 0
	eachCell(l, func(cell) { n++ })
	return n
}

// eachCell calls fn with each of toCells' cells in turn.
func eachCell(l line, fn func(cell)) {
	for _, sp := range l {
		s := sp.text
		for s != "" {
			if c := s[0]; c >= 0x20 && c < 0x7f && (len(s) == 1 || s[1] < 0x80) {
				fn(cell{g: s[:1], w: 1, st: sp.st})
				s = s[1:]
				continue
			}
			g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
			if g == "" {
				break
			}
			termCells(g, w, func(p string, w int) {
				fn(cell{g: p, w: int8(min(w, 127)), st: sp.st})
			})
			s = s[len(g):]
		}
	}
}

// textWidth is ansi.StringWidth. A printable ASCII byte followed by another
// ASCII byte (or by the end) is a cluster of one cell on its own, as in
// toCells; the segmenter measures only the rest. A string with a control,
// a C1 control or invalid UTF-8 (which ansi's parser may read as the start
// of an escape) goes to ansi.StringWidth whole.
func textWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && (i+1 == len(s) || s[i+1] < 0x80) {
			w++
			i++
			continue
		}
		if c < 0x20 || c == 0x7f {
			return ansi.StringWidth(s)
		}
		g, gw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if g == "" {
			return ansi.StringWidth(s)
		}
		for _, r := range g {
			if r == utf8.RuneError || (r >= 0x80 && r <= 0x9f) || r < 0x20 || r == 0x7f {
				return ansi.StringWidth(s)
			}
		}
		if mayDiffer(g) {
			termCells(g, gw, func(_ string, pw int) { w += pw })
		} else {
			w += gw
		}
		i += len(g)
	}
	return w
}

// fromCells joins cells back into a line, a span per run of one style.
func fromCells(cells []cell) line {
	if len(cells) == 0 {
		return nil
	}
	// One string holds the row's text; its spans are slices of it.
	n, runs := 0, 1
	for i, c := range cells {
		n += len(c.g)
		if i > 0 && c.st != cells[i-1].st {
			runs++
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, c := range cells {
		b.WriteString(c.g)
	}
	text := b.String()
	l := make(line, 0, runs)
	start, at := 0, 0
	for i, c := range cells {
		if i > 0 && c.st != cells[i-1].st {
			l = append(l, span{text: text[start:at], st: cells[i-1].st})
			start = at
		}
		at += len(c.g)
	}
	return append(l, span{text: text[start:], st: cells[len(cells)-1].st})
}

// wrapLine word-wraps one logical line to width cells. Breaks fall on
// spaces, which are dropped at the break; a word longer than the width is
// broken between grapheme clusters. Leading indentation of the logical line
// is kept on its first row. A grapheme wider than the whole width (a wide
// rune at width 1) is replaced by U+FFFD so that no row exceeds the width.
func wrapLine(l line, width int) []line {
	w := wrap(l, width)
	w.release() // the rows share nothing with the cells (fromCells)
	return w.rows
}

// wrapping is a line wrapped to a width (wrapLine's rows) and how it was
// split: a printable-ASCII line by bytes, any other line wider than the
// width into cells, which are scratch until release.
type wrapping struct {
	rows  []line
	ascii bool
	cells []cell // nil unless the line was split into cells
	buf   *[]cell
}

// wrap wraps l to width: the one place that chooses how a line is split.
func wrap(l line, width int) wrapping {
	width = max(width, 1)
	switch {
	case l.width() <= width:
		return wrapping{rows: []line{l}}
	case printableASCII(l):
		return wrapping{rows: wrapASCII(l, width), ascii: true}
	}
	buf := scratchCells()
	*buf = appendCells((*buf)[:0], l)
	// wrapCells writes into the cells: only a wide cluster's text changes.
	return wrapping{rows: wrapCells(*buf, width), cells: *buf, buf: buf}
}

// release returns the cells to the pool; they must not be used after.
func (w *wrapping) release() {
	if w.buf != nil {
		releaseCells(w.buf)
		w.buf, w.cells = nil, nil
	}
}

// wrapCells is wrapLine of a line of more than width cells (width ≥ 1),
// split into cells. It writes into cells: a cluster wider than the width
// becomes U+FFFD.
func wrapCells(cells []cell, width int) []line {
	var rows [][]cell
	var cur, pend []cell
	curW, pendW := 0, 0
	flush := func() {
		rows = append(rows, cur)
		cur, curW = nil, 0
	}
	for i := 0; i < len(cells); {
		j, w := i, 0
		if cells[i].g == " " {
			for j < len(cells) && cells[j].g == " " {
				w++
				j++
			}
			pend, pendW = cells[i:j], w
			i = j
			continue
		}
		for j < len(cells) && cells[j].g != " " {
			if int(cells[j].w) > width {
				cells[j].g, cells[j].w = "\uFFFD", 1
			}
			w += int(cells[j].w)
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
			if curW+int(c.w) > width {
				flush()
			}
			cur = extendRow(cur, word[k:k+1])
			curW += int(c.w)
		}
	}
	if len(cur) > 0 || len(rows) == 0 {
		if curW+pendW <= width {
			cur = extendRow(cur, pend)
		}
		rows = append(rows, cur)
	}
	out := make([]line, len(rows))
	for i, r := range rows {
		out[i] = fromCells(r)
	}
	return out
}

// extendRow appends add to the row cur. Rows are runs of the cells of one
// line, and what is appended to a row follows it in the line, so the row
// grows in place as a longer sub-slice of the cells; otherwise (never, as
// wrapLine calls it) it is copied, never written into the cells.
func extendRow(cur, add []cell) []cell {
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

// truncateLine cuts a line to at most width cells, ending it with "…" when
// something was cut.
func truncateLine(l line, width int) line {
	width = max(width, 1)
	if l.width() <= width {
		return l
	}
	cells := toCells(l)
	var out []cell
	w := 0
	for _, c := range cells {
		if w+int(c.w) > width-1 {
			break
		}
		out = append(out, c)
		w += int(c.w)
	}
	st := plain
	if len(cells) > 0 {
		st = cells[len(out)].st
	}
	out = append(out, cell{g: "…", w: 1, st: st})
	return fromCells(out)
}

// printableASCII reports whether every byte of l is printable ASCII: a
// cell of width one on its own (see toCells).
func printableASCII(l line) bool {
	for _, sp := range l {
		for i := 0; i < len(sp.text); i++ {
			if c := sp.text[i]; c < 0x20 || c >= 0x7f {
				return false
			}
		}
	}
	return true
}

// wrapASCII is wrapLine for a line of printable ASCII, one cell a byte. It
// follows wrapLine's steps on byte offsets instead of cells, and cuts the
// rows out of the line's own text: every row of wrapLine is a contiguous
// run of the line's cells.
func wrapASCII(l line, width int) []line {
	var out []line
	asciiRows(flatText(l), width, func(a, b int) { out = append(out, l.slice(a, b)) })
	return out
}

// flatText is the text of a line's spans, one after another.
func flatText(l line) string {
	if len(l) == 1 {
		return l[0].text
	}
	var b strings.Builder
	for _, sp := range l {
		b.WriteString(sp.text)
	}
	return b.String()
}

// asciiRows works out wrapLine's rows of printable-ASCII text s, one cell
// a byte, and calls row with each row's byte range s[a:b], in order.
func asciiRows(s string, width int, row func(a, b int)) {
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
func (l line) slice(a, b int) line {
	var out line
	off := 0
	for _, sp := range l {
		lo, hi := max(a, off), min(b, off+len(sp.text))
		off += len(sp.text)
		if lo >= hi {
			continue
		}
		text := sp.text[lo-(off-len(sp.text)) : hi-(off-len(sp.text))]
		if n := len(out); n > 0 && out[n-1].st == sp.st {
			out[n-1].text += text
			continue
		}
		out = append(out, span{text: text, st: sp.st})
	}
	return out
}
