package markdown

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/palette"
)

// plainSeeds are bodies near the edge of plainMarkdown: plain ones and ones
// that a single byte makes Markdown.
var plainSeeds = []string{
	"", "\n", "\n\n", "a", "a\nb", "a\n\nb", "a\n\n\n\nb\n", "\n\na b c\n\n",
	"0001 the file\n0002 line code test", "0001. item", "1) item", "12345 run\n2. x",
	"Hello world.", "Hello world. Next - part + more = sum # hash",
	"a  b   c", "trailing ", "trailing  \nnext", "lead\n ing", "\tTab", "in\ttab",
	"www.example.com", "see www.example.com now", "WWW.X.COM", "http://x.y", "a@b.co",
	"a *b* c", "a _b_ c", "~~s~~", "`c`", "[l](u)", "![i](u)", "<b>", "a | b", "&amp;", `a\b`,
	`\x1b[2J clear`, `a \x1b]0;title\x07 b`, `x\`, `a\*b`, `\u200b`, "[a]", "[a](b)", "[a][b]", "[a]\n\n[a]: u", "a [b] c", "]x[",
	"a\n===", "a\n---", "# h", "> q", "- l", "+ l", "* l", "    code", "   x",
	"漢字 text", "🙂 smile", "e\u0301", "\u3000lead", "trail\u3000", "ｆｕｌｌ ｗｉｄｔｈ",
	"\u00a0nbsp", "x\u00a0", "(paren) text (x", "a (www.x.com)", "a {b} $c %d ^e; f, g? h/i 'j' \"k\"",
	strings.Repeat("word ", 60), strings.Repeat("x", 300), strings.Repeat("漢", 100),
	"a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\no\np",
	"[... tool result middle pruned ...]\n0002 rest", "[x] task", "[a]\nb", "[a] [b]", "[\nx", "[]", "[ ]",
	"a   \nb ", "a \n\nb  ", "x\u00a0 \ny", strings.Repeat("w ", 50) + " \nnext", "end with two  ",
	"snake_case x", "a__b", "a_ b", "a _b", "é_漢", "0_🙂", "_a", "a_", "a_\nb", "a_b_c_", "x_*y*", "w_www.x.com",
	"main.go:12:5: undefined: x", "{\"a\": 1, \"b_c\": [2, 3]}", "(x) y", "\"q\" 'r'", "/usr/bin/x", ".hidden", ",;$%?", "]x", ":x",
	"a ~ b", "a~b", "~~~", "a ~~~ b", "a ~~b", "~x", "x ~~ y ~~ z", "\\x1b[200~ paste", "a~\nb~",
	"see http://x.y", "(https://a.b)", "ftp://f", "[a]: u", "[a]\n:b", "a]: b", "x://y", "a:/b", "{\n}", "}\n{",
}

// checkPlain compares the plain layout of text with goldmark's, whole and
// folded at head/tail, when plainMarkdown calls it plain.
func checkPlain(t *testing.T, text string, width, head, tail int) {
	t.Helper()
	if !plainMarkdown(text) {
		return
	}
	for _, mode := range []Mode{TextMode, ReasoningMode, PromptMode} {
		base := plain
		if mode == ReasoningMode {
			base = display.Style{Attrs: display.Dim | display.Italic}
		}
		want := blockRows(text, base, mode, width)
		got, total := plainRows(splitPlain(text), base, width, -1, 0)
		if total != len(got) || !reflect.DeepEqual(mdStrings(got, width), mdStrings(want, width)) ||
			!reflect.DeepEqual(got, want) {
			t.Fatalf("plain %q at width %d mode %d:\n got %#v\nwant %#v", text, width, mode, got, want)
		}
		got, total = plainRows(splitPlain(text), base, width, head, tail)
		if total != len(want) {
			t.Fatalf("plain %q at width %d fold %d/%d: total %d, want %d", text, width, head, tail, total, len(want))
		}
		kept := want
		if len(want) > head+tail {
			kept = append(want[:head:head], want[len(want)-tail:]...)
		}
		if !sameRows(got, kept) {
			t.Fatalf("plain %q at width %d fold %d/%d:\n got %#v\nwant %#v", text, width, head, tail, got, kept)
		}
	}
}

// checkFold compares Fold of any text with the fold of every row.
func checkFold(t *testing.T, text string, width, head, tail int) {
	t.Helper()
	for _, mode := range []Mode{TextMode, ReasoningMode, PromptMode} {
		base := plain
		if mode == ReasoningMode {
			base = display.Style{Attrs: display.Dim | display.Italic}
		}
		all := blockRows(text, base, mode, width)
		want := all
		if len(all) > head+tail {
			want = append(all[:head:head], all[len(all)-tail:]...)
		}
		got, total := Fold(text, base, mode, width, head, tail)
		if total != len(all) || !sameRows(got, want) {
			t.Fatalf("fold %q at width %d mode %d fold %d/%d: total %d want %d\n got %#v\nwant %#v",
				text, width, mode, head, tail, total, len(all), got, want)
		}
		got, total = Fold(text, base, mode, width, -1, 0)
		if total != len(all) || !sameRows(got, all) {
			t.Fatalf("unfolded %q at width %d mode %d: differs", text, width, mode)
		}
	}
}

// TestMarkdownFold folds random Markdown and prose bodies both ways.
func TestMarkdownFold(t *testing.T) {
	bits := []string{"# Heading", "## Sub", "- item one\n- item two", "1. first\n2. second",
		"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```", "`inline code`", "**bold** and _italic_",
		"> quoted line", "| a | b |\n|---|---|\n| 1 | 2 |", "---", "[link](https://example.com)",
		"    indented code block", "```\nunterminated fence", "0001 the file line code", "漢字 🙂 text",
		`\x1b[2J escaped`, strings.Repeat("long words here ", 12), strings.Repeat("x", 90), "", "\n", "a  ", "<b>x</b>"}
	rng := rand.New(rand.NewPCG(9, 1))
	for range 1500 {
		var parts []string
		for range rng.IntN(12) {
			parts = append(parts, bits[rng.IntN(len(bits))])
		}
		sep := []string{"\n", "\n\n", " "}[rng.IntN(3)]
		checkFold(t, strings.Join(parts, sep), 1+rng.IntN(50), rng.IntN(6), rng.IntN(6))
	}
	for _, s := range plainSeeds {
		checkFold(t, s, 7, 2, 1)
	}
}

