package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"

	"github.com/dshtest/dshtest/terminal/display"
)

// Plain Markdown: text in which no Markdown construct can start is laid out
// without goldmark. Most tool output and much prose is such text, and
// parsing it is most of a card's cost. The layout is the one goldmark's
// tree gives such text (markdown.go): every non-blank line, less its
// trailing spaces (a line break drops them, hard or soft), is a paragraph
// line of one span in the base style, wrapped and padded; a run of blank
// lines between two lines is one blank row; blank lines before the first
// and after the last line leave nothing. FuzzPlainMarkdown compares the two
// paths.

// lineStarts are the ASCII punctuation a plain line may start with: none
// of them opens a block (CommonMark, GFM's tables and task items) or,
// there, an inline construct.
const lineStarts = "[]{}()\"'/.,;:$%?"

// plainMarkdown reports whether text is plain: a cheap, deliberately
// conservative scan. A false "plain" would change the output; a false "not
// plain" only costs a parse. Every line, unless empty, must start with an
// ASCII letter, a non-ASCII byte, a backslash (checked below), one of
// lineStarts or a run of digits not followed by "." or ")" (an ordered
// list marker). No line may hold a control byte, a tab, any of *`<>|!&@
// (emphasis, code, images, HTML, autolinks, tables, entities and e-mail
// addresses), a run of exactly two "~" (a strike; any other run is
// literal), a "_" but between two letters or digits (where it can
// neither open nor close emphasis), a ":" after "]" (a link definition) or
// before "//" (a URL), "](" or "][" (a link), a backslash but before a
// letter or digit (an escape or a hard break) or "www." (a bare link).
// Block markers (#, >, -, +, =, indentation) can only start a line, and a
// line starts with none of them. A "[" is literal where no link definition
// can exist, and none can without a "]:".
func plainMarkdown(text string) bool {
	start := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !start && plainQuiet[c] {
			continue
		}
		if c == '\n' {
			start = true
			continue
		}
		if start {
			start = false
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= 0x80, c == '\\',
				strings.IndexByte(lineStarts, c) >= 0:
			case c >= '0' && c <= '9':
				j := i
				for j < len(text) && text[j] >= '0' && text[j] <= '9' {
					j++
				}
				if j < len(text) && (text[j] == '.' || text[j] == ')') {
					return false
				}
			default:
				return false
			}
		}
		switch c {
		case '*', '`', '<', '>', '|', '!', '&', '@', 0x7f:
			return false
		case '~':
			// Only a run of exactly two strikes (strike.go); a
			// line cannot open with one (a fence).
			j := i + 1
			for j < len(text) && text[j] == '~' {
				j++
			}
			if j-i == 2 {
				return false
			}
			i = j - 1
		case ':':
			// A colon means something only in a link definition ("]:")
			// and a bare URL ("http://", which Linkify turns into a link).
			if i > 0 && text[i-1] == ']' || strings.HasPrefix(text[i+1:], "//") {
				return false
			}
		case '_':
			// A run of underscores between two letters or digits can
			// neither open nor close emphasis (CommonMark's flanking
			// rules): it is literal, as in snake_case.
			j := i + 1
			for j < len(text) && text[j] == '_' {
				j++
			}
			if !wordRune(utf8.DecodeLastRuneInString(text[:i])) || !wordRune(utf8.DecodeRuneInString(text[j:])) {
				return false
			}
			i = j - 1
		case '\\':
			// Escapes only ASCII punctuation; before a line end it is a
			// hard break. The escaper's \x1b and \u200b are literal.
			if i+1 == len(text) || !isAlnum(text[i+1]) {
				return false
			}
		case ']':
			// Brackets are literal text unless a link follows ("](",
			// "][") or a definition exists, and no line starts with one.
			if i+1 < len(text) && (text[i+1] == '(' || text[i+1] == '[') {
				return false
			}
		case 'w', 'W':
			if i+4 <= len(text) && strings.EqualFold(text[i:i+4], "www.") {
				return false
			}
		}
		if c < 0x20 {
			return false
		}
	}
	return true
}

// plainLoud are the bytes plainMarkdown looks at inside a line: the line
// break, control bytes and those its switch names. Any other byte it
// passes over (plainQuiet), which is most of a text.
const plainLoud = "\n*`<>|!&@\x7f~:_\\]wW"

var plainQuiet = func() (q [256]bool) {
	for c := range q {
		q[c] = c >= 0x20 && strings.IndexByte(plainLoud, byte(c)) < 0
	}
	return q
}()

// plainText is a plain text's lines, less their trailing spaces (a line
// break drops them) and the blank lines before the first and after the
// last (they leave nothing), with what a fold measures of each.
type plainText struct {
	lines    []string
	measured bool
	measures []lineMeasure
}

// splitPlain splits plain text into its lines.
func splitPlain(text string) *plainText {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	first, last := 0, len(lines)
	for first < last && lines[first] == "" {
		first++
	}
	for last > first && lines[last-1] == "" {
		last--
	}
	return &plainText{lines: lines[first:last]}
}

