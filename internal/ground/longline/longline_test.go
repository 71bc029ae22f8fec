package longline

import (
	"bytes"
	"testing"
)

// TestBuffer: whatever the pieces, Bytes is their concatenation; a line
// of OwnFrom or more is a new allocation of its exact length (owned), a
// shorter one a reused buffer; and each line starts empty, blocks kept
// from the line before or not.
func TestBuffer(t *testing.T) {
	piece := func(n int, c byte) []byte { return bytes.Repeat([]byte{c}, n) }
	for _, tc := range []struct {
		name   string
		pieces []int
		owned  bool
	}{
		{"empty", nil, false},
		{"one short piece", []int{10}, false},
		{"at the threshold", []int{Threshold / 2, Threshold / 2}, false},
		{"one past it", []int{Threshold / 2, Threshold/2 + 1}, false},
		{"one huge piece", []int{5*block + 3}, false},
		{"many reads", []int{64 << 10, 64 << 10, 3 << 20, 1, 64 << 10, 2*block - 7}, false},
		{"past the spares", []int{(spare + 3) * block}, false},
		{"just below OwnFrom", []int{OwnFrom - 1}, false},
		{"at OwnFrom", []int{OwnFrom/2 + 5, OwnFrom/2 - 5}, true},
		{"past OwnFrom, many reads", []int{64 << 10, OwnFrom, 7}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b Buffer
			for round := range 3 { // the same line again, spares in use
				b.Reset()
				var want []byte
				for i, n := range tc.pieces {
					p := piece(n, byte('a'+(i+round)%26))
					want = append(want, p...)
					b.Add(p)
				}
				if b.Len() != len(want) {
					t.Fatalf("round %d: Len %d, want %d", round, b.Len(), len(want))
				}
				got, owned := b.Bytes()
				if !bytes.Equal(got, want) || owned != tc.owned {
					t.Fatalf("round %d: %d bytes, owned %t; want %d, owned %t", round, len(got), owned, len(want), tc.owned)
				}
				if owned && cap(got) != len(got) {
					t.Fatalf("round %d: an owned line of %d bytes has capacity %d", round, len(got), cap(got))
				}
				if len(b.spare) > spare {
					t.Fatalf("round %d: %d spare blocks kept", round, len(b.spare))
				}
			}
		})
	}
}

// TestOwnedIsNotReused: an owned line is not written over by the lines
// read after it.
func TestOwnedIsNotReused(t *testing.T) {
	var b Buffer
	b.Add(bytes.Repeat([]byte("x"), OwnFrom))
	first, owned := b.Bytes()
	if !owned {
		t.Fatal("a line of OwnFrom bytes is not owned")
	}
	for _, n := range []int{3 * block, OwnFrom} { // a joined line, and another owned one
		b.Reset()
		b.Add(bytes.Repeat([]byte("y"), n))
		b.Bytes()
	}
	if bytes.Count(first, []byte("x")) != OwnFrom {
		t.Fatal("the owned line was written over")
	}
}

// FuzzBuffer: Bytes is the concatenation of the pieces added, line after
// line.
func FuzzBuffer(f *testing.F) {
	f.Add([]byte("abc"), uint16(3), uint8(2))
	f.Add([]byte("0123456789"), uint16(60000), uint8(40))
	f.Fuzz(func(t *testing.T, unit []byte, repeat uint16, pieces uint8) {
		if len(unit) == 0 {
			return
		}
		var b Buffer
		for range 2 {
			b.Reset()
			var want []byte
			for range pieces % 64 {
				p := bytes.Repeat(unit, int(repeat)%(2*Threshold/len(unit)+1))
				want = append(want, p...)
				b.Add(p)
			}
			if got, _ := b.Bytes(); !bytes.Equal(got, want) {
				t.Fatalf("%d bytes gathered, want %d", len(got), len(want))
			}
		}
	})
}
