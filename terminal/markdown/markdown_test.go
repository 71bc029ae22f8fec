package markdown

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/yuin/goldmark/parser"
)

// reasonSty is a reasoning body's base style, as the renderer gives it.
var reasonSty = display.Style{Attrs: display.Dim | display.Italic}

// TestMarkdown pins the Markdown rules of presenters.md §3 row by row:
// text (trailing padding trimmed) and style runs.
func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		base  display.Style
		mode  Mode
		width int
		want  []string // "text|runs"
	}{
		{"soft breaks are rows", "a\nb\n\nc", plain, TextMode, 20,
			[]string{"a|[]", "b|[]", "|[]", "c|[]"}},
		{"paragraph then fence, code-mode reasoning", "Looking:\n```\n{\n}\n```\n\nSo.", reasonSty, ReasoningMode, 20,
			[]string{"Looking:|[{0 7 dim italic}]", "|[]", "|[]", "  {|[{2 2 fg=cyan}]", "  }|[{2 2 fg=cyan}]", "|[]", "|[]", "So.|[{0 2 dim italic}]"}},
		{"fence label", "```ts\nx\n```", plain, TextMode, 20,
			[]string{"ts|[{0 1 dim}]", "  x|[{2 2 fg=cyan}]", "|[]"}},
		{"headings", "# One\n## Two\n### Three\ntext", plain, TextMode, 20,
			[]string{"One|[{0 2 fg=bright-magenta bold underline}]", "|[]", "Two|[{0 2 fg=bright-magenta bold}]", "|[]",
				"### Three|[{0 8 fg=bright-magenta bold}]", "|[]", "text|[]"}},
		{"lists renumbered", "3. c\n7. d\n\n* x\n+ y", plain, TextMode, 20,
			[]string{"3. c|[{0 2 fg=bright-magenta}]", "4. d|[{0 2 fg=bright-magenta}]", "|[]",
				"- x|[{0 1 fg=bright-magenta}]", "- y|[{0 1 fg=bright-magenta}]"}},
		{"prompt keeps markers and escapes", "3) c\n* x \\*", plain, PromptMode, 20,
			[]string{"3) c|[{0 2 fg=bright-magenta}]", "* x \\*|[{0 1 fg=bright-magenta}]"}},
		{"paragraph then list: no blank", "para\n- a\nlazy", plain, TextMode, 20,
			[]string{"para|[]", "- a|[{0 1 fg=bright-magenta}]", "  lazy|[]"}},
		// An item's blocks are not spaced from each other (P): only a
		// blank line between them is a blank row (markdown.js renderList).
		{"fence in a list item: no blank", "- a：\n  ```\n  x\n  ```\n- b\n\n  ```\n  y\n  ```", plain, TextMode, 20,
			[]string{"- a：|[{0 1 fg=bright-magenta}]", "|[]", "    x|[{4 4 fg=cyan}]", "|[]", "|[]",
				"- b|[{0 1 fg=bright-magenta}]", "|[]", "|[]", "    y|[{4 4 fg=cyan}]", "|[]"}},
		{"bare URLs with an IP or no dot", "see http://127.0.0.1:8080/a, http://localhost/ and www.x", plain, TextMode, 60,
			[]string{"see http://127.0.0.1:8080/a, http://localhost/ and www.x|[{4 26 fg=bright-magenta underline} {29 45 fg=bright-magenta underline} {51 55 fg=bright-magenta underline}]"}},
		// Code inside emphasis keeps the emphasis, less what the body's own
		// style closes before it: bold in text, nothing in reasoning.
		{"code inside bold", "**b `c`** *i `e`*", plain, TextMode, 40,
			[]string{"b c i e|[{0 1 bold} {2 2 fg=cyan bold} {4 5 italic} {6 6 fg=cyan italic}]"}},
		{"code inside bold, reasoning", "**b `c`** ~~s `f`~~", reasonSty, ReasoningMode, 40,
			[]string{"b c s f|[{0 1 bold dim italic} {2 2 fg=cyan} {3 3 dim italic} {4 5 dim italic strike} {6 6 fg=cyan strike}]"}},
		// A tag line whose name holds "_" opens an HTML block (marked's
		// [a-z][\w-]*): its heading line is text (F2).
		{"HTML block on a \\w tag name", "<skill_instructions>\n# Editing\ntext\n\n# H", plain, TextMode, 30,
			[]string{"<skill_instructions>|[]", "# Editing|[]", "text|[]", "|[]", "H|[{0 0 fg=bright-magenta bold underline}]"}},
		{"blank line between a list and a table", "- a\n\n| x |\n|---|\n| 1 |", plain, TextMode, 20,
			[]string{"- a|[{0 1 fg=bright-magenta}]", "|[]", "┌───┐|[]", "│ x │|[{2 2 bold}]", "├───┤|[]", "│ 1 │|[]", "└───┘|[]"}},
		{"inline styles", "**b** *i* ~~s~~ ~t~ `c` \\* &amp;", plain, TextMode, 40,
			[]string{"b i s ~t~ c * &amp;|[{0 0 bold} {2 2 italic} {4 4 strike} {10 10 fg=cyan}]"}},
		{"reasoning styles", "a **b** `c`", reasonSty, ReasoningMode, 40,
			[]string{"a b c|[{0 1 dim italic} {2 2 bold dim italic} {3 3 dim italic} {4 4 fg=cyan}]"}},
		{"links", "[x](http://u) <http://v> https://w.io", plain, TextMode, 60,
			[]string{"x (http://u) http://v https://w.io|[{0 0 fg=bright-magenta underline} {1 11 dim} {13 20 fg=bright-magenta underline} {22 33 fg=bright-magenta underline}]"}},
		{"quote and rule", "> q\n\n---", plain, TextMode, 10,
			[]string{"│ q|[{0 1 fg=bright-magenta} {2 2 dim italic}]", "|[]", "──────────|[{0 9 dim}]"}},
		{"table", "| a | b |\n|---|---|\n| 1 | 22 |", plain, TextMode, 20,
			[]string{"┌───┬────┐|[]", "│ a │ b  │|[{2 2 bold} {6 7 bold}]", "├───┼────┤|[]", "│ 1 │ 22 │|[]", "└───┴────┘|[]"}},
		{"wrapped code keeps its style on the padding", "ab `cd ef`", plain, TextMode, 5,
			[]string{"ab cd|[{3 4 fg=cyan}]", "ef|[{0 1 fg=cyan}]"}},
		{"html block literal", "<div>\nhi\n</div>", plain, TextMode, 20,
			[]string{"<div>|[]", "hi|[]", "</div>|[]"}},
		{"indented code", "    code", plain, TextMode, 20,
			[]string{"|[]", "  code|[{2 5 fg=cyan}]", "|[]", "|[]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := mdStrings(Rows(tc.in, tc.base, tc.mode, tc.width), tc.width)
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
	rows := screen.Decode(mdStrings(Rows("aaaa bbbb cccc", reasonSty, ReasoningMode, 10), 10))
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

// TestDeepNesting: quotes and list items draw their bars, bullets and
// indents down to maxNest levels and none deeper, their text still shown;
// a line that opens more than maxLineNest containers (goldmark's parse of
// it grows with the square of its length) is drawn as plain text.
func TestDeepNesting(t *testing.T) {
	for _, tc := range []struct {
		name, marker string
		prefix       int // cells each drawn level adds
	}{
		{"quote", "> ", 2},
		{"list", "- ", 4}, // a nested list indents 4
	} {
		for _, depth := range []int{maxNest - 1, maxNest + 1, maxLineNest} {
			text := strings.Repeat(tc.marker, depth) + "deep text"
			rows := Rows(text, display.Style{}, TextMode, 20000)
			var shown []string
			for _, r := range rows {
				if s := strings.TrimSpace(r.Line.PlainText()); s != "" {
					shown = append(shown, s)
				}
			}
			if len(shown) != 1 || !strings.HasSuffix(shown[0], "deep text") {
				t.Fatalf("%s %d: rows %q", tc.name, depth, shown)
			}
			drawn := min(depth, maxNest)
			if w := rows[len(rows)-1].Line.Width(); w > drawn*tc.prefix+len("deep text")+4 {
				t.Errorf("%s %d: a row %d cells wide, want at most %d levels drawn", tc.name, depth, w, drawn)
			}
		}
		text := strings.Repeat(tc.marker, maxLineNest+1) + "deep text"
		rows := Rows(text, display.Style{}, TextMode, 1<<20)
		if len(rows) != 1 || rows[0].Line.PlainText() != text {
			t.Errorf("%s %d: not drawn as written: %d rows", tc.name, maxLineNest+1, len(rows))
		}
	}
}

// TestTangled: the shapes goldmark parses in more than linear time, in
// numbers no written text holds, make a text plain; what written text
// holds does not.
func TestTangled(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want bool
	}{
		{"quotes", strings.Repeat(">", maxLineNest+1) + "x", true},
		{"spaced quotes", strings.Repeat("> ", maxLineNest+1) + "x", true},
		{"bullets", strings.Repeat("- ", maxLineNest+1) + "x", true},
		{"numbers", strings.Repeat("1. ", maxLineNest+1) + "x", true},
		{"indented lists", indentedList(maxLineNest + 1), true},
		{"images", strings.Repeat("![](", maxOpenDestinations+1), true},
		{"links", strings.Repeat("[a](", maxOpenDestinations+1), true},
		{"definitions", strings.Repeat("[a]: http://x\n", maxOpenDestinations+1) + "[a]", true},
		{"some definitions", strings.Repeat("[a]: http://x\n", maxOpenDestinations/2) + "[a]", false},
		{"shallow quotes", strings.Repeat("> ", maxLineNest-1) + "x", false},
		{"a long rule", strings.Repeat("-", 100000), false},
		{"many links", strings.Repeat("[a](b) ", maxOpenDestinations/2), false},
		{"snake case", strings.Repeat("some_key_name: value_here\n", 20000), false},
		{"indented code", strings.Repeat(" ", 4*maxLineNest/2-8) + "code", false},
		{"deep lists on many lines", strings.Repeat(strings.Repeat("- ", maxLineNest-1)+"a\n", maxTextMarkers/(maxLineNest-1)+1), true},
		{"a long list", strings.Repeat("- item\n  - sub item\n", maxTextMarkers/4), false},
		{"a long indented paste", strings.Repeat("        code\n", 2*maxTextMarkers), false},
	} {
		if got := tangled(tc.text); got != tc.want {
			t.Errorf("%s: tangled = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// indentedList is a list nested depth deep by indentation, an item a line.
func indentedList(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return b.String()
}

// TestInlineRuns: a paragraph of many inline runs of one style (each
// emphasis delimiter that closes nothing is its own text) lays out as one
// span, as it did, in time linear in its length.
func TestInlineRuns(t *testing.T) {
	text := strings.Repeat("_a", 50000)
	rows := Rows(text, display.Style{}, TextMode, 1<<20)
	if len(rows) != 1 || rows[0].Line.PlainText() != text {
		t.Fatalf("%d rows", len(rows))
	}
}

// TestHardBreakSpaces: the spaces of a hard break are dropped however many
// there are, as upstream's lexer drops them (goldmark leaves all but three
// of four or more in the text before the break), whichever parser reads
// the text and on the plain path too.
func TestHardBreakSpaces(t *testing.T) {
	for n := 2; n <= 7; n++ {
		for _, text := range []string{"ab" + strings.Repeat(" ", n) + "\ncd", "*ab*" + strings.Repeat(" ", n) + "\ncd"} {
			for _, p := range []parser.Parser{mdParser, mdParserUnlinked} {
				rows := layoutWith(p, text, plain, TextMode, 40)
				if len(rows) != 2 || rows[0].Line.PlainText() != "ab" || rows[1].Line.PlainText() != "cd" {
					t.Errorf("%q: rows %q", text, mdStrings(rows, 40))
				}
			}
		}
	}
}