// measure measures every line once.
func (p *plainText) measure() {
	if p.measured {
		return
	}
	p.measured = true
	p.measures = make([]lineMeasure, len(p.lines))
	for i, l := range p.lines {
		p.measures[i] = measureLine(display.Line{{Text: l}}) // a style changes no measure
	}
}

// lineMeasure is what a fold measures of a paragraph line once, for every
// width: its width, and whether its rows can be counted without building
// them (lineMeasure.rows).
type lineMeasure struct {
	width int
	// counted: the line is printable ASCII or simple text
	// (display.Simple), so its rows are wrapPad's, which no re-wrap
	// changes: an ASCII row is never wider than the width, nor is a
	// simple one, which is as wide as its runes.
	counted bool
}

// measureLine measures l.
func measureLine(l display.Line) lineMeasure {
	if display.PrintableASCII(l) {
		n := 0
		for _, sp := range l {
			n += len(sp.Text)
		}
		return lineMeasure{width: n, counted: true}
	}
	return lineMeasure{width: l.Width(), counted: simpleLine(l)}
}

// fits reports whether a line measured m is its one row at width: the
// rule of every layout here that takes such a line as it is.
func (m lineMeasure) fits(width int) bool { return m.width <= max(width, 1) }

// rows is the number of rows l, measured m, makes at width (≥ 1), and
// true, when that can be told without building them: when l fits
// (WrapLine keeps it whole) or m.counted. Otherwise the fold builds
// them.
func (m lineMeasure) rows(l display.Line, width int) (int, bool) {
	switch {
	case m.fits(width):
		return 1, true
	case m.counted:
		return display.RowCountMeasured(l, m.width, width), true
	}
	return 0, false
}

// appendWrap appends l's rows at width as wrapPad lays them out, l
// measured m, to rows: its width is not measured again, and a line that
// fits, most of them, is appended as its one row with no padding style
// (display.Wrap's), with no Wrapping made for it.
func (m lineMeasure) appendWrap(rows []Row, l display.Line, width int) []Row {
	if m.fits(width) {
		return append(rows, Row{Line: l})
	}
	w := display.WrapMeasured(l, m.width, width)
	for i := range w.Rows {
		rows = append(rows, Row{Line: w.Rows[i], Pad: w.Pads[i]})
	}
	return rows
}

// appendLayout appends l's rows at width as markdown lays a paragraph line
// out (wrap, then rewrap), l measured m, to rows: a line that fits, or a
// counted one, whose rows never outgrow the width, is not measured again
// either.
func (m lineMeasure) appendLayout(rows []Row, l display.Line, width int) []Row {
	if m.counted || m.fits(width) {
		return m.appendWrap(rows, l, width)
	}
	return append(rows, rewrap(m.appendWrap(nil, l, width), width)...)
}

