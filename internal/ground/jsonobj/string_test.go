package jsonobj

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestAppendString pins JSON.stringify's spelling byte for byte over the
// strings escapers get wrong: C0 controls, DEL, C1 controls, U+2028 and
// U+2029, HTML's <>&, invalid UTF-8 of each kind, and characters that are
// valid and must pass raw.
func TestAppendString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"q\"b\\s/", `"q\"b\\s/"`},
		{"\x00\x01\a\b\t\n\v\f\r\x0e\x1b\x1f", `"\u0000\u0001\u0007\b\t\n\u000b\f\r\u000e\u001b\u001f"`},
		{"\x7f", "\"\x7f\""},
		{"\u0080\u0085\u009f", "\"\u0080\u0085\u009f\""},
		{"\u2028\u2029", "\"\u2028\u2029\""},
		{"<>&", `"<>&"`},
		{"\xff", "\"\uFFFD\""},
		{"\xc3", "\"\uFFFD\""},
		{"a\xe2\x82b", "\"a\uFFFD\uFFFDb\""},
		{"\xed\xa0\x80", "\"\uFFFD\uFFFD\uFFFD\""},           // an encoded surrogate
		{"\xf4\x90\x80\x80", "\"\uFFFD\uFFFD\uFFFD\uFFFD\""}, // past U+10FFFF
		{"\xc0\xaf", "\"\uFFFD\uFFFD\""},                     // overlong
		{"\uFFFD", "\"\uFFFD\""},
		{"漢字😀e\u0301", "\"漢字😀e\u0301\""},
		{"\u200b\u202e\ufeff\U0010ffff", "\"\u200b\u202e\ufeff\U0010ffff\""},
	} {
		if got := string(AppendString(nil, c.in)); got != c.want {
			t.Errorf("AppendString(%q) = %q, want %q", c.in, got, c.want)
		}
		if got, want := string(AppendEscaped([]byte("x"), c.in)), "x"+c.want[1:len(c.want)-1]; got != want {
			t.Errorf("AppendEscaped(%q) = %q, want %q", c.in, got, want)
		}
	}
}

// FuzzAppendString holds AppendString to valid JSON that decodes to the
// input with each invalid byte replaced by U+FFFD, the only escapes being
// the ones JSON needs.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"\\\n\x1b\x7f\u0085\u2028<>&", "\xff\xed\xa0\x80", "漢😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := AppendString(nil, s)
		if !utf8.Valid(b) {
			t.Fatalf("AppendString(%q) = %q: not UTF-8", s, b)
		}
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("AppendString(%q) = %q: %v", s, b, err)
		}
		var want []rune
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			want = append(want, r)
			i += size
		}
		if got != string(want) {
			t.Fatalf("AppendString(%q) decodes to %q", s, got)
		}
		for i := 1; i < len(b)-1; i++ {
			if b[i] == '\\' {
				if b[i+1] == 'u' && b[i+2] == '0' && b[i+3] == '0' && b[i+4] < '2' || b[i+1] != 'u' {
					i++
					continue
				}
				t.Fatalf("AppendString(%q) = %q: an escape beyond C0", s, b)
			}
		}
	})
}
