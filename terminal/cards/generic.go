package cards

import (
	"strings"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/markdown"
)

// generic works out the layout of a generic card body (presenters.md
// §1.4 C, §1.6, §1.7) into lay: raw lines, or Markdown (genericRows).
func (r *Renderer) generic(v *GenericView, name string, lay *layout) {
	// The title row shows unless it only repeats the tool name (the
	// fallback's title is the escaped name); an empty Title is no title.
	var prelude []string
	if v.Title != "" && v.Title != display.Escape(name) {
		prelude = []string{display.EscapeInline(v.Title)}
	}
	escaped := make([]string, len(v.Lines))
	for i, l := range v.Lines {
		escaped[i] = display.Escape(l)
	}
	if !v.Raw {
		if src, ok := genericSource(prelude, escaped); ok {
			lay.markdown, lay.src = true, src
			return
		}
	}
	var lines []string
	for _, l := range escaped {
		lines = append(lines, strings.Split(l, "\n")...)
	}
	src := append(prelude, keptLines(len(prelude), lines)...)
	ls := make([]display.Line, len(src))
	for i, s := range src {
		ls[i] = display.TextLine(s, plain)
	}
	lay.lines = r.fold(ls)
}

// keptLines is lines less an empty one at the very first or very last row
// of title and lines together (a title, before them, always stays; titled
// says there is one).
func keptLines(titled int, lines []string) []string {
	total := titled + len(lines)
	kept := lines[:0]
	for i, l := range lines {
		if row := titled + i; l != "" || (row > 0 && row < total-1) {
			kept = append(kept, l)
		}
	}
	return kept
}

// genericSource is a Markdown body's source: the title (prelude), then
// the lines (escaped) as keptLines keeps them, joined. It is the one text
// the lines make, less the empty first or last row keptLines drops, so it
// is cut from that text, not split and joined again. It is false when no
// line is kept: such a body is drawn raw.
func genericSource(prelude, lines []string) (string, bool) {
	body := strings.Join(lines, "\n")
	n := 0 // the rows of body
	if len(lines) > 0 {
		n = strings.Count(body, "\n") + 1
	}
	kept := n
	switch {
	case n == 1 && body == "": // the one row, first or last
		kept = 0
	case n >= 2:
		start, end := 0, len(body)
		if len(prelude) == 0 && body[0] == '\n' { // an empty first row
			start, kept = 1, kept-1
		}
		if body[len(body)-1] == '\n' { // an empty last row
			end, kept = end-1, kept-1
		}
		if kept > 0 {
			body = body[start:end]
		}
	}
	if kept == 0 {
		return "", false
	}
	if len(prelude) > 0 {
		return prelude[0] + "\n" + body, true
	}
	return body, true
}

// genericRows lays a generic card's Markdown body out at the width,
// folded (presenters.md §1.6).
func (r *Renderer) genericRows(src string) []string {
	n := r.MaxLines
	head, tail := (n+1)/2, n/2
	if r.Tools == display.ToolsExpanded {
		head = -1
	}
	rows, total := r.Memo.Fold(src, plain, markdown.TextMode, r.Width, head, tail)
	out := make([]string, 0, min(len(rows), r.MaxLines+1))
	emit := func(row markdown.Row) {
		// The dim changes no text: an unstyled row goes without it.
		if !r.Palette.Styled() || strings.TrimSpace(row.Line.PlainText()) == "" {
			out = append(out, r.Palette.Padded(row.Line, r.Width, plain))
			return
		}
		l, pad := cardDim(row)
		out = append(out, r.Palette.Padded(l, r.Width, pad))
	}
	if head < 0 || total <= n {
		for _, row := range rows {
			emit(row)
		}
		return out
	}
	for _, row := range rows[:head] {
		emit(row)
	}
	out = append(out, r.text([]display.Line{foldMarker(total - n)})...)
	for _, row := range rows[head:] {
		emit(row)
	}
	return out
}

// cardDim wraps a Markdown row in a generic card's whole-row dim. The
// wrapper is outside Markdown's own styles, and the SGR that closes a bold
// or dim span (22) closes the wrapper's dim too: after such a span, the
// rest of the row, padding included, is not dim. A span still open at a
// soft wrap is not closed on that row. A fence row opens with a
// self-closed dim span, so nothing of it is dimmed by the wrapper.
func cardDim(row markdown.Row) (display.Line, display.Style) {
	l := mergeSpans(row.Line)
	active := !row.Closed
	out := make(display.Line, len(l))
	for i, sp := range l {
		own := sp.Style.Attrs
		if active {
			sp.Style = sp.Style.With(display.Dim)
		}
		out[i] = sp
		open := i == len(l)-1 && row.Pad != plain && row.Pad == withoutUnderline(l[i].Style)
		// A bold (or dim) span closes where the run of spans carrying it
		// ends: emphasis or code nested in bold keeps it open, and the
		// wrapper's dim with it.
		var next display.Attr
		if i+1 < len(l) {
			next = l[i+1].Style.Attrs
		}
		closes := own&display.Bold != 0 && next&display.Bold == 0 || own&display.Dim != 0 && next&display.Dim == 0
		if closes && !open {
			active = false
		}
	}
	pad := row.Pad
	if active {
		pad = pad.With(display.Dim)
	}
	return out, pad
}

func withoutUnderline(s display.Style) display.Style { s.Attrs &^= display.Underline; return s }

// mergeSpans joins adjacent spans of one style: one SGR run upstream.
func mergeSpans(l display.Line) display.Line {
	var out display.Line
	for _, sp := range l {
		if sp.Text == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Style == sp.Style {
			out[n-1].Text += sp.Text
			continue
		}
		out = append(out, sp)
	}
	return out
}
