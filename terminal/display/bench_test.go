package display

import (
	"strings"
	"testing"
)

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
			l := TextLine(in.text, Style{})
			b.ReportAllocs()
			for b.Loop() {
				WrapLine(l, 40)
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
				WrapText(in.text, 40)
			}
		})
	}
}
