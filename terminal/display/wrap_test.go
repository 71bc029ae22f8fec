package display

import (
	"fmt"
	"slices"
	"testing"
)

func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		width int
		want  []string
	}{
		{"fits", "hello world", 20, []string{"hello world"}},
		{"exact", "hello world", 11, []string{"hello world"}},
		{"word wrap", "hello big world", 10, []string{"hello big", "world"}},
		{"spaces dropped at break", "aaaa    bbbb", 6, []string{"aaaa", "bbbb"}},
		{"long word hard break", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"long word after text", "ab abcdefghij", 4, []string{"ab", "abcd", "efgh", "ij"}},
		{"indent kept on first row", "    code here and more", 12, []string{"    code", "here and", "more"}},
		{"wide runes", "日本語のテキスト", 5, []string{"日本", "語の", "テキ", "スト"}},
		{"wide rune does not split", "a日本", 4, []string{"a日", "本"}},
		{"emoji", "🙂🙂🙂", 4, []string{"🙂🙂", "🙂"}},
		{"width 1 wide rune replaced", "日", 1, []string{"\uFFFD"}},
		{"empty", "", 5, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range WrapLine(TextLine(tc.in, Style{}), tc.width) {
				got = append(got, l.PlainText())
				if w := l.Width(); w > tc.width {
					t.Errorf("row %q is %d cells wide", l.PlainText(), w)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestWrapKeepsStyles(t *testing.T) {
	l := Line{{Text: "run ", Style: Style{}}, {Text: "go test ./...", Style: Style{Fg: FgCode}}, {Text: " now", Style: Style{}}}
	rows := WrapLine(l, 10)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprint(r))
	}
	// The space after the code span carries the span's close: it is not
	// white space to pi-tui, so it opens the next row (presenters.md §3.6).
	want := []string{"[{run  {0 0}} {go {2 0}}]", "[{test ./... {2 0}}]", "[{ now {0 0}}]"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestTruncateLine(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"● Tool / bash", 20, "● Tool / bash"},
		{"● Tool / bash / Run the coverage gate", 18, "● Tool / bash / R…"},
		{"日本語", 4, "日…"},
		{"abc", 1, "…"},
	} {
		if got := TruncateLine(TextLine(tc.in, Style{}), tc.width).PlainText(); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
