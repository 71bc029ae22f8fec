// Package swar tests eight bytes of text at once, in one machine word (SIMD
// within a register): the fast paths of the loops that read every byte of
// a drawn row, where most bytes are printable ASCII.
package swar

import "math/bits"

const (
	lsb = 0x0101010101010101 // each byte's low bit
	msb = 0x8080808080808080 // each byte's high bit
)

// Load returns the first eight bytes of s (at least eight long) as a
// little-endian word: one load.
func Load(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Printable reports whether every byte of x is printable ASCII (0x20 to
// 0x7e): none has its high bit set, none is 0x7f (adding one to each byte
// would carry into its high bit) and none is below 0x20 ((x-0x20·lsb) &^ x
// has a high bit set exactly when some byte of x is, for bytes below
// 0x80).
func Printable(x uint64) bool {
	return (x|(x+lsb)|((x-0x20*lsb)&^x))&msb == 0
}

// PrintableRun returns the index past the blocks of eight printable ASCII
// bytes that s[i:] starts with: i when its first eight are not all
// printable or fewer than eight are left. What follows is for the caller
// to read byte by byte.
func PrintableRun(s string, i int) int {
	for i+8 <= len(s) && Printable(Load(s[i:])) {
		i += 8
	}
	return i
}

// ASCIIWithout reports whether every byte of x is ASCII and none is c
// (c < 0x80): a byte equal to c is a zero byte of x^c·lsb, which
// (y-lsb) &^ y & msb finds.
func ASCIIWithout(x uint64, c byte) bool {
	y := x ^ (uint64(c) * lsb)
	return (x|((y-lsb)&^y))&msb == 0
}

// IndexByte returns the index of the first byte of x equal to c, and true;
// or false when none is. The lowest byte (y-lsb) &^ y & msb flags, for
// y = x^c·lsb, is exactly the first zero byte of y: a borrow runs only
// past a zero byte, into the bytes above it.
func IndexByte(x uint64, c byte) (int, bool) {
	y := x ^ (uint64(c) * lsb)
	m := (y - lsb) &^ y & msb
	if m == 0 {
		return 0, false
	}
	return bits.TrailingZeros64(m) / 8, true
}
