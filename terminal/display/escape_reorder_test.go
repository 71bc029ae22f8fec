package display

import (
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"
)

func TestEscapeReordering(t *testing.T) {
	for _, tc := range []struct{ in, text, inline string }{
		{"a\u202eb", `a\u202eb`, `a\u202eb`},
		{"\u202a\u202b\u202c\u202d", `\u202a\u202b\u202c\u202d`, `\u202a\u202b\u202c\u202d`},
		{"\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`, `\u2066\u2067\u2068\u2069`},
		{"\u061c\u200e\u200f", `\u061c\u200e\u200f`, `\u061c\u200e\u200f`},
		{"\ufeffx", `\ufeffx`, `\ufeffx`},
		{"a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"\U000e0000\U000e0041\U000e007f", `\U000e0000\U000e0041\U000e007f`, `\U000e0000\U000e0041\U000e007f`},
		{"\U000e0080", "\U000e0080", "\U000e0080"}, // variation selectors supplement: not a tag
		{"\u200b\u200d\u2060", "\u200b\u200d\u2060", "\u200b\u200d\u2060"},
		{"\u0627\u0644", "\u0627\u0644", "\u0627\u0644"}, // Arabic letters are text
		{"x\n\u202e", "x\n\\u202e", `x\x0a\u202e`},
	} {
		if got := Escape(tc.in); got != tc.text {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.text)
		}
		if got := EscapeInline(tc.in); got != tc.inline {
			t.Errorf("EscapeInline(%q) = %q, want %q", tc.in, got, tc.inline)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":"b"}`, `{"a":"b"}`},
		{"\"\x7f\u0085\u009b\"", `"\u007f\u0085\u009b"`},
		{"\"\u202e\u2066\ufeff\u061c\"", `"\u202e\u2066\ufeff\u061c"`},
		{"\"\U000e0041\"", `"\udb40\udc41"`},
		{"\"\xff\"", `"\ufffd"`},
		{"\"日本🙂 é\"", "\"日本🙂 é\""},
	} {
		got := string(EscapeJSON([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("EscapeJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
		var a, b any
		if err := json.Unmarshal([]byte(got), &b); err != nil {
			t.Errorf("EscapeJSON(%q) = %q: %v", tc.in, got, err)
		}
		if json.Unmarshal([]byte(tc.in), &a); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("EscapeJSON(%q) decodes to %q, want %q", tc.in, b, a)
		}
	}
}

// FuzzEscapeJSON checks that EscapeJSON keeps a JSON value's meaning and
// leaves no byte of DEL or C1, no reordering character and no invalid UTF-8.
func FuzzEscapeJSON(f *testing.F) {
	for _, s := range []string{"", "a", probe, "\u202e\U000e0041\x7f\u009b\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			t.Skip()
		}
		out := EscapeJSON(enc)
		if !utf8.Valid(out) {
			t.Fatalf("EscapeJSON: invalid UTF-8 in %q", out)
		}
		for _, r := range string(out) {
			if r < 0x20 || Unsafe(r) {
				t.Fatalf("EscapeJSON(%q) = %q: contains %U", enc, out, r)
			}
		}
		var a, b map[string]string
		_ = json.Unmarshal(enc, &a)
		if err := json.Unmarshal(out, &b); err != nil || len(a) != len(b) || a[s] != b[s] {
			t.Fatalf("EscapeJSON(%q) = %q changes the value (%v)", enc, out, err)
		}
		for _, inline := range []bool{false, true} {
			for _, r := range escape(s, inline) {
				if (r != '\n' || inline) && Unsafe(r) {
					t.Fatalf("escape(%q, %v) contains %U", s, inline, r)
				}
			}
		}
	})
}