// plainRows lays out plain text (plainMarkdown) at width. With head >= 0
// it builds only the rows a fold keeps, the first head and the last tail,
// and counts the others; total is the number of rows of the whole layout.
// When total <= head+tail every row is built.
func plainRows(p *plainText, base display.Style, width, head, tail int) (rows []Row, total int) {
	width = max(width, 1)
	lines := p.lines
	p.measure()
	// A line that fits is one row of one span: the spans of those rows
	// are cut from one list (fitting).
	var spans []display.Span
	fitting := func(i int) (Row, bool) {
		if !p.measures[i].fits(width) {
			return Row{}, false
		}
		spans = append(spans, display.Span{Text: lines[i], Style: base})
		return Row{Line: spans[len(spans)-1 : len(spans) : len(spans)]}, true
	}
	if head < 0 || tail < 0 {
		if len(lines) > 0 {
			rows = make([]Row, 0, len(lines))
			spans = make([]display.Span, 0, len(lines))
		}
		for i, l := range lines {
			if l == "" {
				if lines[i-1] != "" {
					rows = append(rows, Row{})
				}
				continue
			}
			if row, ok := fitting(i); ok {
				rows = append(rows, row)
				continue
			}
			rows = p.measures[i].appendLayout(rows, display.TextLine(l, base), width)
		}
		return rows, len(rows)
	}
	// First pass: each line's row count. A line whose rows can be counted
	// (lineMeasure.rows) is counted without building them; any other is
	// built once and kept.
	counts := make([]int, len(lines))
	built := make(map[int][]Row)
	for i, l := range lines {
		if l == "" {
			if lines[i-1] != "" {
				counts[i] = 1
			}
		} else if n, ok := p.measures[i].rows(display.TextLine(l, base), width); ok {
			counts[i] = n
		} else {
			built[i] = p.measures[i].appendLayout(nil, display.TextLine(l, base), width)
			counts[i] = len(built[i])
		}
		total += counts[i]
	}
	// Second pass: the rows of the lines that reach the kept ranges.
	keep := func(k int) bool { return k < head || k >= total-tail }
	if n := min(total, head+tail); n > 0 {
		rows = make([]Row, 0, n)
		spans = make([]display.Span, 0, n)
	}
	k := 0
	for i, l := range lines {
		n := counts[i]
		if n == 0 {
			continue
		}
		if !keep(k) && !keep(k+n-1) { // rows k…k+n-1, all between the kept ends
			k += n
			continue
		}
		var lr []Row
		switch {
		case l == "":
			lr = []Row{{}}
		case built[i] != nil:
			lr = built[i]
		default:
			if row, ok := fitting(i); ok { // n is 1, and that row is kept
				rows = append(rows, row)
				k++
				continue
			}
			lr = p.measures[i].appendLayout(nil, display.TextLine(l, base), width)
		}
		for j, row := range lr {
			if keep(k + j) {
				rows = append(rows, row)
			}
		}
		k += n
	}
	return rows, total
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// piece is a run of a folded body's rows: rows already built, or one
// paragraph line of the document's top level not yet wrapped, whose n
// rows were counted (lineMeasure.rows).
type piece struct {
	rows    []Row
	lazy    display.Line
	measure lineMeasure // lazy's
	n       int
}

// planKey is what a fold's plan depends on besides the text.
type planKey struct {
	base display.Style
	mode Mode
}

// planPiece is one step of a fold's plan, the part of parsedFold that
// does not depend on the width: a blank row between two blocks, a
// top-level paragraph line with its measure, or any other top-level
// block.
type planPiece struct {
	blank   bool
	line    display.Line
	measure lineMeasure
	node    ast.Node
}

// plan returns the fold's plan of d's document in base style and mode,
// worked out once.
func (d *memoDoc) plan(m *mdr, doc ast.Node) []planPiece {
	key := planKey{m.base, m.mode}
	if p, ok := d.plans[key]; ok {
		return p
	}
	var plan []planPiece
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if prev := n.PreviousSibling(); prev != nil && (m.blankBefore(n) || spacedAfter(prev, n)) {
			plan = append(plan, planPiece{blank: true})
		}
		switch n.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			for _, l := range m.inlines(n, m.base) {
				plan = append(plan, planPiece{line: l, measure: measureLine(l)})
			}
		default:
			plan = append(plan, planPiece{node: n})
		}
	}
	if d.plans == nil {
		d.plans = map[planKey][]planPiece{}
	}
	d.plans[key] = plan
	return plan
}

// parsedFold is Fold through goldmark's tree. It lays out the
// document's blocks as markdown does, except that a top-level paragraph's
// lines whose rows can be counted (lineMeasure.rows) are only counted, and
// wrapped only when a row of theirs is kept.
func (d *memoDoc) parsedFold(text string, base display.Style, mode Mode, width, head, tail int) ([]Row, int) {
	src, doc := d.tree(text)
	m := &mdr{src: src, base: base, mode: mode}
	width = max(width, 1)
	pieces := d.pieces[:0] // the list of the last width, reused
	defer func() { d.pieces = pieces }()
	total := 0
	add := func(rows []Row) {
		rows = rewrap(rows, width)
		pieces = append(pieces, piece{rows: rows, n: len(rows)})
		total += len(rows)
	}
	for _, pc := range d.plan(m, doc) {
		switch {
		case pc.blank:
			add([]Row{{}})
		case pc.node != nil:
			add(m.block(pc.node, width))
		default:
			if c, ok := pc.measure.rows(pc.line, width); ok {
				pieces = append(pieces, piece{lazy: pc.line, measure: pc.measure, n: c})
				total += c
			} else {
				add(pc.measure.appendWrap(nil, pc.line, width))
			}
		}
	}
	var rows []Row
	k := 0
	for _, p := range pieces {
		if p.n == 0 || (k >= head && k+p.n-1 < total-tail && total > head+tail) {
			k += p.n
			continue
		}
		pr := p.rows
		if pr == nil {
			var one [1]Row // a line that fits makes no list of its own
			pr = p.measure.appendWrap(one[:0], p.lazy, width)
		}
		for j, row := range pr {
			if i := k + j; i < head || i >= total-tail || total <= head+tail {
				rows = append(rows, row)
			}
		}
		k += p.n
	}
	return rows, total
}

// simpleLine reports whether every span of l is display.Simple.
func simpleLine(l display.Line) bool {
	for _, sp := range l {
		if !display.Simple(sp.Text) {
			return false
		}
	}
	return true
}

// rewrap wraps again a row that outgrows the width (a prefix or a table
// can, at a very narrow width).
func rewrap(rows []Row, width int) []Row {
	for i := 0; i < len(rows); i++ {
		if rows[i].Line.Width() > width {
			again := wrapPad(rows[i].Line, width)
			rows = append(rows[:i], append(again, rows[i+1:]...)...)
			i += len(again) - 1
		}
	}
	return rows
}

// wordRune reports whether r, decoded with size n, is a letter or a digit.
func wordRune(r rune, n int) bool {
	return n > 0 && r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