// TestMemoWidths lays random bodies out through one Memo at several
// widths, in both modes of a fold and whole, as repro's sizes do: each
// layout equals the same layout with no Memo, so what the Memo keeps of a
// text is not changed by laying it out.
func TestMemoWidths(t *testing.T) {
	bits := []string{"# Heading", "- item one\n- item two", "```go\nx := 1\n```", "`code` and **bold**",
		"> quoted", "| a | b |\n|---|---|\n| 1 | 2 |", "0001 the file line code", "漢字 🙂 text wider than a row",
		strings.Repeat("long words here ", 12), strings.Repeat("x", 90), "snake_case_ok", "- [ ] task", ""}
	rng := rand.New(rand.NewPCG(11, 2))
	memo := NewMemo()
	for range 400 {
		var parts []string
		for range rng.IntN(10) {
			parts = append(parts, bits[rng.IntN(len(bits))])
		}
		text := strings.Join(parts, []string{"\n", "\n\n"}[rng.IntN(2)])
		head, tail := rng.IntN(5), rng.IntN(5)
		for _, width := range []int{80, 1, 13, 44, 104, 80} {
			for _, mode := range []Mode{TextMode, ReasoningMode} {
				base := plain
				if mode == ReasoningMode {
					base = display.Style{Attrs: display.Dim | display.Italic}
				}
				got, gotN := memo.Fold(text, base, mode, width, head, tail)
				want, wantN := Fold(text, base, mode, width, head, tail)
				if gotN != wantN || !sameRows(got, want) {
					t.Fatalf("memo fold %q at width %d mode %d: differs from a fresh layout", text, width, mode)
				}
				got, _ = memo.Fold(text, base, mode, width, -1, 0)
				want, _ = Fold(text, base, mode, width, -1, 0)
				if !sameRows(got, want) {
					t.Fatalf("memo unfolded %q at width %d mode %d: differs from a fresh layout", text, width, mode)
				}
				if !sameRows(memo.Rows(text, base, mode, width), Rows(text, base, mode, width)) {
					t.Fatalf("memo rows %q at width %d mode %d: differ from a fresh layout", text, width, mode)
				}
			}
		}
		if rng.IntN(3) == 0 {
			memo.Reset()
		}
	}
}

// sameRows is reflect.DeepEqual with no rows nil or empty alike.
func sameRows(a, b []Row) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

// mdStrings is rows as the bytes a card prints.
func mdStrings(rows []Row, width int) []string {
	p := palette.For(display.SchemeDark)
	out := make([]string, len(rows))
	for i, row := range rows {
		out[i] = p.Padded(row.Line, width, row.Pad)
	}
	return out
}

