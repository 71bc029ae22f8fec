package markdown

import (
	"strings"
	"testing"
)

// markdownInputs are bodies the Markdown benchmarks lay out: plain prose
// (the fast path), tool output that is not plain but holds no link
// (goldmark's tree, without the autolinks' parser) and a body of every
// construct (goldmark's tree).
var markdownInputs = []struct{ name, text string }{
	{"plain", strings.Repeat("0001 the file holds one letter, and so does the next one.\n", 40)},
	{"output", strings.Repeat("0001 the file_ holds -_x one letter, and so does the next one.\n", 40)},
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
				Rows(in.text, plain, TextMode, 80)
			}
		})
		b.Run(in.name+"/fold", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Fold(in.text, plain, TextMode, 80, 3, 3)
			}
		})
	}
}
