package jsonobj

import "unicode/utf8"

// AppendString appends s as a JSON string the way JSON.stringify writes it,
// which is how every log line the module writes spells its strings (the
// JSONL encoder, the session generator, the scrubber of reproductions):
// only '"', '\\' and C0 controls are escaped (\b \t \n \f \r by name, the
// rest as \u00XX); DEL, C1 controls, U+2028, U+2029 and '<', '>', '&' are
// written raw. Each byte that is not part of valid UTF-8 becomes U+FFFD, as
// decoding would make it.
func AppendString(dst []byte, s string) []byte {
	return append(AppendEscaped(append(dst, '"'), s), '"')
}

// AppendEscaped appends what AppendString writes between the quotes: for a
// writer that spells some characters its own way and the runs between them
// by these rules.
func AppendEscaped(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\uFFFD"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}
