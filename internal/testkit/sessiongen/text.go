package sessiongen

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/logbuild"
)

var words = strings.Fields(`the a of to and in is it that for on with as this be are
was by file line code test run build fix error value list read write open close
session log event step turn tool call result model user assistant context surface
replay live render width cell row column wrap fold page marker summary compact prune
go main func struct map slice string int byte rune buffer scanner parser token
README src docs config path directory branch commit diff patch merge release
quick brown fox jumps over lazy dog lorem ipsum dolor sit amet consectetur`)

// Hostile fragments: terminal controls, escape sequences and runes whose
// display width is not one cell.
var (
	c0Controls = []string{"\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x0e", "\x1a", "\x1c", "\x1f", "\r", "\t", "\x7f"}
	c1Controls = []string{"\u0080", "\u0085", "\u008d", "\u008e", "\u0090", "\u009b", "\u009c", "\u009d", "\u009f"}
	escapes    = []string{
		"\x1b[31m", "\x1b[0m", "\x1b[1;4;38;5;196m", "\x1b[2J", "\x1b[H", "\x1b[10;20H", "\x1b[K",
		"\x1b]0;owned title\x07", "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\",
		"\x1b]52;c;aGVsbG8=\x07", "\x1bP+q544e\x1b\\", "\x1b[?1049h", "\x1b[?25l", "\x1bc",
		"\x1b[", "\x1b", "\x1b[6n", "\x9b31m", "\x1b[200~", "\x1b(0lqk\x1b(B",
	}
	wideRunes = []string{
		"漢字", "日本語のテキスト", "한국어", "中文字符宽度", "🙂", "👩‍💻", "🇯🇵", "👍🏽", "❤️", "🧑‍🤝‍🧑",
		"e\u0301", "a\u0308\u0323", "\u200b", "\u200d", "\u2028", "\u2029", "\ufeff", "\u00ad",
		"\u202e reversed \u202c", "ｆｕｌｌ ｗｉｄｔｈ", "Ａ", "\u3000", "\U0001F600", "ﷺ", "\u0e01\u0e34\u0e4a",
		"\u1100\u1161\u11a8",
	}
	brokenUTF8 = []string{"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		string(loneSurrogate), string(escapedPair)}
	markdownBits = []string{"# Heading", "## Sub heading", "- item one\n- item two", "1. first\n2. second",
		"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```", "`inline code`", "**bold** and _italic_",
		"> quoted line", "| a | b |\n|---|---|\n| 1 | 2 |", "---", "[link](https://example.com)",
		"    indented code block", "```\nunterminated fence"}
)

// texter draws text from the generator's random source.
type texter struct{ g *gen }

func (t texter) word() string { return pick(t.g, words) }

func (t texter) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.word())
	}
	return b.String()
}

