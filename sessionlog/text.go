package sessionlog

import "strings"

// TrimJS trims leading and trailing white space as JavaScript's
// String.prototype.trim does (Unicode White_Space plus line terminators and
// U+FEFF), which is what upstream's projections use.
func TrimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}
