package cards

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// TestXMLTree pins the unknown-tool XML tree (presenters.md §1.4 D): the
// spec's example, the declines, and the per-child fold.
func TestXMLTree(t *testing.T) {
	render := func(src string, limit int) []string {
		var out []string
		r := testRenderer(60, 0, display.ToolsCollapsed)
		tree := xmlTree(src, limit, false)
		if tree == nil {
			return nil
		}
		for _, row := range screen.Decode(r.text(tree)) {
			out = append(out, strings.TrimRight(row.Text, " ")+"|"+runsText(row.Runs))
		}
		return out
	}
	got := render(`<result status="ok"><item>one</item><item>two</item></result>`, 6)
	want := []string{`result (status="ok")|[{0 19 dim}]`, "  item: one|[{2 6 dim} {8 10 dim}]", "  item: two|[{2 6 dim} {8 10 dim}]"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	for _, src := range []string{
		`<?xml version="1.0"?><a/>`, `<!DOCTYPE a><a/>`, `<a><!-- c --></a>`, `<a/><b/>`, `text <a/>`, `<a>`, `<a></b>`,
		"<path>x</path>\n<type>file</type>\n<content>\ny\n</content>", `plain text`,
	} {
		if got := render(src, 6); got != nil {
			t.Errorf("%q: got a tree %q", src, got)
		}
	}
	// mayBeXML declines only what the decoder declines.
	for _, src := range []string{"", " ", "\u00a0<a/>", " \n<a/>", "&#32;<a/>", "&#65;<a/>", "x<a/>", "\xff<a/>",
		"\u2003 <a>b</a>", "a", "<", "&", "  plain"} {
		if !mayBeXML(src) && parseXML(src) != nil {
			t.Errorf("%q: mayBeXML declines a tree", src)
		}
	}
	many := "<r>" + strings.Repeat("<i>x</i>", 9) + "</r>"
	if got := render(many, 4); len(got) != 6 || !strings.HasPrefix(got[3], "  … +5 lines (Ctrl+O to expand)") {
		t.Errorf("folded children: %q", got)
	}
}

// FuzzMayBeXML: mayBeXML declines only text the decoder declines, and
// still declines it once escaped (the tool card asks it of the raw
// result).
func FuzzMayBeXML(f *testing.F) {
	for _, s := range []string{"<a/>", " &#32;<a>b</a>", "\u00a0<a/>", "x", "&#65;<a/>", "\t<a/>", "\x85<a/>",
		"\u2028<a/>", " \x1b<a/>", "\xff<a/>", "\u202e<a/>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !mayBeXML(src) && parseXML(src) != nil {
			t.Fatalf("%q: mayBeXML declines a tree", src)
		}
		if !mayBeXML(src) && mayBeXML(display.Escape(src)) {
			t.Fatalf("%q: mayBeXML declines it but not its escaped %q", src, display.Escape(src))
		}
	})
}

// runsText formats style runs compactly: [{start end labels} …].
func runsText(runs []screen.Run) string {
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = fmt.Sprintf("{%d %d %s}", r.Start, r.End, r.Labels)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
