package markdown

import (
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/terminal/display"
)

// TestShownText: a body's shown text is what its rows say, and a block
// holding a table splits it.
func TestShownText(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		prompt bool
		want   []string
	}{
		{"plain", "two\nlines", false, []string{"two\nlines"}},
		{"emphasis and code", "a *b* `c`", false, []string{"a b c\n"}},
		{"a link shows its destination, not its title", `[link](http://x.y "title")`, false, []string{"link (http://x.y)\n"}},
		{"a reference link and its definition", "see [1]\n\n[1]: http://x.y", false, []string{"see 1 (http://x.y)\n"}},
		{"an image shows its alt text", "an ![alt text](http://x/y.png) here", false, []string{"an alt text here\n"}},
		{"a table splits the text", "See:\n\n| a | b |\n|---|---|\n| 1 | 2 |[image]\n\nafter", true, []string{"See:\n", "after\n"}},
		{"a list holding a table is left out", "- item\n\n  | a |\n  |---|\n  | 1 |\n\nend", false, []string{"end\n"}},
		{"only a table", "| a |\n|---|\n| 1 |", false, nil},
		{"a prompt keeps its list markers", "1. one\n2. two", true, []string{"1. one\n2. two\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ShownText(tt.text, tt.prompt)); diff != "" {
				t.Errorf("ShownText(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// FuzzShownText: any body's stretches are in its rows at a narrow width,
// in order, once letters and digits alone are kept (what the text oracle
// compares); plain text shows as itself.
func FuzzShownText(f *testing.F) {
	for _, s := range []string{"a *b*", "[l](u \"t\")", "x\n\n[1]: u", "![a](b)", "| a |\n|---|\n| 1 |[image]", "- a\n  | b |\n  | - |", "1. x\n   > q", shownBody} {
		f.Add(s, false, uint8(20))
		f.Add(s, true, uint8(44))
	}
	f.Add("꺹 wide 한글 ｆｕｌｌ", true, uint8(0)) // width 1: the wide letters cannot be drawn
	f.Fuzz(func(t *testing.T, text string, prompt bool, width uint8) {
		text = display.Escape(text)
		got := ShownText(text, prompt)
		if plainMarkdown(text) && (len(got) != 1 || got[0] != text) {
			t.Fatalf("plain %q shows as %q", text, got)
		}
		checkShownInRows(t, text, prompt, int(width%100)+1)
	})
}

const shownBody = "Intro *text* with [a link](http://x.y \"t\") and [ref][r].\n\n| wide header | another |\n|---|---|\n| alpha beta gamma delta | epsilon zeta eta theta |\n\n> quoted ![img](p.png) end\n\n- a list\n  1. nested `code`\n\n```\nfenced code line that is long enough to wrap at a narrow width\n```\n\n[r]: http://r.s"

// TestShownTextInRows: the stretches of a body are in its rows at every
// width, in order, letters and digits alone.
func TestShownTextInRows(t *testing.T) {
	for _, w := range []int{1, 7, 20, 44, 80, 200} {
		checkShownInRows(t, shownBody, false, w)
		checkShownInRows(t, shownBody, true, w)
	}
}

func checkShownInRows(t *testing.T, text string, prompt bool, width int) {
	t.Helper()
	mode := TextMode
	if prompt {
		mode = PromptMode
	}
	words := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, s)
	}
	var doc strings.Builder
	for _, row := range Rows(text, plain, mode, width) {
		doc.WriteString(row.Line.PlainText())
	}
	// A character wider than the row cannot be drawn there (it shows as
	// U+FFFD): at a width of 1, a wide letter is not looked for.
	drawable := func(s string) string {
		return strings.Map(func(r rune) rune {
			if display.TextWidth(string(r)) > width {
				return -1
			}
			return r
		}, s)
	}
	d, at := words(doc.String()), 0
	for _, s := range ShownText(text, prompt) {
		w := words(drawable(s))
		i := strings.Index(d[at:], w)
		if i < 0 {
			t.Fatalf("%q (prompt %v) at width %d: %q is not in %q past %d", text, prompt, width, w, d, at)
		}
		at += i + len(w)
	}
}
