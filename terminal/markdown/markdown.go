package markdown

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/dshtest/dshtest/terminal/display"
)

// Markdown bodies (presenters.md §3). The text is parsed by goldmark
// (CommonMark with GFM tables, task items, strikethrough and bare
// autolinks); the rows are laid out by the rules below, which are
// upstream's terminal's (its Markdown component over marked), not
// goldmark's HTML:
//
//   - Blocks are emitted in order. Blank rows come only from a blank-line
//     run between blocks (exactly one row), a paragraph followed by
//     anything but a list, and a heading, code block, quote, table or rule
//     followed by anything. A list adds none.
//   - A soft line break inside a paragraph starts a new row (no reflow).
//   - A code block has an open row (its info string, dim, or empty), its
//     lines indented by two unstyled spaces in the code colour, and an
//     empty close row.
//   - Every row is wrapped at the width and padded; a row that wraps inside
//     a styled span keeps that style (less underline) on its padding.
//
// Everything is ANSI-16 foreground colours and attributes, as the palette.

// Mode selects the per-body options of presenters.md §3.1.
type Mode uint8

const (
	// TextMode is assistant text (and any other default-coloured body).
	TextMode Mode = iota
	// ReasoningMode is a reasoning body: dim italic text, code in the code
	// colour only.
	ReasoningMode
	// PromptMode is a You prompt: list markers and backslash escapes are kept
	// as written.
	PromptMode
)

// Row is one rendered Markdown row: its spans, the style of its padding,
// and whether it opens with a self-closed dim span (a fence row), which
// ends a generic card's whole-row dim (presenters.md §1.6).
type Row struct {
	Line   display.Line
	Pad    display.Style
	Closed bool
}

// mdParser is goldmark's parser with the GFM extensions upstream's lexer
// knows (tables, task items, bare autolinks) and a strict "~~" strike. A
// goldmark parser is safe for concurrent use once built.
var mdParser = newParser(extension.NewLinkify(
	extension.WithLinkifyURLRegexp(bareURL), extension.WithLinkifyWWWRegexp(bareWWW)))

// mdParserUnlinked is mdParser without the bare autolinks, for a text in
// which none can start (parse).
var mdParserUnlinked = newParser()

func newParser(links ...goldmark.Extender) parser.Parser {
	return goldmark.New(
		goldmark.WithExtensions(append([]goldmark.Extender{extension.Table, extension.TaskList}, links...)...),
		goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(strikeParser{}, 500)),
			parser.WithBlockParsers(util.Prioritized(wordTagBlock{}, 890))),
	).Parser()
}

// parse returns goldmark's tree of src. The bare autolinks' parser is
// asked at every space and line start, which is more than half the cost
// of parsing prose, so a text in which no bare autolink can start is
// parsed without it (parserOf).
func parse(src []byte) ast.Node {
	return parserOf(src).Parse(gtext.NewReader(src))
}

// parserOf returns the parser parse parses src with. The autolinks'
// parser finds a link only where goldmark asks it (linkStart) at a
// scheme's "://" (bareURL; goldmark asks for the scheme's prefix first),
// at "www." (its prefix, matched as written) or at an e-mail address's
// "@". Without it the tree is the same but for where its text segments
// are cut, which the layout never sees, with one exception: asked at
// every space, it lets all but the last of a line's trailing spaces into
// the line's text (goldmark trims only the segment after the last place
// a parser was asked at), so a line ending in two or more white-space
// bytes keeps the autolinks' parser too (TestParseUnlinked,
// FuzzParseUnlinked).
func parserOf(src []byte) parser.Parser {
	if bytes.IndexByte(src, '@') >= 0 || mayLinkAt(src, "://", linkSchemes) || mayLinkAt(src, "www.", nil) {
		return mdParser
	}
	for i := 0; ; {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		if end-i >= 2 && isBlankByte(src[end-1]) && isBlankByte(src[end-2]) {
			return mdParser
		}
		if end == len(src) {
			return mdParserUnlinked
		}
		i = end + 1
	}
}

