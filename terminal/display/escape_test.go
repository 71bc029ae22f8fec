package display

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// probe is upstream's untrusted-text probe: ESC ] 2 ; … BEL TAB DEL U+009B 31m.
const probe = "\x1b]2;snapshot-controlled\x07\t\x7f\u009b31m"

// probeShown is how the probe displays.
const probeShown = `\x1b]2;snapshot-controlled\x07\x09\x7f\x9b31m`

func TestEscape(t *testing.T) {
	for _, tc := range []struct {
		name, in, text, inline string
	}{
		{"plain", "hello", "hello", "hello"},
		{"empty", "", "", ""},
		{"probe", probe, probeShown, probeShown},
		{"upstream probe with prefix", "Unsafe user " + probe, "Unsafe user " + probeShown, "Unsafe user " + probeShown},
		{"LF kept, inline escaped", "a\nb", "a\nb", `a\x0ab`},
		{"CR", "a\r\nb", "a\\x0d\nb", `a\x0d\x0ab`},
		{"NUL and US", "\x00\x1f", `\x00\x1f`, `\x00\x1f`},
		{"VT FF", "\v\f", `\x0b\x0c`, `\x0b\x0c`},
		{"DEL", "\x7f", `\x7f`, `\x7f`},
		{"C1 range", "\u0080\u0085\u009f", `\x80\x85\x9f`, `\x80\x85\x9f`},
		{"NBSP is not C1", "\u00a0é", "\u00a0é", "\u00a0é"},
		{"CSI cursor move", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`, `\x1b[2J\x1b[H`},
		{"OSC title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`, `\x1b]0;pwned\x07`},
		{"invalid UTF-8 byte", "a\xffb", "a\uFFFDb", "a\uFFFDb"},
		{"raw C1 byte (invalid UTF-8)", "a\x9bb", "a\uFFFDb", "a\uFFFDb"},
		{"truncated sequence", "\xe2\x80", "\uFFFD\uFFFD", "\uFFFD\uFFFD"},
		{"wide and emoji untouched", "日本🙂", "日本🙂", "日本🙂"},
		{"backslash untouched", `a\x1b`, `a\x1b`, `a\x1b`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Escape(tc.in); got != tc.text {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.text)
			}
			if got := EscapeInline(tc.in); got != tc.inline {
				t.Errorf("EscapeInline(%q) = %q, want %q", tc.in, got, tc.inline)
			}
		})
	}
}

// FuzzEscape checks that no escaped string can carry a control
// character (other than LF for Escape) or invalid UTF-8, and that safe
// text is unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "a", probe, "a\nb", "\xff\x9b", "\u009b", "日本",
		// isSafe's eight-byte runs, and what ends one.
		"abcdefgh\x1b[31m", "abcdefghijklmnop\n", "abcdefgh\u202e", "abcdefgh\x7f", "abcdefgh\xc2\x9b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, inline := range []bool{false, true} {
			out := escape(s, inline)
			if !utf8.ValidString(out) {
				t.Fatalf("escape(%q, %v) = %q: invalid UTF-8", s, inline, out)
			}
			for _, r := range out {
				if (r < 0x20 && (r != '\n' || inline)) || (r >= 0x7f && r <= 0x9f) {
					t.Fatalf("escape(%q, %v) = %q: contains %U", s, inline, out, r)
				}
			}
			if isSafe(s, inline) != (out == s) {
				t.Fatalf("isSafe(%q, %v) = %v but escape changed=%v", s, inline, isSafe(s, inline), out != s)
			}
			if inline && strings.Contains(out, "\n") {
				t.Fatalf("inline escape kept a newline")
			}
		}
	})
}
