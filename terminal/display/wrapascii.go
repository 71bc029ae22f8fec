package display

import (
	"sort"

	"github.com/dshtest/dshtest/internal/ground/swar"
)

// The printable-ASCII wrap: Wrap of a line whose every byte is printable
// ASCII, on its bytes. Such a line's cells are its bytes (Cells), each one
// cell wide and none a CJK break (cjkBreak), its only white space is " ",
// and no cell is wider than any width; so wrapGeneral's tokens are runs
// of spaces and runs of other bytes, and its rows are slices of the text.
// wrapASCII takes wrapCells' steps on that ground without building cells,
// which is most of what wrapping an ASCII line costs. TestWrapASCII and
// FuzzWrapASCII hold it to wrapGeneral's rows and pads.

// asciiLen reports whether every byte of l is printable ASCII and, if it
// is, l's width: its length in bytes.
func asciiLen(l Line) (int, bool) {
	n := 0
	for _, sp := range l {
		for i := swar.PrintableRun(sp.Text, 0); i < len(sp.Text); i++ {
			if c := sp.Text[i]; c < 0x20 || c >= 0x7f {
				return 0, false
			}
		}
		n += len(sp.Text)
	}
	return n, true
}

// asciiRun is a run of an ASCII line's bytes in one style, from start to
// the next run's start.
type asciiRun struct {
	start int
	style Style
}

// asciiLine is an ASCII line as wrapASCII reads it: its text, joined, and
// its runs of one style, maximal (adjacent spans of one style are one run,
// as fromCells joins their cells) and not empty.
type asciiLine struct {
	text string
	runs []asciiRun
}

// newASCIILine reads l, n bytes of printable ASCII (n > 0), into runs,
// which it may append to.
func newASCIILine(l Line, n int, runs []asciiRun) asciiLine {
	at, only := 0, -1 // only: the one non-empty span, if just one
	for i, sp := range l {
		if sp.Text == "" {
			continue
		}
		if only == -1 {
			only = i
		} else {
			only = -2
		}
		if k := len(runs); k == 0 || runs[k-1].style != sp.Style {
			runs = append(runs, asciiRun{start: at, style: sp.Style})
		}
		at += len(sp.Text)
	}
	if only >= 0 {
		return asciiLine{text: l[only].Text, runs: runs}
	}
	b := make([]byte, 0, n)
	for _, sp := range l {
		b = append(b, sp.Text...)
	}
	return asciiLine{text: string(b), runs: runs}
}

// run is the index of the run holding byte i.
func (al *asciiLine) run(i int) int {
	if len(al.runs) == 1 { // most lines: the walk asks at every token
		return 0
	}
	return sort.Search(len(al.runs), func(k int) bool { return al.runs[k].start > i }) - 1
}

// styleAt is the style of byte i.
func (al *asciiLine) styleAt(i int) Style { return al.runs[al.run(i)].style }

// changes reports whether a style starts at byte i, i > 0: whether the
// style of byte i is not that of byte i-1.
func (al *asciiLine) changes(i int) bool { return al.runs[al.run(i)].start == i }

// changesIn reports whether a style starts at a byte of [a, b), 0 < a.
func (al *asciiLine) changesIn(a, b int) bool {
	if len(al.runs) == 1 { // its one run starts at 0
		return false
	}
	k := sort.Search(len(al.runs), func(k int) bool { return al.runs[k].start >= a })
	return k < len(al.runs) && al.runs[k].start < b
}

// row is the line of bytes [a, b): a span per run it meets (fromCells).
func (al *asciiLine) row(a, b int) Line {
	if a == b {
		return nil
	}
	first := al.run(a)
	last := first
	for last+1 < len(al.runs) && al.runs[last+1].start < b {
		last++
	}
	l := make(Line, 0, last-first+1)
	for k := first; k <= last; k++ {
		from, to := max(a, al.runs[k].start), b
		if k < last {
			to = al.runs[k+1].start
		}
		l = append(l, Span{Text: al.text[from:to], Style: al.runs[k].style})
	}
	return l
}