// linkSchemes are bareURL's schemes, the longest first.
var linkSchemes = []string{"https", "http", "ftp"}

// mayLinkAt reports whether an autolink may start at an occurrence of
// mark in src: with schemes, at one of them right before it; without, at
// mark itself.
func mayLinkAt(src []byte, mark string, schemes []string) bool {
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte(mark))
		if k < 0 {
			return false
		}
		k += i
		i = k + 1
		start := k
		if schemes != nil {
			start = -1
			for _, s := range schemes {
				if bytes.HasSuffix(src[:k], []byte(s)) {
					start = k - len(s)
					break
				}
			}
			if start < 0 {
				continue // not a scheme bareURL knows
			}
		}
		if start == 0 || !linkNever[src[start-1]] {
			return true
		}
	}
}

// linkNever are the bytes after which goldmark never asks the autolinks'
// parser. It asks at white space and its triggers ("*", "_", "~", "("),
// looking past them; at the head of a block's line, after a container's
// marker (">", "|", a list item's space); and right after any inline node
// (a code span, a link, an autolink, raw HTML, an emphasis or strike
// delimiter, a task box), which ends in "`", ">", ")", "]", "*", "_" or
// "~". None of those is a letter, a digit, a byte of a multi-byte rune or
// one of ";=\"',.:/", so after one of these an autolink cannot start
// (an OSC 8 hyperlink's escaped "\x1b]8;;https://…" is the common case).
var linkNever = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 ||
			strings.IndexByte(";=\"',.:/", byte(c)) >= 0
	}
	return t
}()

// isBlankByte reports whether c is ASCII white space other than a line
// feed.
func isBlankByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// bareURL and bareWWW are marked's GFM extended autolinks (marked 18, the
// lexer of pi-tui's Markdown): a scheme or "www." and then any host of
// letters, digits and hyphens (an IP address, a name without a dot, a
// port), up to white space or "<"; goldmark's defaults want a dotted
// alphabetic TLD (presenters.md §5.3). Trailing punctuation is trimmed by
// goldmark's linkify.
var (
	bareURL = regexp.MustCompile(`^(?:https?|ftp)://[a-zA-Z0-9-][^\s<]*`)
	bareWWW = regexp.MustCompile(`^www\.[a-zA-Z0-9-][^\s<]*`)
)

// Rows lays out display-safe text as Markdown rows at width, in base
// style (a reasoning body is dim italic) and mode.
func Rows(text string, base display.Style, mode Mode, width int) []Row {
	return (*Memo)(nil).Rows(text, base, mode, width)
}

// Memo keeps what of the layout of the texts laid out through it does
// not depend on the width, for a text laid out again at another width: a
// renderer that draws an item at several sizes (repro's documents) judges
// each of its Markdown bodies plain or not, splits and measures a plain
// one's lines, and parses any other and works out its top-level
// paragraphs' inline runs, once; only the wrapping depends on the width.
// Reset it between items: it holds every text it laid out. A nil *Memo
// keeps nothing. A Memo is not safe for concurrent use.
type Memo struct {
	docs map[string]*memoDoc
}

// memoDoc is what of one text's layout does not depend on the width,
// worked out as it is first needed. Laying the text out reads it and
// never changes it.
type memoDoc struct {
	plain bool
	lines *plainText // plain: its lines
	src   []byte     // not plain: the source goldmark parsed, and its tree
	doc   ast.Node
	plans map[planKey][]planPiece // not plain: the fold's plans
	// pieces is the list parsedFold laid the last width out in, for the
	// next width to reuse: a long body's list was a fortieth of what repro
	// allocated, made again at each width.
	pieces []piece
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{docs: map[string]*memoDoc{}} }

// Reset forgets every text.
func (memo *Memo) Reset() {
	if memo != nil {
		clear(memo.docs)
	}
}

// lookup returns text's entry, judged plain or not once per Memo.
func (memo *Memo) lookup(text string) *memoDoc {
	if memo != nil {
		if d, ok := memo.docs[text]; ok {
			return d
		}
	}
	d := &memoDoc{plain: drawnPlain(text)}
	if memo != nil {
		memo.docs[text] = d
	}
	return d
}

