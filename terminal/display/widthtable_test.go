package display

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wcwidthProgram prints glibc's wcwidth of every code point in C.UTF-8.
const wcwidthProgram = `#define _XOPEN_SOURCE 700
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
int main(void) {
	if (!setlocale(LC_ALL, "C.UTF-8")) return 3;
	for (unsigned c = 0; c < 0x110000; c++) {
		if (c >= 0xd800 && c < 0xe000) continue;
		printf("%x %d\n", c, wcwidth((wchar_t)c));
	}
	return 0;
}
`

// glibcWidths compiles and runs wcwidthProgram. It skips the test, saying
// why, where there is no C compiler or no C.UTF-8 locale; CI has both.
func glibcWidths(t *testing.T) map[rune]int {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no gcc or cc: the width table against glibc's wcwidth needs a C compiler")
		}
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "wcwidth.c")
	if err := os.WriteFile(src, []byte(wcwidthProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "wcwidth")
	if out, err := exec.Command(cc, "-o", bin, src).CombinedOutput(); err != nil {
		t.Skipf("cannot compile the wcwidth helper (%v): %s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Skipf("the wcwidth helper failed (no C.UTF-8 locale?): %v", err)
	}
	m := make(map[rune]int, 1<<20)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r rune
		var w int
		if _, err := fmt.Sscanf(sc.Text(), "%x %d", &r, &w); err != nil {
			t.Fatal(err)
		}
		m[r] = w
	}
	if m['A'] != 1 || m[0x4e00] != 2 || m[0x300] != 0 {
		t.Skip("the C library is not glibc-like (A, U+4E00, U+0300 measure wrong)")
	}
	return m
}

// widerThanGlibc are the code points the renderer measures wider than
// wcwidth, standing alone: rows still fit. Anything else that differs is a
// failure, and a narrower width always is.
var widerThanGlibc = []struct {
	from, to rune
	why      string
}{
	{0x1160, 0x11ff, "Hangul medial and final jamo: 0 in wcwidth, combined in a syllable block"},
	{0x2630, 0x2637, "trigrams: wide in Unicode 15's East Asian Width"},
	{0x268a, 0x268f, "monograms and digrams: wide in Unicode 15"},
	{0xd7b0, 0xd7c6, "Hangul jamo extended-B: 0 in wcwidth"},
	{0xd7cb, 0xd7fb, "Hangul jamo extended-B: 0 in wcwidth"},
	{0x1d300, 0x1d356, "Tai Xuan Jing symbols: wide in Unicode 15"},
	{0x1d360, 0x1d376, "counting rod numerals: wide in Unicode 15"},
	{0x1f1e6, 0x1f1ff, "a regional indicator alone: 2 (a flag's half)"},
}

func knownWider(r rune) bool {
	for _, k := range widerThanGlibc {
		if r >= k.from && r <= k.to {
			return true
		}
	}
	return false
}

// TestWidthTableGlibc measures every code point standing alone (escaped
// as the renderer shows it) and compares with glibc's wcwidth: never
// narrower, and wider only in the ranges listed.
func TestWidthTableGlibc(t *testing.T) {
	glibc := glibcWidths(t)
	bad := 0
	for r := rune(0); r < 0x110000; r++ {
		gw, ok := glibc[r]
		if !ok || gw < 0 || Unsafe(r) {
			continue // surrogates; controls are escaped to ASCII
		}
		s := Escape(string(r))
		ours := TextWidth(s)
		switch {
		case ours < gw:
			t.Errorf("%U: %d cells, narrower than wcwidth's %d: a row with it overflows", r, ours, gw)
			bad++
		case ours > gw && !knownWider(r):
			t.Errorf("%U: %d cells, wider than wcwidth's %d and not listed in widerThanGlibc", r, ours, gw)
			bad++
		}
		if bad > 20 {
			t.Fatal("too many differences")
		}
	}
}

// terminalWidth is the width a code-point terminal (wcwidth) draws: the
// sum of wcwidth, an emoji modifier after a modifier base counting 0 (the
// two are drawn as one emoji).
func terminalWidth(glibc map[rune]int, s string) int {
	w, prev := 0, rune(-1)
	for _, r := range s {
		switch {
		case isModifier(r) && isModifierBase(prev):
		case r == 0xfe0f || r == 0x200d:
		default:
			w += max(glibc[r], 0)
		}
		prev = r
	}
	return w
}

func TestClusterWidths(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{" \U0001F3FB", 3},
		{"x " + strings.Repeat("\U0001F3FB", 30), 62},
		{"a\U0001F3FF", 3},
		{"\U0001F44D\U0001F3FD", 2},           // thumbs up, medium skin tone
		{"\U0001F44D\U0001F3FD\U0001F3FD", 4}, // the second modifier stands alone
		{"\U0001F600\U0001F3FB", 4},           // a grinning face is no modifier base
		{"\u261D\U0001F3FB", 2},               // index pointing up is
		{"\U0001F469\u200D\U0001F4BB", 2},     // ZWJ sequence
		{"x\u00ady", 3},                       // soft hyphen: 1 in wcwidth
		{"\u0600\u0661", 2},                   // a prepended mark and its digit
		{"\u3248", 2},                         // circled number on a black square
		{"e\u0301", 1},                        // combining accent
		{"日本", 4},
	} {
		if got := TextWidth(tc.s); got != tc.want {
			t.Errorf("TextWidth(%+q) = %d, want %d", tc.s, got, tc.want)
		}
		l := Line{{Text: tc.s}}
		n := 0
		for _, c := range Cells(l) {
			n += int(c.Width)
		}
		if n != tc.want {
			t.Errorf("Cells(%+q) sums to %d cells, want %d", tc.s, n, tc.want)
		}
		if fromCells(Cells(l)).Width() != tc.want || fromCells(Cells(l)).PlainText() != tc.s {
			t.Errorf("Cells(%+q) does not round-trip", tc.s)
		}
	}
}
