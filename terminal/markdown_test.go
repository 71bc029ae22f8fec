package terminal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// TestMarkdown pins the Markdown rules of presenters.md §3 row by row:
// text (trailing padding trimmed) and style runs.
func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		base  display.Style
		mode  mdMode
		width int
		want  []string // "text|runs"
	}{
		{"soft breaks are rows", "a\nb\n\nc", plain, mdText, 20,
			[]string{"a|[]", "b|[]", "|[]", "c|[]"}},
		{"paragraph then fence, code-mode reasoning", "Looking:\n```\n{\n}\n```\n\nSo.", reasonSty, mdReasoning, 20,
			[]string{"Looking:|[{0 7 dim italic}]", "|[]", "|[]", "  {|[{2 2 fg=cyan}]", "  }|[{2 2 fg=cyan}]", "|[]", "|[]", "So.|[{0 2 dim italic}]"}},
		{"fence label", "```ts\nx\n```", plain, mdText, 20,
			[]string{"ts|[{0 1 dim}]", "  x|[{2 2 fg=cyan}]", "|[]"}},
		{"headings", "# One\n## Two\n### Three\ntext", plain, mdText, 20,
			[]string{"One|[{0 2 fg=bright-magenta bold underline}]", "|[]", "Two|[{0 2 fg=bright-magenta bold}]", "|[]",
				"### Three|[{0 8 fg=bright-magenta bold}]", "|[]", "text|[]"}},
		{"lists renumbered", "3. c\n7. d\n\n* x\n+ y", plain, mdText, 20,
			[]string{"3. c|[{0 2 fg=bright-magenta}]", "4. d|[{0 2 fg=bright-magenta}]", "|[]",
				"- x|[{0 1 fg=bright-magenta}]", "- y|[{0 1 fg=bright-magenta}]"}},
		{"prompt keeps markers and escapes", "3) c\n* x \\*", plain, mdPrompt, 20,
			[]string{"3) c|[{0 2 fg=bright-magenta}]", "* x \\*|[{0 1 fg=bright-magenta}]"}},
		{"paragraph then list: no blank", "para\n- a\nlazy", plain, mdText, 20,
			[]string{"para|[]", "- a|[{0 1 fg=bright-magenta}]", "  lazy|[]"}},
		{"inline styles", "**b** *i* ~~s~~ ~t~ `c` \\* &amp;", plain, mdText, 40,
			[]string{"b i s ~t~ c * &amp;|[{0 0 bold} {2 2 italic} {4 4 strike} {10 10 fg=cyan}]"}},
		{"reasoning styles", "a **b** `c`", reasonSty, mdReasoning, 40,
			[]string{"a b c|[{0 1 dim italic} {2 2 bold dim italic} {3 3 dim italic} {4 4 fg=cyan}]"}},
		{"links", "[x](http://u) <http://v> https://w.io", plain, mdText, 60,
			[]string{"x (http://u) http://v https://w.io|[{0 0 fg=bright-magenta underline} {1 11 dim} {13 20 fg=bright-magenta underline} {22 33 fg=bright-magenta underline}]"}},
		{"quote and rule", "> q\n\n---", plain, mdText, 10,
			[]string{"│ q|[{0 1 fg=bright-magenta} {2 2 dim italic}]", "|[]", "──────────|[{0 9 dim}]"}},
		{"table", "| a | b |\n|---|---|\n| 1 | 22 |", plain, mdText, 20,
			[]string{"┌───┬────┐|[]", "│ a │ b  │|[{2 2 bold} {6 6 bold}]", "├───┼────┤|[]", "│ 1 │ 22 │|[]", "└───┴────┘|[]"}},
		{"wrapped code keeps its style on the padding", "ab `cd ef`", plain, mdText, 5,
			[]string{"ab cd|[{3 4 fg=cyan}]", "ef|[{0 1 fg=cyan}]"}},
		{"html block literal", "<div>\nhi\n</div>", plain, mdText, 20,
			[]string{"<div>|[]", "hi|[]", "</div>|[]"}},
		{"indented code", "    code", plain, mdText, 20,
			[]string{"|[]", "  code|[{2 5 fg=cyan}]", "|[]", "|[]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRenderer(Settings{Width: tc.width})
			rows := r.mdText(markdown(tc.in, tc.base, tc.mode, tc.width))
			var got []string
			for _, row := range screen.Decode(rows) {
				got = append(got, strings.TrimRight(row.Text, " ")+"|"+runsText(row.Runs))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestMarkdownWrapPadding pins the wrap-padding rule (presenters.md §3.6):
// a reasoning row that wraps inside its dim italic text keeps dim italic
// on the padding; the last row's padding is plain.
func TestMarkdownWrapPadding(t *testing.T) {
	r := newRenderer(Settings{Width: 10})
	rows := screen.Decode(r.mdText(markdown("aaaa bbbb cccc", reasonSty, mdReasoning, 10)))
	if len(rows) != 2 || runsText(rows[0].Runs) != "[{0 9 dim italic}]" || runsText(rows[1].Runs) != "[{0 3 dim italic}]" {
		t.Errorf("got %+v", rows)
	}
}

// runsText formats style runs compactly: [{start end labels} …].
func runsText(runs []screen.Run) string {
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = fmt.Sprintf("{%d %d %s}", r.Start, r.End, r.Labels)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestXMLTree pins the unknown-tool XML tree (presenters.md §1.4 D): the
// spec's example, the declines, and the per-child fold.
func TestXMLTree(t *testing.T) {
	render := func(src string, limit int) []string {
		var out []string
		r := newRenderer(Settings{Width: 60})
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