// sentence is a capitalised run of words ending in a full stop.
func (t texter) sentence() string {
	n := 3 + t.g.intn(10)
	switch t.g.cfg.Terse {
	case 0:
	case 1:
		n = 3 + t.g.intn(7)
	default:
		n = 1 + t.g.intn(3)
	}
	s := t.words(n)
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// plain is one to four short paragraphs of ordinary prose, sometimes with
// Markdown.
func (t texter) plain() string {
	if t.g.cfg.Terse > 0 {
		s := t.sentence()
		if t.g.cfg.Terse == 1 && t.g.chance(0.3) {
			s += " " + t.sentence()
		}
		if t.g.chance(0.03) {
			s += "\n\n" + pick(t.g, markdownBits)
		}
		return s
	}
	var paras []string
	for range 1 + t.g.intn(3) {
		var p []string
		for range 1 + t.g.intn(4) {
			p = append(p, t.sentence())
		}
		paras = append(paras, strings.Join(p, " "))
		if t.g.chance(0.2) {
			paras = append(paras, pick(t.g, markdownBits))
		}
	}
	return strings.Join(paras, "\n\n")
}

// hostileBit is one fragment a terminal must neutralise or measure right.
func (t texter) hostileBit() string {
	switch t.g.intn(7) {
	case 0:
		return pick(t.g, c0Controls)
	case 1:
		return pick(t.g, c1Controls)
	case 2, 3:
		return pick(t.g, escapes)
	case 4:
		return pick(t.g, wideRunes)
	case 5:
		return pick(t.g, brokenUTF8)
	default:
		return t.longLine()
	}
}

// longLine is a line of 200 to 2,000 characters with no newline; a third of
// them have no spaces at all, so wrapping must break inside a word.
func (t texter) longLine() string {
	n := 200 + t.g.intn(1800)
	var b strings.Builder
	spaced := !t.g.chance(0.33)
	for b.Len() < n {
		if spaced {
			b.WriteString(t.word())
			b.WriteByte(' ')
		} else {
			b.WriteString(pick(t.g, []string{"x", "ab", "漢", "-", "_", "0", "🙂", "é"}))
		}
	}
	return b.String()
}

// hostile mixes prose and hostile fragments, including leading and
// trailing white space.
func (t texter) hostile() string {
	var b strings.Builder
	if t.g.chance(0.2) {
		b.WriteString(pick(t.g, []string{"  ", "\n", "\t", " \n \n", "\u3000"}))
	}
	for range 2 + t.g.intn(6) {
		if t.g.chance(0.5) {
			b.WriteString(t.words(1 + t.g.intn(6)))
		} else {
			b.WriteString(t.hostileBit())
		}
		b.WriteString(pick(t.g, []string{" ", " ", "\n", "", "\n\n", "  "}))
	}
	if t.g.chance(0.2) {
		b.WriteString(pick(t.g, []string{"  ", "\n", "\t\n"}))
	}
	return b.String()
}

// text is displayed text: mostly prose, hostile with the configured
// probability.
func (t texter) text() string {
	if t.g.chance(t.g.cfg.Hostile) {
		return t.hostile()
	}
	return t.plain()
}

// prompt is a human prompt; one in twenty is white space only, which the
// transcript must skip.
func (t texter) prompt() string {
	if t.g.chance(0.05) {
		return pick(t.g, []string{"", "   ", "\n\t\n", "\u3000"})
	}
	if t.g.chance(t.g.cfg.Hostile) {
		return t.hostile()
	}
	s := t.sentence()
	if t.g.cfg.Terse == 0 && t.g.chance(0.3) {
		s += "\n\n" + t.plain()
	}
	return s
}

// toolOutput is a tool's output text. A huge one exceeds the pruner's
// threshold of 8,192 code points, with wide runes so that code points,
// bytes and cells all differ.
func (t texter) toolOutput(huge bool) string {
	if !huge {
		nLines, nWords := 1+t.g.intn(12), 10
		switch t.g.cfg.Terse {
		case 0:
		case 1:
			nLines, nWords = 1+t.g.intn(3), 4
		default:
			nLines, nWords = 1, 3
		}
		var lines []string
		for i := range nLines {
			l := fmt.Sprintf("%04d %s", i+1, t.words(1+t.g.intn(nWords)))
			if t.g.chance(t.g.cfg.Hostile / 3) {
				l += " " + t.hostileBit()
			}
			lines = append(lines, l)
		}
		if t.g.chance(0.1) {
			return strings.Join(lines, "\r\n")
		}
		return strings.Join(lines, "\n")
	}
	target := logbuild.DefaultPruneConfig().ThresholdChars + 1 + t.g.intn(6000)
	var b strings.Builder
	n := 0
	for i := 1; n <= target; i++ {
		l := fmt.Sprintf("%05d %s", i, t.words(4+t.g.intn(12)))
		if t.g.chance(0.1) {
			l += " " + pick(t.g, wideRunes)
		}
		if t.g.chance(t.g.cfg.Hostile / 4) {
			l += " " + t.hostileBit()
		}
		l += "\n"
		b.WriteString(l)
		n += utf8.RuneCountInString(l)
	}
	return b.String()
}

func pick[T any](g *gen, xs []T) T { return xs[g.intn(len(xs))] }