// tree returns the source and goldmark's tree of d's text.
func (d *memoDoc) tree(text string) ([]byte, ast.Node) {
	if d.doc == nil {
		d.src = []byte(text)
		d.doc = parse(d.src)
	}
	return d.src, d.doc
}

// plainLines returns the lines of d's plain text.
func (d *memoDoc) plainLines(text string) *plainText {
	if d.lines == nil {
		d.lines = splitPlain(text)
	}
	return d.lines
}

// Rows is Rows, laying text out once for every width it is laid out at.
func (memo *Memo) Rows(text string, base display.Style, mode Mode, width int) []Row {
	d := memo.lookup(text)
	if d.plain {
		rows, _ := plainRows(d.plainLines(text), base, width, -1, 0)
		return rows
	}
	return d.parsedMarkdown(text, base, mode, width)
}

// Fold is Rows for a body that folds to its first head and
// last tail rows when it has more than head+tail: it returns those rows
// only (all of them when there are no more) and the number of rows of the
// whole body. Plain text wraps only the rows it keeps. A negative head
// keeps every row.
func Fold(text string, base display.Style, mode Mode, width, head, tail int) ([]Row, int) {
	return (*Memo)(nil).Fold(text, base, mode, width, head, tail)
}

// Fold is Fold, laying text out once for every width it is laid out at.
func (memo *Memo) Fold(text string, base display.Style, mode Mode, width, head, tail int) ([]Row, int) {
	d := memo.lookup(text)
	if d.plain {
		return plainRows(d.plainLines(text), base, width, head, tail)
	}
	if head < 0 || tail < 0 {
		rows := d.parsedMarkdown(text, base, mode, width)
		return rows, len(rows)
	}
	return d.parsedFold(text, base, mode, width, head, tail)
}

// parsedMarkdown is Rows through goldmark's tree: its blocks' rows
// (mdr.blocks) laid out from the fold's plan, so that a top-level
// paragraph's inline runs are worked out once for every width (plan).
// A prefix (a bullet, a quote bar, a nested list's indent) or a table can
// outgrow a very narrow width: such a row is wrapped again.
func (d *memoDoc) parsedMarkdown(text string, base display.Style, mode Mode, width int) []Row {
	src, doc := d.tree(text)
	m := &mdr{src: src, base: base, mode: mode}
	width = max(width, 1)
	var rows []Row
	for _, pc := range d.plan(m, doc) {
		switch {
		case pc.blank:
			rows = append(rows, Row{})
		case pc.node != nil:
			rows = append(rows, rewrap(m.block(pc.node, width), width)...)
		default:
			rows = pc.measure.appendLayout(rows, pc.line, width)
		}
	}
	return rows
}

// mdr renders one document.
type mdr struct {
	src  []byte
	base display.Style
	mode Mode
	// depth is how many quotes and list items hold the blocks drawn.
	depth int
}

// maxNest is the deepest a quote or a list item draws its bar, bullet or
// indent. Each level prefixes every row of the levels inside it, so a
// body of thousands of nested quotes ("> > > …", which no renderer draws
// usefully: pi-tui's recursive lexer runs out of stack) would cost the
// square of its depth; past maxNest the blocks inside are drawn as they
// are, unprefixed.
const maxNest = 32

// deeper is m one quote or list item further in.
func (m *mdr) deeper() *mdr {
	c := *m
	c.depth++
	return &c
}

// The styles of the layout besides the body's base: plain text, the dim
// fence label, and code.
var (
	plain  = display.Style{}
	dimSty = display.Style{Attrs: display.Dim}
)

// code is the style of inline and block code: the code colour alone, even
// inside reasoning (presenters.md §3.3, §3.4).
var mdCode = display.Style{Fg: display.FgCode}

