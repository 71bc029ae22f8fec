package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/dshtest/dshtest/terminal/display"
)

// table renders a GFM table in box drawing (presenters.md §3.5): header
// cells bold, columns sized to their content and shrunk in proportion to
// fit, a rule between every two rows. When the width leaves less than one
// cell a column, the table's source is wrapped instead.
func (m *mdr) table(n *east.Table, width int) []Row {
	var cells [][][]display.Line // row, column, logical lines
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		st := m.base
		if r.Kind() == east.KindTableHeader {
			st = st.With(display.Bold)
		}
		var row [][]display.Line
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			row = append(row, m.inlines(c, st))
		}
		cells = append(cells, row)
	}
	cols := 0
	for _, row := range cells {
		cols = max(cols, len(row))
	}
	if cols == 0 {
		return nil
	}
	avail := width - (3*cols + 1)
	if avail < cols {
		return m.wrapAll(m.sourceLines(n), width)
	}
	natural := make([]int, cols)
	for _, row := range cells {
		for i, c := range row {
			for _, l := range c {
				natural[i] = max(natural[i], l.Width())
			}
		}
	}
	total := 0
	for i := range natural {
		natural[i] = max(natural[i], 1)
		total += natural[i]
	}
	widths := natural
	if total > avail {
		widths = make([]int, cols)
		for i, w := range natural {
			widths[i] = max(1, w*avail/total)
		}
	}
	border := func(l, mid, r string) Row {
		var b strings.Builder
		b.WriteString(l)
		for i, w := range widths {
			if i > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(r)
		return Row{Line: display.TextLine(b.String(), m.base)}
	}
	rows := []Row{border("┌", "┬", "┐")}
	for ri, row := range cells {
		if ri > 0 {
			rows = append(rows, border("├", "┼", "┤"))
		}
		wrapped := make([][]display.Line, cols)
		height := 1
		for i := range cols {
			if i < len(row) {
				for _, l := range row[i] {
					wrapped[i] = append(wrapped[i], display.WrapLine(l, widths[i])...)
				}
			}
			height = max(height, len(wrapped[i]))
		}
		for k := range height {
			l := display.Line{{Text: "│ ", Style: m.base}}
			for i := range cols {
				if i > 0 {
					l = append(l, display.Span{Text: " │ ", Style: m.base})
				}
				var cell display.Line
				if k < len(wrapped[i]) {
					cell = wrapped[i][k]
				}
				l = append(l, cell...)
				if pad := widths[i] - cell.Width(); pad > 0 {
					// A header cell is bold to the column's width: pi-tui
					// bolds the padded cell (presenters.md §5.8).
					padSty := plain
					if ri == 0 {
						padSty = display.Style{Attrs: display.Bold}
					}
					l = append(l, display.Span{Text: strings.Repeat(" ", pad), Style: padSty})
				}
			}
			l = append(l, display.Span{Text: " │", Style: m.base})
			rows = append(rows, Row{Line: l})
		}
	}
	return append(rows, border("└", "┴", "┘"))
}

// sourceLines is a block's source text as plain lines.
func (m *mdr) sourceLines(n ast.Node) []display.Line {
	var out []display.Line
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		var b strings.Builder
		b.WriteString("|")
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			b.WriteString(" ")
			for _, l := range m.inlines(c, m.base) {
				b.WriteString(l.PlainText())
			}
			b.WriteString(" |")
		}
		out = append(out, display.TextLine(b.String(), m.base))
	}
	return out
}
