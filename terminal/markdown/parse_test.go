package markdown

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"

	"github.com/dshtest/dshtest/terminal/display"
)

// unlinkedPieces are bits of Markdown whose joins exercise what the bare
// autolinks' parser is asked at: spaces, line starts, "*", "_", "~" and
// "(", escapes, trailing spaces (hard breaks) and indentation.
var unlinkedPieces = []string{
	"word", "two words", " ", "  ", "   ", "\n", "\n\n", "\t", "*", "**", "_", "__", "~", "~~", "(", ")",
	"[", "]", "](x)", "`", "``", "\\", "\\*", "\\_", "\\ ", "  \n", "\\\n", "# ", "> ", "- ", "1. ", "    ",
	"```\n", "---\n", "| a | b |\n|---|---|\n| 1 | 2 |\n", "<b>", "</b>", "&amp;", "漢字", "🙂", "e\u0301",
	"\u3000", "\u00a0", "*em*", "_em_", "**strong**", "~~gone~~", "(paren)", "x_y", "[t] ", "- [ ] task",
	"\\x1b[31m", "ftp", "http", "www", "mailto:", ":", "/", ".", "com", "\r\n",
	"https://x.y", "http://a", "ftp://f", "://", "www.", "www.a.b", "\\x1b]8;;https://e.com\\x1b\\\\", ";", "=", "\"", "'",
	",", "x", "é", "|", ">", "<", "!", "[a](b)", "<https://x>", "[x]", "a_", "?", "-", "+", "&",
}

// unlinked removes from s what could start a bare autolink.
func unlinked(s string) string {
	for _, r := range []struct{ from, to string }{{"://", ":/"}, {"www.", "ww."}, {"@", "a"}} {
		for strings.Contains(s, r.from) {
			s = strings.ReplaceAll(s, r.from, r.to)
		}
	}
	return s
}

// layoutWith lays text out through p.
func layoutWith(p parser.Parser, text string, base display.Style, mode Mode, width int) []Row {
	src := []byte(text)
	return layoutOf(src, p.Parse(gtext.NewReader(src)), base, mode, width)
}

// blockRows lays text out block by block (mdr.blocks), as parsedMarkdown
// must: the oracle of the memo's and the fold's layouts.
func blockRows(text string, base display.Style, mode Mode, width int) []Row {
	src := []byte(text)
	return layoutOf(src, parse(src), base, mode, width)
}

// layoutOf lays out the tree doc of src.
func layoutOf(src []byte, doc ast.Node, base display.Style, mode Mode, width int) []Row {
	m := &mdr{src: src, base: base, mode: mode}
	return rewrap(m.blocks(doc, width), width)
}

// checkUnlinked lays a text parse gives the parser without the bare
// autolinks out through each parser in every mode and at several widths:
// the layouts must be equal. It reports whether text was such a text.
func checkUnlinked(t *testing.T, text string) bool {
	t.Helper()
	if parserOf([]byte(text)) != mdParserUnlinked {
		return false
	}
	src := []byte(text)
	without, with := mdParserUnlinked.Parse(gtext.NewReader(src)), mdParser.Parse(gtext.NewReader(src))
	for _, mode := range []Mode{TextMode, ReasoningMode, PromptMode} {
		base := plain
		if mode == ReasoningMode {
			base = reasonSty
		}
		for _, width := range []int{1, 7, 40, 200} {
			got, want := layoutOf(src, without, base, mode, width), layoutOf(src, with, base, mode, width)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q mode %d width %d: without the autolinks\n%#v\nwith them\n%#v", text, mode, width, got, want)
			}
		}
	}
	return true
}

// TestParseUnlinked: a text parse gives the parser without the bare
// autolinks is laid out as the parser with them lays it out; a text in
// which an autolink may start, or whose lines end in white space the
// autolinks' parser would keep, is given the parser with them.
func TestParseUnlinked(t *testing.T) {
	unlinkedTexts, schemes := 0, 0
	check := func(s string) {
		for _, text := range []string{display.Escape(s), unlinked(display.Escape(s))} {
			if checkUnlinked(t, text) {
				unlinkedTexts++
				if strings.Contains(text, "://") || strings.Contains(text, "www.") {
					schemes++
				}
			}
		}
	}
	for _, s := range append(append([]string{}, plainSeeds...), unlinkedPieces...) {
		check(s)
	}
	rng := rand.New(rand.NewPCG(30, 7))
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			b.WriteString(unlinkedPieces[rng.IntN(len(unlinkedPieces))])
		}
		check(b.String())
	}
	if unlinkedTexts < 1000 || schemes < 100 {
		t.Errorf("only %d texts were parsed without the autolinks, %d of them with a scheme or www.", unlinkedTexts, schemes)
	}
	for _, s := range []string{"http://x.y", "see https://a.b", "ftp://f", "www.x", "a www.b", "a@b.co", "@",
		"(https://a.b)", "*https://x*", "_www.x_", "~https://x", "`c`https://x", "<b>https://x", "[a](b)https://x",
		"[a]https://x", "|https://x|", ">https://x", "- [ ]https://x", "a\thttps://x", "a\nwww.x", "!https://x",
		"word    \nnext", "a\t\t\nb", "end  ", "a \r\nb"} {
		if parserOf([]byte(s)) != mdParser {
			t.Errorf("%q is parsed without the autolinks", s)
		}
	}
	for _, s := range []string{"x://y", "HTTP://x", "\\x1b]8;;https://example.com\\x1b\\\\link", "xhttps://y", "é https ://",
		"a=https://b", "\"https://x\"", "path/www.x", "e.www.x", "a:www.x", "ahttp://b"} {
		if parserOf([]byte(s)) != mdParserUnlinked {
			t.Errorf("%q is parsed with the autolinks", s)
		}
	}
	// Why a line's trailing white space keeps the autolinks' parser (the
	// spaces of a hard break the layout drops whichever parser it was).
	text := "word\t\t\nnext"
	if reflect.DeepEqual(layoutWith(mdParserUnlinked, text, plain, TextMode, 40), layoutWith(mdParser, text, plain, TextMode, 40)) {
		t.Errorf("%q is laid out alike by both parsers: the trailing-space rule is not needed", text)
	}
}

func FuzzParseUnlinked(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add(s)
	}
	for _, s := range unlinkedPieces {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkUnlinked(t, display.Escape(text))
		checkUnlinked(t, unlinked(display.Escape(text)))
	})
}