// codeStyle is the style of inline code inside st: the code colour and the
// attributes of the emphasis around it, less those the body's own style
// closes before the code (presenters.md §5.8): pi-tui wraps emphasis
// around its children but applies the body style to each text, so a dim
// body's close (22) ends bold and dim, an italic body's (23) italic. In
// assistant text, code inside bold is bold; in reasoning it is the code
// colour (and strike) only.
func (m *mdr) codeStyle(st display.Style) display.Style {
	a := st.Attrs
	if m.base.Attrs&display.Dim != 0 {
		a &^= display.Bold | display.Dim
	}
	if m.base.Attrs&display.Italic != 0 {
		a &^= display.Italic
	}
	return display.Style{Fg: display.FgCode, Attrs: a}
}

// blocks renders the block children of parent with the spacing rule.
func (m *mdr) blocks(parent ast.Node, width int) []Row {
	var rows []Row
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if prev := n.PreviousSibling(); prev != nil {
			if m.blankBefore(n) || spacedAfter(prev, n) {
				rows = append(rows, Row{})
			}
		}
		rows = append(rows, m.block(n, width)...)
	}
	return rows
}

// blankBefore reports whether a blank-line run separates n from the block
// before it (upstream's "space" token).
func (m *mdr) blankBefore(n ast.Node) bool {
	if n.Kind() == east.KindTable {
		// goldmark's table replaces the paragraph it was read from and
		// loses its blank-line flag: read the source line before it.
		return m.blankLineBefore(firstSegment(n))
	}
	return n.HasBlankPreviousLines()
}

// blankLineBefore reports whether the source line before the one holding
// offset pos is blank.
func (m *mdr) blankLineBefore(pos int) bool {
	if pos <= 0 {
		return false
	}
	ls := pos
	for ls > 0 && m.src[ls-1] != '\n' {
		ls--
	}
	if ls == 0 {
		return false
	}
	ps := ls - 1
	for ps > 0 && m.src[ps-1] != '\n' {
		ps--
	}
	return strings.TrimSpace(string(m.src[ps:ls-1])) == ""
}

// spacedAfter reports whether prev, followed by n without a blank line,
// gets a blank row after it.
func spacedAfter(prev, n ast.Node) bool {
	switch prev.Kind() {
	case ast.KindParagraph, ast.KindTextBlock:
		return n.Kind() != ast.KindList
	case ast.KindHeading, ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindBlockquote,
		ast.KindThematicBreak, east.KindTable:
		return true
	}
	return false
}

func (m *mdr) block(n ast.Node, width int) []Row {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return m.wrapAll(m.inlines(n, m.base), width)
	case *ast.Heading:
		st := display.Style{Fg: display.FgAccent, Attrs: m.base.Attrs | display.Bold}
		var prefix display.Line
		switch {
		case n.Level == 1:
			st.Attrs |= display.Underline
		case n.Level >= 3:
			prefix = display.TextLine(strings.Repeat("#", n.Level)+" ", st)
		}
		lines := m.inlines(n, st)
		if len(lines) == 0 {
			lines = []display.Line{nil}
		}
		lines[0] = append(prefix, lines[0]...)
		for i := range lines {
			lines[i] = overrideLine(lines[i], st)
		}
		return m.wrapAll(lines, width)
	case *ast.FencedCodeBlock:
		lang := ""
		if n.Info != nil {
			lang = strings.TrimSpace(string(n.Info.Segment.Value(m.src)))
		}
		code := m.rawLines(n)
		if n.NextSibling() == nil && len(code) > 0 {
			if t := strings.TrimSpace(code[len(code)-1]); t == "`" || t == "``" {
				code = code[:len(code)-1] // a partial closing fence
			}
		}
		return m.codeRows(lang, code, width)
	case *ast.CodeBlock:
		return m.codeRows("", append(m.rawLines(n), ""), width)
	case *ast.Blockquote:
		inner := &mdr{src: m.src, base: m.base.With(display.Dim | display.Italic), mode: m.mode, depth: m.depth + 1}
		if m.depth >= maxNest {
			return inner.blocks(n, width)
		}
		rows := inner.blocks(n, max(width-2, 1))
		bar := display.Span{Text: "│ ", Style: display.Style{Fg: display.FgAccent}}
		for i := range rows {
			rows[i].Line = append(display.Line{bar}, rows[i].Line...)
			rows[i].Closed = false
		}
		return rows
	case *ast.List:
		return m.list(n, width)
	case *ast.ThematicBreak:
		return []Row{{Line: display.TextLine(strings.Repeat("─", min(width, 80)), m.base.With(display.Dim))}}
	case *east.Table:
		return m.table(n, width)
	case *ast.HTMLBlock:
		var b strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			b.Write(seg.Value(m.src))
		}
		if n.HasClosure() {
			b.Write(n.ClosureLine.Value(m.src))
		}
		var lines []display.Line
		for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			lines = append(lines, display.TextLine(l, m.base))
		}
		return m.wrapAll(lines, width)
	}
	// Anything else (a link reference definition leaves nothing): its
	// blocks, if any.
	if n.Type() == ast.TypeBlock && n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
		return m.blocks(n, width)
	}
	return nil
}

