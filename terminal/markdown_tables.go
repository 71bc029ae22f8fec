package terminal

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	gtext "github.com/yuin/goldmark/text"
)

// MarkdownTables returns the byte ranges of the GFM tables in a
// display-safe Markdown body (DisplayText of a prompt or an answer), as the
// renderer parses it: each from its header row's first byte to the end of
// its last row's line.
//
// What a table shows cannot be read off its text in order. Its cells are
// laid out side by side, each wrapped within its own column, so one row's
// words interleave on screen; and a row's cells past the header's count
// are not drawn at all (GFM), so a block that follows a table row with no
// separator, such as a prompt's "[image]" (terminal.md §2.1), joins the
// row as a cell and is dropped. The invariants' text oracle leaves these
// ranges out of what it looks for.
func MarkdownTables(text string) [][2]int {
	// A table needs a delimiter row, which holds a '-', and a '|'.
	if !strings.Contains(text, "|") || !strings.Contains(text, "-") {
		return nil
	}
	doc := mdParser.Parse(gtext.NewReader([]byte(text)))
	var out [][2]int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*east.Table)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		// Every row, the header's too, is one source line and records
		// where that line starts; the delimiter row is the line after the
		// header's.
		start, end := t.FirstChild().Pos(), t.LastChild().Pos()
		if t.ChildCount() == 1 {
			end = min(lineEnd(text, end)+1, len(text))
		}
		out = append(out, [2]int{start, lineEnd(text, end)})
		return ast.WalkSkipChildren, nil
	})
	return out
}

// lineEnd returns the index of the line end at or after i: its '\n', or
// the end of text.
func lineEnd(text string, i int) int {
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}