// wrapASCII is wrapGeneral of l, n bytes of printable ASCII, more than
// width (width ≥ 1). Its steps are wrapCells', each named as there.
func wrapASCII(l Line, n, width int) Wrapping {
	var runBuf [4]asciiRun
	al := newASCIILine(l, n, runBuf[:0])
	text := al.text
	out := Wrapping{Rows: make([]Line, 0, n/width+1), Pads: make([]Style, 0, n/width+1)}
	closed := al.runs[len(al.runs)-1].style == (Style{})
	// A line in one style, most of them, has rows of one span each: they
	// are cut from one list of spans, not made one by one.
	var spans []Span
	if len(al.runs) == 1 {
		spans = make([]Span, 0, n/width+1)
	}
	emit := func(a, b int, st Style, kept bool) {
		kept = kept || !closed && b == n
		for b > a && !kept && text[b-1] == ' ' {
			b--
			kept = b > a && al.changes(b)
		}
		if spans != nil && b > a {
			spans = append(spans, Span{Text: text[a:b], Style: al.runs[0].style})
			out.Rows = append(out.Rows, spans[len(spans)-1:len(spans):len(spans)])
		} else {
			out.Rows = append(out.Rows, al.row(a, b))
		}
		st.Attrs &^= Underline
		out.Pads = append(out.Pads, st)
	}
	walkASCII(&al, n, width, emit)
	return out
}

// countASCII is len(wrapASCII(l, n, width).Rows), without the rows.
func countASCII(l Line, n, width int) int {
	var runBuf [4]asciiRun
	al := newASCIILine(l, n, runBuf[:0])
	rows := 0
	walkASCII(&al, n, width, func(int, int, Style, bool) { rows++ })
	return rows
}

// nextSpace is the index of the first space in text[i:n], or n; eight
// bytes at a time while none of them is one (a word is most of a line).
func nextSpace(text string, i, n int) int {
	for i+8 <= n {
		if k, ok := swar.IndexByte(swar.Load(text[i:]), ' '); ok {
			return i + k
		}
		i += 8
	}
	for i < n && text[i] != ' ' {
		i++
	}
	return i
}

// walkASCII takes wrapASCII's steps on al, calling emit for each row as
// walkCells does.
func walkASCII(al *asciiLine, n, width int, emit func(a, b int, st Style, kept bool)) {
	text := al.text
	last := al.runs[len(al.runs)-1].style // the style of the last cell
	after := func(i int) Style {
		if i == n-1 {
			return Style{}
		}
		return al.styleAt(i)
	}
	a, b, curW, open, state := 0, 0, 0, false, Style{}
	for i := 0; i < n; {
		// The next token: a run of spaces or of other bytes, [ta, i).
		ta, isSpace := i, text[i] == ' '
		if !isSpace {
			i = nextSpace(text, i, n)
		}
		for i < n && (text[i] == ' ') == isSpace {
			i++
		}
		tw, space := i-ta, isSpace
		if space {
			// A style change in the run (an SGR sequence), or the
			// line's close after it, makes it no white space.
			switch {
			case ta == 0 && al.runs[0].style != (Style{}),
				al.changesIn(max(ta, 1), i),
				i == n && last != (Style{}):
				space = false
			}
		}
		if tw > width && !space {
			if open {
				emit(a, b, state, state.Attrs&Underline != 0)
			}
			a = ta
			for k := ta + width; k < i; k += width {
				st := al.styleAt(k)
				emit(a, k, st, al.changes(k) || st.Attrs&Underline != 0)
				a = k
			}
			b, curW, open, state = i, i-a, true, after(i-1)
			continue
		}
		if curW > 0 && curW+tw > width {
			emit(a, b, state, false)
			if space {
				a, b, curW, open = i, i, 0, state != (Style{})
				state = after(i - 1)
				continue
			}
			a, curW = ta, 0
		}
		b, curW, open = i, curW+tw, true
		state = after(i - 1)
	}
	if open {
		emit(a, b, Style{}, false)
	}
}
