package terminal

import (
	"strconv"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// The hot paths' benchmarks: the whole document (Render), one line's wrap
// and a Markdown body's layout. They measure one call each, so that a
// change to a path shows in its own figure.

// BenchmarkRender renders the whole document of a synthetic session of
// 2,800 events (200 turns) at two widths.
func BenchmarkRender(b *testing.B) {
	tr := transcript.Project(synthLog(14*200), transcript.Options{})
	for _, width := range []int{100, 40} {
		b.Run("width="+strconv.Itoa(width), func(b *testing.B) {
			s := Settings{Width: width, Now: frozen()}
			b.ReportAllocs()
			for b.Loop() {
				Render(tr, s)
			}
		})
	}
}

// wrapInputs are lines the wrap benchmarks break: printable ASCII (the
// byte path) and mixed text with wide runes and emoji (the cell path).
var wrapInputs = []struct{ name, text string }{
	{"ascii", strings.Repeat("the quick brown fox jumps over the lazy dog ", 12)},
	{"mixed", strings.Repeat("日本語のテキスト and some words 🙂 e\u0301 ", 12)},
}

// BenchmarkWrapLine wraps one styled line at width 40.
func BenchmarkWrapLine(b *testing.B) {
	for _, in := range wrapInputs {
		b.Run(in.name, func(b *testing.B) {
			l := display.TextLine(in.text, plain)
			b.ReportAllocs()
			for b.Loop() {
				display.WrapLine(l, 40)
			}
		})
	}
}

// BenchmarkWrapText wraps one row of plain text at width 40, as the
// viewer's surface view does.
func BenchmarkWrapText(b *testing.B) {
	for _, in := range wrapInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				display.WrapText(in.text, 40)
			}
		})
	}
}

// markdownInputs are bodies the Markdown benchmarks lay out: plain prose
// (the fast path) and a body of every construct (goldmark's tree).
var markdownInputs = []struct{ name, text string }{
	{"plain", strings.Repeat("0001 the file holds one letter, and so does the next one.\n", 40)},
	{"rich", strings.Repeat("# Heading\n\nSome **bold** and `code` with a [link](https://example.com).\n\n"+
		"- one\n- two\n  1. nested\n\n> quoted *text*\n\n```go\nfunc main() {}\n```\n\n"+
		"| a | b |\n|---|---|\n| 1 | 22 |\n\n---\n\n", 4)},
}

// BenchmarkMarkdown lays out a body at width 80, whole and folded to 3
// head and 3 tail rows.
func BenchmarkMarkdown(b *testing.B) {
	for _, in := range markdownInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				markdown(in.text, plain, mdText, 80)
			}
		})
		b.Run(in.name+"/fold", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				markdownFold(in.text, plain, mdText, 80, 3, 3)
			}
		})
	}
}
