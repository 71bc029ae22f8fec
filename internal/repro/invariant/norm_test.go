package invariant

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dshtest/dshtest/screen"
)

// rowNormSeeds are rows whose padding meets an escape: a sequence cut by
// the row's end, an OSC swallowing the rest, C1 controls, a reset after
// the padding.
var rowNormSeeds = []string{
	"", " ", "abc", "abc   ", "\x1b[1mabc\x1b[m   ", "abc   \x1b[m", "abc\x1b   ", "abc\x1b[   ",
	"a\x1b]8;;x   ", "a\x1b]8;;x\x07b  ", "a\u009b  ", "\u009d 1 ", "é漢 🙂 1  ", "a\xff  ", "\x1b", "\x1b[31", "x\x1bP q ",
}

// FuzzRowNorm: appendRowNorm, which cuts a row's trailing spaces first,
// keeps what the norm of the whole row keeps.
func FuzzRowNorm(f *testing.F) {
	for _, s := range rowNormSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, row string) {
		checkRowNorm(t, row)
	})
}

func TestRowNorm(t *testing.T) {
	for _, s := range rowNormSeeds {
		checkRowNorm(t, s)
	}
}

func checkRowNorm(t *testing.T, row string) {
	t.Helper()
	want := string(keepLettersDigits(screen.AppendPlain([]byte("x"), row), 1))
	if got := string(appendRowNorm([]byte("x"), row)); got != want {
		t.Fatalf("norm of %q: %q, want %q", row, got, want)
	}
}

// BenchmarkRowNorm reduces a drawn row, styled and padded to 120 cells,
// to its norm.
func BenchmarkRowNorm(b *testing.B) {
	row := "\x1b[33m0001 the file holds one line\x1b[m" + strings.Repeat(" ", 92)
	buf := make([]byte, 0, 256)
	for b.Loop() {
		buf = appendRowNorm(buf[:0], row)
	}
}

// TestKeepLettersDigits holds the filter to its rule, a rune at a time:
// every ASCII byte, and runes beyond it, letters, digits and neither.
func TestKeepLettersDigits(t *testing.T) {
	var in []rune
	for c := rune(0); c < utf8.RuneSelf; c++ {
		in = append(in, c)
	}
	in = append(in, 'é', '漢', '٣', '🙂', '\u00a0', '\u2028', utf8.RuneError)
	for _, r := range in {
		var want string
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			want = string(r)
		}
		if got := string(keepLettersDigits([]byte("x"+string(r)+" "), 1)[1:]); got != want {
			t.Errorf("%U: kept %q, want %q", r, got, want)
		}
	}
}
