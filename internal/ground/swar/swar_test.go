package swar

import (
	"math/rand/v2"
	"testing"
)

// TestWords holds each test to its byte-at-a-time rule on words of every
// byte at every position, and on random words.
func TestWords(t *testing.T) {
	check := func(b [8]byte) {
		s := string(b[:])
		x := Load(s)
		for i := range 8 {
			if byte(x>>(8*i)) != b[i] {
				t.Fatalf("Load(%q) byte %d = %#x", s, i, byte(x>>(8*i)))
			}
		}
		printable, noESC := true, true
		for _, c := range b {
			printable = printable && c >= 0x20 && c < 0x7f
			noESC = noESC && c < 0x80 && c != 0x1b
		}
		if got := Printable(x); got != printable {
			t.Fatalf("Printable(%q) = %v", s, got)
		}
		if got := ASCIIWithout(x, 0x1b); got != noESC {
			t.Fatalf("ASCIIWithout(%q, ESC) = %v", s, got)
		}
		for _, c := range []byte{' ', 0x1b, 0x00, 0x80, 0xff} {
			want, wantOK := 0, false
			for i, b := range b {
				if b == c {
					want, wantOK = i, true
					break
				}
			}
			if got, ok := IndexByte(x, c); ok != wantOK || got != want {
				t.Fatalf("IndexByte(%q, %#x) = %d, %v; want %d, %v", s, c, got, ok, want, wantOK)
			}
		}
	}
	for pos := range 8 {
		for c := range 256 {
			b := [8]byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
			b[pos] = byte(c)
			check(b)
			b = [8]byte{0x1b, 0x7f, 0x1f, 0x20, 0x7e, 0x80, 0xff, 0x00}
			b[pos] = byte(c)
			check(b)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var b [8]byte
		for i := range b {
			// Mostly the bytes around the edges the tests draw.
			switch r.IntN(4) {
			case 0:
				b[i] = byte(r.IntN(256))
			case 1:
				b[i] = []byte{0x1a, 0x1b, 0x1c, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80}[r.IntN(9)]
			default:
				b[i] = byte(0x20 + r.IntN(0x5f))
			}
		}
		check(b)
	}
}

// TestPrintableRun: the run ends at the first block of eight that holds a
// byte other than printable ASCII, or where fewer than eight are left.
func TestPrintableRun(t *testing.T) {
	for _, tt := range []struct {
		s       string
		i, want int
	}{
		{"", 0, 0},
		{"short", 0, 0},
		{"abcdefgh", 0, 8},
		{"abcdefghijklmnop", 0, 16},
		{"abcdefghijklmnopq", 0, 16},
		{"abcdefgh\x1bjklmnop", 0, 8},
		{"abc\ndefghijklmnop", 0, 0},
		{"abcdefghijklmnop", 3, 11},
		{"abcdefgh\u00e9ijklmnop", 0, 8},
		{"abcdefg\x7f", 0, 0},
	} {
		if got := PrintableRun(tt.s, tt.i); got != tt.want {
			t.Errorf("PrintableRun(%q, %d) = %d, want %d", tt.s, tt.i, got, tt.want)
		}
	}
}
