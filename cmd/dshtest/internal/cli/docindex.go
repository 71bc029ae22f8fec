package cli

import (
	"math/bits"
	"strings"
)

// payloadMin is the length, in letters and digits, from which a piece of a
// checkpoint's payload is telling enough to look for in a document.
const payloadMin = 24

// docIndex answers "does doc contain s?" for many s of at least k bytes
// without scanning doc for each: a Bloom filter holds a hash of every
// k-byte window of doc, and s can be in doc only if the windows at both
// ends of s are. A string that passes the filter is confirmed with
// strings.Contains, so the answer is exact; the filter only saves the
// scans of the strings doc does not contain, which is the common case.
type docIndex struct {
	doc  string
	k    int
	bits []uint64
	mask uint64
}

// hashBase is the rolling hash's multiplier (an odd 64-bit constant).
const hashBase = 0x100000001b3

// newDocIndex indexes every k-byte window of doc.
func newDocIndex(doc string, k int) *docIndex {
	ix := &docIndex{doc: doc, k: k}
	if len(doc) < k {
		return ix
	}
	// About 16 bits per window: with two probes, a false positive rate
	// near 1.5%.
	n := max(uint64(1)<<bits.Len64(uint64(len(doc)-k+1)*16), 64)
	ix.bits = make([]uint64, n/64)
	ix.mask = n - 1
	var pow uint64 = 1 // hashBase^(k-1)
	for range k - 1 {
		pow *= hashBase
	}
	var h uint64
	for i := range k {
		h = h*hashBase + uint64(doc[i])
	}
	ix.add(h)
	for i := k; i < len(doc); i++ {
		h = (h-uint64(doc[i-k])*pow)*hashBase + uint64(doc[i])
		ix.add(h)
	}
	return ix
}

// probes returns the filter's two bit positions for a window hash.
func (ix *docIndex) probes(h uint64) (uint64, uint64) {
	h *= 0x9e3779b97f4a7c15
	return (h >> 7) & ix.mask, (h>>35 ^ h) & ix.mask
}

func (ix *docIndex) add(h uint64) {
	a, b := ix.probes(h)
	ix.bits[a/64] |= 1 << (a % 64)
	ix.bits[b/64] |= 1 << (b % 64)
}

func (ix *docIndex) has(h uint64) bool {
	a, b := ix.probes(h)
	return ix.bits[a/64]&(1<<(a%64)) != 0 && ix.bits[b/64]&(1<<(b%64)) != 0
}

func windowHash(s string) uint64 {
	var h uint64
	for i := range len(s) {
		h = h*hashBase + uint64(s[i])
	}
	return h
}

// contains reports whether doc contains s.
func (ix *docIndex) contains(s string) bool {
	if len(s) < ix.k || ix.bits == nil {
		return strings.Contains(ix.doc, s)
	}
	if !ix.has(windowHash(s[:ix.k])) || !ix.has(windowHash(s[len(s)-ix.k:])) {
		return false
	}
	return strings.Contains(ix.doc, s)
}
