package terminal

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDisplayText(t *testing.T) {
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
			if got := DisplayText(tc.in); got != tc.text {
				t.Errorf("DisplayText(%q) = %q, want %q", tc.in, got, tc.text)
			}
			if got := DisplayInlineText(tc.in); got != tc.inline {
				t.Errorf("DisplayInlineText(%q) = %q, want %q", tc.in, got, tc.inline)
			}
		})
	}
}

// FuzzDisplayText checks that no escaped string can carry a control
// character (other than LF for displayText) or invalid UTF-8, and that safe
// text is unchanged.
func FuzzDisplayText(f *testing.F) {
	for _, s := range []string{"", "a", probe, "a\nb", "\xff\x9b", "\u009b", "日本"} {
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

// TestDisplayTextMatchesUntrustedControls checks the escaper against every
// probe-carrying transcript row of upstream's untrusted-controls snapshot.
func TestDisplayTextMatchesUntrustedControls(t *testing.T) {
	rows := upstreamRows(t, "untrusted-controls", 3, 25)
	prefixes := map[int]string{6: "Unsafe reasoning ", 7: "Unsafe assistant ", 11: "Unsafe user ",
		15: "● Tool / unsafe / Unsafe description ", 16: "$ Unsafe title ", 17: "/unsafe/",
		18: "Unsafe output ", 22: "Context · unsafe-", 23: "Unsafe context ", 25: "Unsafe turn error "}
	for row, prefix := range prefixes {
		want := rows[row-3].TrimRight()
		if got := prefix + DisplayInlineText(probe); got != want {
			t.Errorf("row %d: got %q, want %q", row, got, want)
		}
	}
	if got, want := "[signal SIG"+DisplayInlineText(probe)+"]", rows[19-3].TrimRight(); got != want {
		t.Errorf("row 19: got %q, want %q", got, want)
	}
}