// rawLines returns a code block's source lines, without their newlines.
func (m *mdr) rawLines(n ast.Node) []string {
	var out []string
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		out = append(out, strings.TrimSuffix(string(seg.Value(m.src)), "\n"))
	}
	return out
}

// codeRows is a code block: the open row, the code lines and the close row.
func (m *mdr) codeRows(lang string, code []string, width int) []Row {
	rows := []Row{{Line: display.TextLine(lang, dimSty), Closed: true}}
	for _, c := range code {
		l := display.Line{{Text: "  ", Style: plain}}
		if c != "" {
			l = append(l, display.Span{Text: c, Style: mdCode})
		}
		rows = appendWrapPad(rows, l, width)
	}
	return append(rows, Row{Closed: true})
}

// list renders a list, m.depth quotes and list items in. Past maxNest it
// draws no bullet and no indent: its items' blocks as they are.
func (m *mdr) list(n *ast.List, width int) []Row {
	drawn := m.depth < maxNest
	in := m.deeper()
	var rows []Row
	num := n.Start
	bulletSty := display.Style{Fg: display.FgAccent}
	indentW := 4 // a nested list's indent
	if !drawn {
		indentW = 0
	}
	i := 0
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		if i > 0 && !n.IsTight {
			rows = append(rows, Row{})
		}
		marker := ""
		if drawn {
			marker = "- "
			switch {
			case m.mode == PromptMode:
				marker = m.originalMarker(n, it) + " "
			case n.IsOrdered():
				marker = strconv.Itoa(num+i) + ". "
			}
			marker += taskBox(it)
		}
		mw := display.TextWidth(marker)
		var body []Row
		var nested []bool // rows of a nested list, indented on their own
		for c := it.FirstChild(); c != nil; c = c.NextSibling() {
			// Inside an item only a blank line between its blocks is a
			// blank row: pi-tui renders an item's blocks with no next
			// block to space from (markdown.js renderList).
			if prev := c.PreviousSibling(); prev != nil && m.blankBefore(c) {
				body, nested = append(body, Row{}), append(nested, false)
			}
			if sub, ok := c.(*ast.List); ok {
				for _, r := range in.list(sub, max(width-indentW, 1)) {
					if drawn {
						r.Line = append(display.Line{{Text: "    ", Style: plain}}, r.Line...)
					}
					body, nested = append(body, r), append(nested, true)
				}
				continue
			}
			for _, r := range in.block(c, max(width-mw, 1)) {
				body, nested = append(body, r), append(nested, false)
			}
		}
		if len(body) == 0 {
			body, nested = []Row{{}}, []bool{false}
		}
		for k := range body {
			switch {
			case mw == 0:
			case k == 0 && !nested[k]:
				body[k].Line = append(display.Line{{Text: marker, Style: bulletSty}}, body[k].Line...)
			case !nested[k]:
				body[k].Line = append(display.Line{{Text: strings.Repeat(" ", mw), Style: plain}}, body[k].Line...)
			}
			body[k].Closed = false
		}
		rows = append(rows, body...)
		i++
	}
	return rows
}

