package terminal

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/transcript"
)

// toolCard renders a tool card (terminal.md §5): the gap row, the header and
// the body of the presenter's view.
func (r *renderer) toolCard(tc *transcript.ToolCard) []string {
	call := ToolCall{Name: tc.Name, Arguments: tc.Arguments, HasResult: tc.HasResult,
		IsError: tc.IsError, Result: tc.Result, Meta: tc.Meta}
	view := r.s.Presenters.Present(call)

	glyph, st := "○", yellowSty
	if tc.HasResult {
		glyph, st = "●", greenSty
		if tc.IsError {
			st = redSty
		}
	}
	head := glyph + " Tool / " + displayInlineText(tc.Name)
	if view.Terminal != nil && view.Terminal.Description != "" {
		head += " / " + displayInlineText(view.Terminal.Description)
	}
	rows := []string{"", r.unpadded(textLine(head, st))}
	switch {
	case view.Terminal != nil:
		return append(rows, r.text(r.fold(terminalLines(view.Terminal, &call)))...)
	case view.Diff != nil:
		return append(rows, r.text(r.fold(diffLines(view.Diff, r.s.Presenters.diffLimit())))...)
	case view.Generic != nil:
		return append(rows, r.generic(view.Generic, tc.Name)...)
	}
	return rows
}

// terminalLines is a terminal card's body as logical lines.
func terminalLines(v *TerminalView, c *ToolCall) []line {
	var lines []line
	cmd := v.Command
	if cmd == "" {
		cmd = v.Title
	}
	if cmd != "" && (v.Description != "" || !c.HasResult) {
		lines = append(lines, textLine("$ "+displayInlineText(cmd), dimSty))
	}
	if v.Cwd != "" {
		lines = append(lines, textLine(displayInlineText(v.Cwd), dimSty))
	}
	out := v.Output
	if out == "" && c.HasResult {
		out = c.ResultText()
	}
	for _, l := range strings.Split(DisplayText(out), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, textLine(l, dimSty))
		}
	}
	if v.ExitCode != nil {
		lines = append(lines, textLine("[exit "+strconv.Itoa(*v.ExitCode)+"]", dimSty))
	}
	if v.Signal != "" {
		lines = append(lines, textLine("[signal "+displayInlineText(v.Signal)+"]", redSty))
	}
	return lines
}

// diffLines is a diff card's body as logical lines.
func diffLines(v *DiffView, limit int) []line {
	var lines []line
	added, removed, approximate := 0, 0, false
	for i, f := range v.Files {
		if i > 0 {
			lines = append(lines, nil)
		}
		lines = append(lines, textLine(displayInlineText(f.Path), boldSty))
		ops, ok := lineDiff(f.Old, f.New, limit)
		if !ok {
			approximate = true
			lines = append(lines, textLine("[exact line diff omitted: >"+strconv.Itoa(limit)+" changed lines]", dimSty))
			ops = group(nil, f.Old, f.New)
		}
		for _, op := range ops {
			t := displayInlineText(op.text)
			switch op.kind {
			case '+':
				added++
				lines = append(lines, textLine("+ "+t, greenSty))
			case '-':
				removed++
				lines = append(lines, textLine("- "+t, redSty))
			default:
				lines = append(lines, textLine("  "+t, dimSty))
			}
		}
	}
	foot := "└ +" + strconv.Itoa(added) + " -" + strconv.Itoa(removed) + " · " + strconv.Itoa(len(v.Files)) + " file"
	if len(v.Files) != 1 {
		foot += "s"
	}
	if approximate {
		foot += " · approximate"
	}
	return append(lines, textLine(foot, dimSty))
}

// generic renders a generic card body: the title row when it differs from
// the tool name, then the lines, without leading and trailing blank lines,
// as Markdown; each non-blank row is dim as a whole (padding included),
// except a fence's info-string row, whose text only is dim (as upstream).
// Folding counts rows after wrapping.
func (r *renderer) generic(v *GenericView, name string) []string {
	src := v.Lines
	if v.Title != "" && v.Title != name {
		src = append([]string{v.Title}, src...)
	}
	for len(src) > 0 && strings.TrimSpace(src[0]) == "" {
		src = src[1:]
	}
	for len(src) > 0 && strings.TrimSpace(src[len(src)-1]) == "" {
		src = src[:len(src)-1]
	}
	lines := markdown(DisplayText(strings.Join(src, "\n")), plain)
	var rows []line
	markerFrom, markerTo := -1, -1 // the fold marker's rows
	if total := r.foldable(lines); total > 0 {
		// Only the rows the fold keeps are built; the rest are counted.
		n := r.maxLines
		head, tail := (n+1)/2, n/2
		for i := 0; len(rows) < head; i++ {
			rows = append(rows, wrapLine(lines[i], r.width)...)
		}
		rows = rows[:head]
		mk := wrapLine(foldMarker(total-n), r.width)
		rows = append(rows, mk...)
		var last []line // the tail rows, last line first
		for i := len(lines) - 1; len(last) < tail; i-- {
			w := wrapLine(lines[i], r.width)
			slices.Reverse(w)
			last = append(last, w...)
		}
		last = last[:tail]
		slices.Reverse(last)
		rows = append(rows, last...)
		markerFrom, markerTo = head, head+len(mk)
	} else {
		for _, l := range lines {
			rows = append(rows, wrapLine(l, r.width)...)
		}
	}
	out := make([]string, len(rows))
	for i, l := range rows {
		switch {
		case (i >= markerFrom && i < markerTo) || blankLine(l):
			out[i] = r.pal.row(l, r.width, true, 0)
		case len(l) > 0 && l[0].st.at&atLabel != 0:
			// A fence's info string: dim text, plain padding, as upstream.
			out[i] = r.pal.row(withAttr(l, atDim), r.width, true, 0)
		default:
			out[i] = r.pal.row(l, r.width, true, atDim)
		}
	}
	return out
}

// foldable returns the number of rows lines wrap to when the card folds
// them (more than the fold limit, tools not expanded), else 0.
func (r *renderer) foldable(lines []line) int {
	if r.s.Tools == ToolsExpanded {
		return 0
	}
	total := 0
	for _, l := range lines {
		total += wrapCount(l, r.width)
	}
	if total <= r.maxLines {
		return 0
	}
	return total
}

func withAttr(l line, a attr) line {
	out := make(line, len(l))
	for i, sp := range l {
		out[i] = span{text: sp.text, st: sp.st.with(a)}
	}
	return out
}

func blankLine(l line) bool { return strings.TrimSpace(l.plainText()) == "" }