func TestPlainMarkdown(t *testing.T) {
	plainCount := 0
	for _, s := range plainSeeds {
		if plainMarkdown(s) {
			plainCount++
		}
		for _, w := range []int{1, 3, 8, 20, 80} {
			checkPlain(t, s, w, 2, 1)
			checkPlain(t, s, w, 0, 0)
		}
	}
	if plainCount < 20 {
		t.Errorf("only %d seeds are plain: the fast path is not taken", plainCount)
	}
	// Generated tool output is plain: that is what the fast path is for.
	for _, s := range []string{"0001 the file line\n0002 code", "Quick brown fox. Jumps over the lazy dog."} {
		if !plainMarkdown(s) {
			t.Errorf("plainMarkdown(%q) = false, want true", s)
		}
	}
	// Random bodies from plain words, separators and a few marks.
	rng := rand.New(rand.NewPCG(7, 11))
	parts := []string{"the", "file", "0001", "12", "漢字", "🙂", "e\u0301", ".", ",", "-", "+", "=", "#", "(", ")",
		" ", "  ", "\n", "\n\n", "www", "w.", "x", strings.Repeat("ab", 40), "\u3000", "\u00a0", "1.", "'", `\x1b`, `\`, "[", "]", "(", "[a]", "\\n"}
	for i := range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		checkPlain(t, b.String(), 1+rng.IntN(40), rng.IntN(6), rng.IntN(6))
		_ = i
	}
}

func FuzzPlainMarkdown(f *testing.F) {
	for i, s := range plainSeeds {
		f.Add(s, uint8(i%80), uint8(i%5), uint8(i%3))
	}
	f.Fuzz(func(t *testing.T, text string, width, head, tail uint8) {
		text = display.Escape(text) // markdown sees display-safe text
		checkPlain(t, text, int(width%100)+1, int(head%8), int(tail%8))
		checkFold(t, text, int(width%100)+1, int(head%8), int(tail%8))
	})
}

// TestGenericPlainFold compares generic cards (plain bodies, folded) with
// the card built from every row.
func TestGenericPlainFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 3000 {
		var lines []string
		for range rng.IntN(40) {
			lines = append(lines, fmt.Sprintf("%04d %s", rng.IntN(100), strings.Repeat("word ", rng.IntN(30))+"end"))
			if rng.IntN(8) == 0 {
				lines = append(lines, "")
			}
			if rng.IntN(10) == 0 {
				lines = append(lines, "漢字 "+strings.Repeat("🙂", rng.IntN(30)))
			}
		}
		body := strings.Join(lines, "\n")
		width, maxLines := 1+rng.IntN(60), 1+rng.IntN(12)
		rows := blockRows(body, plain, TextMode, width)
		head, tail := (maxLines+1)/2, maxLines/2
		got, total := Fold(body, plain, TextMode, width, head, tail)
		want := rows
		if len(rows) > maxLines {
			want = append(rows[:head:head], rows[len(rows)-tail:]...)
		}
		if total != len(rows) || !sameRows(got, want) {
			t.Fatalf("case %d: body %q width %d max %d: total %d want %d", i, body, width, maxLines, total, len(rows))
		}
	}
}

// TestSimpleRowsNeedNoRewrap: a line whose every span is simple text
// (display.Simple) wraps into rows no wider than the width, so its rows
// are wrapPad's and a count of them is display.RowCount, as the folds
// assume; drawn from pieces of every kind, the text that is not simple
// left out (some of it does need wrapping again).
func TestSimpleRowsNeedNoRewrap(t *testing.T) {
	pieces := []string{"a", "bb", "word", " ", "  ", "漢字", "·", "，", "👍", "é", "e\u0301", "☺\ufe0f", "☺",
		"🇺🇸", "👨\u200d👩\u200d👧", "x", "\u00a0", "🙂", "ｗ", "\u0e01\u0e33", "가", "ᄀ\u1161", "👋\U0001F3FB", "\u2764", "_*"}
	r := rand.New(rand.NewPCG(21, 22))
	simple := 0
	for range 100000 {
		var l display.Line
		for range 1 + r.IntN(3) {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			l = append(l, display.Span{Text: display.Escape(b.String()), Style: display.Style{Fg: display.Role(r.IntN(3))}})
		}
		if !simpleLine(l) {
			continue
		}
		simple++
		w := 1 + r.IntN(24)
		rows := wrapPad(l, w)
		if again := rewrap(slices.Clone(rows), w); !slices.EqualFunc(again, rows, func(a, b Row) bool { return reflect.DeepEqual(a, b) }) {
			t.Fatalf("%q at %d: rewrap changed its rows", l, w)
		}
		if n := display.RowCount(l, w); n != len(rows) {
			t.Fatalf("%q at %d: %d rows, RowCount %d", l, w, len(rows), n)
		}
	}
	if simple < 10000 {
		t.Fatalf("only %d simple lines", simple)
	}
}