// originalMarker is a list item's marker as written (a You prompt keeps
// it): the bullet character, or the number and its delimiter.
func (m *mdr) originalMarker(n *ast.List, it ast.Node) string {
	if !n.IsOrdered() {
		return string(n.Marker)
	}
	if start := firstSegment(it); start > 0 {
		ls := start
		for ls > 0 && m.src[ls-1] != '\n' {
			ls--
		}
		t := strings.TrimSpace(string(m.src[ls:start]))
		if t = strings.TrimPrefix(strings.TrimPrefix(t, "[ ]"), "[x]"); t != "" {
			if f := strings.Fields(t); len(f) > 0 {
				return f[len(f)-1]
			}
		}
	}
	return strconv.Itoa(n.Start) + string(n.Marker)
}

// firstSegment is the source offset of the first text under n, or -1.
func firstSegment(n ast.Node) int {
	found := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if t, ok := c.(*ast.Text); ok {
			found = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

// taskBox is a task item's "[ ] " or "[x] ". The box stays in the tree,
// which a Memo lays out again at another width: its node draws nothing.
func taskBox(it ast.Node) string {
	first := it.FirstChild()
	if first == nil {
		return ""
	}
	box, ok := first.FirstChild().(*east.TaskCheckBox)
	if !ok {
		return ""
	}
	if box.IsChecked {
		return "[x] "
	}
	return "[ ] "
}

// inlines renders the inline children of a block as logical lines (one per
// source line of a paragraph).
func (m *mdr) inlines(n ast.Node, base display.Style) []display.Line {
	w := &inlineWriter{m: m, lines: []display.Line{nil}}
	keepIndent := n.Parent() != nil && n.Parent().Kind() == ast.KindDocument
	w.keepIndent = keepIndent
	w.children(n, base)
	w.flush()
	return w.lines
}

// inlineWriter accumulates the logical lines of one block's inlines.
type inlineWriter struct {
	m          *mdr
	lines      []display.Line
	keepIndent bool
	newLine    bool // the next text starts a line after a soft or hard break
	// tail is the text of the last span of the last line while text of
	// its style is added to it (tailed), put in the span by flush: adding
	// to the span's string copied it each time, and a paragraph of 100k
	// emphasis delimiters, each its own text, took seconds.
	tail   []byte
	tailed bool
}

func (w *inlineWriter) add(text string, st display.Style) {
	if text == "" {
		return
	}
	i := len(w.lines) - 1
	if n := len(w.lines[i]); n > 0 && w.lines[i][n-1].Style == st {
		if !w.tailed {
			w.tail, w.tailed = append(w.tail[:0], w.lines[i][n-1].Text...), true
		}
		w.tail = append(w.tail, text...)
		return
	}
	w.flush()
	w.lines[i] = append(w.lines[i], display.Span{Text: text, Style: st})
}

// flush puts the tail's text in its span: before w.lines is read or a
// line is broken.
func (w *inlineWriter) flush() {
	if w.tailed {
		l := w.lines[len(w.lines)-1]
		l[len(l)-1].Text = string(w.tail)
		w.tailed = false
	}
}

func (w *inlineWriter) breakLine() {
	w.flush()
	w.lines = append(w.lines, nil)
	w.newLine = true
}

func (w *inlineWriter) children(n ast.Node, st display.Style) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.inline(c, st)
	}
}

