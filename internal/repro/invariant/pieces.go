package invariant

import (
	"strings"
)

// payloadMin is the length, in letters and digits, from which a piece of a
// checkpoint's payload is telling enough to look for in a document.
const payloadMin = 24

// pieceFinder answers "which of these strings does doc contain?" for many
// strings in one pass over doc (Rabin–Karp with many patterns): the hash
// of each string's first k bytes goes in a table; a rolling hash of every
// k-byte window of doc is looked up in it (through a small bit filter that
// stays in cache), and a string whose first window matches is confirmed
// byte for byte, so the answer is exact. A string shorter than k, and one
// whose first window keeps matching without the rest (a prefix doc
// repeats), is left to strings.Contains, or, when they are many, to a
// rolling hash of each of their lengths (lengthIndex).
type pieceFinder struct {
	k      int
	pieces []string
	first  map[uint64][]int // first-window hash → indices of pieces
	filter []uint64         // bit h&filterMask of every first-window hash
	short  []int            // pieces shorter than k
}

// hashBase is the rolling hash's multiplier (an odd 64-bit constant).
const hashBase = 0x100000001b3

// filterBits is the size of the first-window filter: 64 Kib, 8 KiB.
const filterBits = 1 << 16

// maxProbes is how many times a piece's first window may match doc
// without the piece before the piece is left to strings.Contains.
const maxProbes = 64

func newPieceFinder(pieces []string, k int) *pieceFinder {
	f := &pieceFinder{k: k, pieces: pieces, first: map[uint64][]int{}, filter: make([]uint64, filterBits/64)}
	for i, p := range pieces {
		if len(p) < k {
			f.short = append(f.short, i)
			continue
		}
		h := windowHash(p[:k])
		f.first[h] = append(f.first[h], i)
		f.filter[h%filterBits/64] |= 1 << (h % 64)
	}
	return f
}

// maxLen is the length of the longest piece.
func (f *pieceFinder) maxLen() int {
	n := 0
	for _, p := range f.pieces {
		n = max(n, len(p))
	}
	return n
}

func windowHash(s string) uint64 {
	var h uint64
	for i := range len(s) {
		h = h*hashBase + uint64(s[i])
	}
	return h
}

// find returns, for each piece, whether doc contains it.
func (f *pieceFinder) find(doc string) []bool {
	found := make([]bool, len(f.pieces))
	var slow []int // pieces for strings.Contains
	slow = append(slow, f.short...)
	if len(f.first) > 0 && len(doc) >= f.k {
		probes := make([]int, len(f.pieces))
		left := len(f.pieces) - len(f.short)
		var pow uint64 = 1 // hashBase^(k-1)
		for range f.k - 1 {
			pow *= hashBase
		}
		h := windowHash(doc[:f.k])
		for i := 0; ; i++ {
			if f.filter[h%filterBits/64]&(1<<(h%64)) != 0 {
				for _, p := range f.first[h] {
					if found[p] || probes[p] < 0 {
						continue
					}
					if strings.HasPrefix(doc[i:], f.pieces[p]) {
						found[p] = true
						left--
					} else if probes[p]++; probes[p] == maxProbes {
						probes[p] = -1
						slow = append(slow, p)
						left--
					}
				}
				if left == 0 {
					break
				}
			}
			if i+f.k >= len(doc) {
				break
			}
			h = (h-uint64(doc[i])*pow)*hashBase + uint64(doc[i+f.k])
		}
	}
	if len(slow) <= fewPatterns {
		for _, p := range slow {
			found[p] = strings.Contains(doc, f.pieces[p])
		}
		return found
	}
	// Many: a search of doc for each had cost the pieces times the
	// document (thousands of a checkpoint's lines whose beginning the
	// conversation repeats); a rolling hash of each length costs the
	// document once per length.
	pats := make([]string, len(slow))
	for i, p := range slow {
		pats[i] = f.pieces[p]
		found[p] = pats[i] == "" // as strings.Contains finds it
	}
	newLengthIndex(pats).scan([]byte(doc), 0, func(i, _ int) { found[slow[i]] = true })
	return found
}
