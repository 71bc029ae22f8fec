package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// shownWidth is the width ShownText lays a body out at: wide enough that a
// paragraph rarely wraps, narrow enough that a rule stays short.
const shownWidth = 1024

// ShownText returns the text a prompt's (prompt) or an answer's Markdown
// body shows, as plain text in reading order: the rows the renderer draws
// for it, stretch by stretch, styling and layout aside. text is what the
// renderer is given, the Escape of the message's text.
//
// What a body shows is not its source. A link shows its text and its
// destination, a reference link the destination its definition gives, and
// the definition itself nothing; an image shows its alt text, a title
// nowhere. And a table's words cannot be read off the screen in order at
// all: its cells are laid out side by side, each wrapped within its own
// column, and a row's cells past the header's are not drawn (GFM), which
// is where a prompt's "[image]" goes when it follows a table row with no
// separator (terminal.md §2.1). So a top-level block that holds a table is
// left out, and the text before it and the text after it are two
// stretches. The invariants' text oracle looks for each stretch.
func ShownText(text string, prompt bool) []string {
	if drawnPlain(text) {
		return []string{text}
	}
	mode := TextMode
	if prompt {
		mode = PromptMode
	}
	src := []byte(text)
	doc := parse(src)
	m := &mdr{src: src, base: plain, mode: mode}
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if holdsTable(n) {
			flush()
			continue
		}
		for _, row := range rewrap(m.block(n, shownWidth), shownWidth) {
			b.WriteString(row.Line.PlainText())
			b.WriteByte('\n')
		}
	}
	flush()
	return out
}

// holdsTable reports whether a table is n or within it.
func holdsTable(n ast.Node) bool {
	found := false
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Kind() == east.KindTable {
			found = true
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}