func (w *inlineWriter) inline(n ast.Node, st display.Style) {
	m := w.m
	switch n := n.(type) {
	case *ast.Text:
		if w.newLine && w.keepIndent {
			// A continuation line keeps its leading spaces, as upstream's
			// lexer keeps the paragraph's raw text.
			s := n.Segment.Start
			for s > 0 && (m.src[s-1] == ' ' || m.src[s-1] == '\t') {
				s--
			}
			if s == 0 || m.src[s-1] == '\n' {
				w.add(string(m.src[s:n.Segment.Start]), st)
			}
		}
		w.newLine = false
		v := n.Segment.Value(m.src)
		if next, ok := n.NextSibling().(*ast.Text); ok && next.HardLineBreak() && len(next.Segment.Value(m.src)) == 0 {
			// goldmark leaves some of the four or more spaces of a hard
			// break in the text before it; a break drops them all, as
			// upstream's lexer does (and goldmark with two or three).
			v = bytes.TrimRight(v, " ")
		}
		w.add(m.textValue(v), st)
		if n.SoftLineBreak() || n.HardLineBreak() {
			w.breakLine()
		}
	case *ast.String:
		w.newLine = false
		w.add(m.textValue(n.Value), st)
	case *ast.CodeSpan:
		w.newLine = false
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(m.src))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		// A line ending inside a code span is a space (CommonMark).
		w.add(strings.ReplaceAll(b.String(), "\n", " "), m.codeStyle(st))
	case *ast.Emphasis:
		a := display.Italic
		if n.Level >= 2 {
			a = display.Bold
		}
		w.children(n, st.With(a))
	case *strikeNode:
		w.children(n, st.With(display.Strike))
	case *ast.Link:
		w.link(n, string(n.Destination), st)
	case *ast.AutoLink:
		// A link keeps the body's attributes (a reasoning link is dim
		// italic too): pi-tui renders it inside the body's style.
		w.add(string(n.Label(m.src)), display.Style{Fg: display.FgAccent, Attrs: st.Attrs | display.Underline})
	case *ast.Image:
		w.children(n, st)
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			for j, part := range strings.Split(string(seg.Value(m.src)), "\n") {
				if j > 0 {
					w.breakLine()
				}
				w.add(part, m.base)
			}
		}
		w.newLine = false
	default:
		w.children(n, st)
	}
}

// link renders a link: its text accented and underlined, then " (url)" in
// dim when the text is not the URL itself.
func (w *inlineWriter) link(n *ast.Link, url string, st display.Style) {
	linkSty := display.Style{Fg: display.FgAccent, Attrs: display.Underline}
	w.flush()
	start := len(w.lines)
	from := len(w.lines[start-1])
	w.children(n, linkSty)
	w.flush()
	var text strings.Builder
	for i := start - 1; i < len(w.lines); i++ {
		l := w.lines[i]
		if i == start-1 {
			l = l[from:]
		}
		for k := range l {
			l[k].Style = display.Style{Fg: display.FgAccent, Attrs: l[k].Style.Attrs | display.Underline}
		}
		text.WriteString(l.PlainText())
	}
	if text.String() != url && "mailto:"+text.String() != url {
		w.add(" ("+url+")", st.With(display.Dim))
	}
}

// textValue is a text segment's display: backslash escapes of ASCII
// punctuation resolved, except in a You prompt (preserveBackslashEscapes).
// Entities stay literal, as upstream's lexer keeps the raw text.
func (m *mdr) textValue(b []byte) string {
	s := string(b)
	if m.mode == PromptMode || !strings.Contains(s, `\`) {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]) {
			i++
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// overrideLine gives every span of l the colour and attributes of st,
// keeping the span's own attributes (a heading's inline code is accented).
func overrideLine(l display.Line, st display.Style) display.Line {
	for i := range l {
		l[i].Style = display.Style{Fg: st.Fg, Attrs: l[i].Style.Attrs | st.Attrs}
	}
	return l
}

func (m *mdr) wrapAll(lines []display.Line, width int) []Row {
	var rows []Row
	for _, l := range lines {
		rows = appendWrapPad(rows, l, width)
	}
	return rows
}

// wrapPad wraps one logical line into rows, each with its padding style:
// a row broken inside a styled span keeps that span's style (less
// underline, which is closed at the row end); the last row's padding is
// plain (presenters.md §3.6, display.Wrap).
func wrapPad(l display.Line, width int) []Row { return appendWrapPad(nil, l, width) }

// appendWrapPad appends wrapPad(l, width) to rows (lineMeasure.appendWrap:
// a line that fits is appended as its row).
func appendWrapPad(rows []Row, l display.Line, width int) []Row {
	return lineMeasure{width: l.Width()}.appendWrap(rows, l, width)
}
