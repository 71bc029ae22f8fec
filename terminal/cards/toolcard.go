package cards

import (
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// ToolCard renders a tool card (terminal.md §5): the gap row, the header and
// the body of the presenter's view.
func (r *Renderer) ToolCard(tc *transcript.ToolCard) []string {
	l := r.cardLayout(tc)
	rows := []string{"", r.unpadded(l.head)}
	if l.markdown {
		return append(rows, r.genericRows(l.src)...)
	}
	return append(rows, r.text(l.lines)...)
}

// layout is what of a tool card's layout does not depend on the width:
// its header line, and its body as logical lines already folded, or a
// generic body's Markdown source, which is folded as it is laid out.
type layout struct {
	head     display.Line
	lines    []display.Line
	markdown bool
	src      string
}

// Layouts keeps the width-independent layout of the tool cards drawn
// through it (the presenter's view, the header, the escaped and folded
// body), for the same card drawn at another width: repro draws every item
// at three sizes. Reset it between items: it holds every card it laid
// out, and a card must not change while it is kept. A nil *Layouts keeps
// nothing. A Layouts is not safe for concurrent use.
type Layouts struct {
	m map[layoutKey]*layout
}

// layoutKey is a card and the settings its layout depends on besides the
// width.
type layoutKey struct {
	card       *transcript.ToolCard
	presenters *Presenters
	maxLines   int
	tools      display.ToolMode
}

// NewLayouts returns an empty Layouts.
func NewLayouts() *Layouts { return &Layouts{m: map[layoutKey]*layout{}} }

// Reset forgets every card.
func (ls *Layouts) Reset() {
	if ls != nil {
		clear(ls.m)
	}
}

// cardLayout returns tc's layout, worked out once per Layouts.
func (r *Renderer) cardLayout(tc *transcript.ToolCard) *layout {
	key := layoutKey{tc, r.Presenters, r.MaxLines, r.Tools}
	if r.Layouts != nil {
		if l, ok := r.Layouts.m[key]; ok {
			return l
		}
	}
	l := r.layOut(tc)
	if r.Layouts != nil {
		r.Layouts.m[key] = l
	}
	return l
}

// layOut works out tc's layout.
func (r *Renderer) layOut(tc *transcript.ToolCard) *layout {
	call := ToolCall{Name: tc.Name, Arguments: tc.Arguments, HasResult: tc.HasResult,
		IsError: tc.IsError, Result: tc.Result, Meta: tc.Meta}
	view := r.Presenters.Present(call)

	glyph, st := "○", yellowSty
	if tc.HasResult {
		glyph, st = "●", greenSty
		if tc.IsError {
			st = redSty
		}
	}
	head := glyph + " Tool / " + display.EscapeInline(tc.Name)
	desc := view.Description
	if desc == "" && view.Terminal != nil {
		desc = view.Terminal.Description
	}
	if desc != "" {
		head += " / " + display.EscapeInline(desc)
	}
	l := &layout{head: display.TextLine(head, st)}
	switch {
	case view.Terminal != nil:
		l.lines = r.fold(terminalLines(view.Terminal, &call))
	case view.Diff != nil:
		l.lines = r.fold(diffLines(view.Diff, r.Presenters.diffLimit()))
	case view.Generic != nil:
		// An unknown tool's XML result is a tree (presenters.md §1.4 D).
		// Escaping keeps a text's leading white space or turns it into a
		// backslash sequence, and turns nothing into "<" or "&": a result
		// that mayBeXML refuses stays refused once escaped, and most are
		// refused, so they are not escaped for it.
		if tc.HasResult && !r.Presenters.Has(tc.Name) {
			if res := call.ResultText(); mayBeXML(res) {
				if tree := xmlTree(display.Escape(res), r.MaxLines, r.Tools == display.ToolsExpanded); tree != nil {
					l.lines = tree
					return l
				}
			}
		}
		r.generic(view.Generic, tc.Name, l)
	}
	return l
}

// terminalLines is a terminal card's body as logical lines.
func terminalLines(v *TerminalView, c *ToolCall) []display.Line {
	var lines []display.Line
	cmd := v.Command
	if cmd == "" {
		cmd = v.Title
	}
	if cmd != "" && (v.Description != "" || !c.HasResult) {
		lines = append(lines, display.TextLine("$ "+display.EscapeInline(cmd), dimSty))
	}
	if v.Cwd != "" {
		lines = append(lines, display.TextLine(display.EscapeInline(v.Cwd), dimSty))
	}
	out := v.Output
	if out == "" && !v.HasOutput && c.HasResult {
		out = c.ResultText()
	}
	for _, l := range strings.Split(display.Escape(out), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, display.TextLine(l, dimSty))
		}
	}
	if v.ExitCode != nil {
		lines = append(lines, display.TextLine("[exit "+strconv.Itoa(*v.ExitCode)+"]", dimSty))
	}
	if v.Signal != "" {
		lines = append(lines, display.TextLine("[signal "+display.EscapeInline(v.Signal)+"]", redSty))
	}
	return lines
}

// diffLines is a diff card's body as logical lines.
func diffLines(v *DiffView, limit int) []display.Line {
	var lines []display.Line
	added, removed, approximate := 0, 0, false
	for i, f := range v.Files {
		if i > 0 {
			lines = append(lines, nil)
		}
		lines = append(lines, display.TextLine(display.EscapeInline(f.Path), boldSty))
		ops, ok := lineDiff(f.Old, f.New, limit)
		if !ok {
			approximate = true
			lines = append(lines, display.TextLine("[exact line diff omitted: >"+strconv.Itoa(limit)+" changed lines]", dimSty))
			ops = group(nil, f.Old, f.New)
		}
		for _, op := range ops {
			t := display.EscapeInline(op.text)
			switch op.kind {
			case '+':
				added++
				lines = append(lines, display.TextLine("+ "+t, greenSty))
			case '-':
				removed++
				lines = append(lines, display.TextLine("- "+t, redSty))
			default:
				lines = append(lines, display.TextLine("  "+t, dimSty))
			}
		}
	}
	paths := map[string]bool{}
	for _, f := range v.Files {
		paths[f.Path] = true
	}
	foot := "└ +" + strconv.Itoa(added) + " -" + strconv.Itoa(removed) + " · " + strconv.Itoa(len(paths)) + " file"
	if len(paths) != 1 {
		foot += "s"
	}
	if approximate {
		foot += " · approximate"
	}
	return append(lines, display.TextLine(foot, dimSty))
}
