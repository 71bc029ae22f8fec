package terminal

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMarkdownTables: the ranges cover each table's rows, from the header
// to the end of the last row's line, and nothing else.
func TestMarkdownTables(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"no table", "a - b | c", nil},
		{"a table between paragraphs", "See:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter",
			[]string{"| a | b |\n|---|---|\n| 1 | 2 |"}},
		{"a row's extra cell, as a following image block makes it", "See:\n\n| a | b |\n|---|---|\n| 1 | 2 |[image]",
			[]string{"| a | b |\n|---|---|\n| 1 | 2 |[image]"}},
		{"a table right after a paragraph line", "intro\n| a |\n| - |\n| x |",
			[]string{"| a |\n| - |\n| x |"}},
		{"a last row of empty cells", "| a | b |\n|---|---|\n| | |\n\nend",
			[]string{"| a | b |\n|---|---|\n| | |"}},
		{"a table in a quote, and a second one", "> | a |\n> |---|\n> | 1 |\n\n| b |\n|---|",
			[]string{"| a |\n> |---|\n> | 1 |", "| b |\n|---|"}},
		{"a delimiter row that does not match the header", "| a | b |\n|---|\n| 1 | 2 |", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, r := range MarkdownTables(tt.text) {
				got = append(got, tt.text[r[0]:r[1]])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("MarkdownTables(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// FuzzMarkdownTables: on any text the ranges are in bounds, in order and
// apart, and each holds a '|' (every table row does).
func FuzzMarkdownTables(f *testing.F) {
	for _, s := range []string{"| a | b |\n|---|---|\n| 1 | 2 |[image]", "> | a |\n> |---|\n", "- | a |\n  | - |\n  | x |", "|-|\n|-|"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		at := 0
		for _, r := range MarkdownTables(text) {
			if r[0] < at || r[1] < r[0] || r[1] > len(text) {
				t.Fatalf("range %v after %d in a text of %d bytes", r, at, len(text))
			}
			if !strings.Contains(text[r[0]:r[1]], "|") {
				t.Fatalf("range %v holds no '|': %q", r, text[r[0]:r[1]])
			}
			at = r[1]
		}
	})
}
