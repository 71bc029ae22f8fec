package invariant

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// randDoc returns a document over a small alphabet, so that substrings
// recur and the filter is exercised on near misses.
func randDoc(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "abcd0"[r.IntN(5)]
	}
	return string(b)
}

// TestPieceFinderExact checks pieceFinder.find against strings.Contains on
// substrings of the document (always found), altered substrings and random
// strings, short and long, many at a time; over a small alphabet, so that
// first windows recur and pieces are left to strings.Contains.
func TestPieceFinderExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 5, 24, 25, 100, 5000} {
		doc := randDoc(r, n)
		for _, alphabet := range []string{"abcd0", "ab"} {
			var pieces []string
			for range 500 {
				var s string
				switch r.IntN(3) {
				case 0:
					if n == 0 {
						continue
					}
					i := r.IntN(n)
					s = doc[i : i+r.IntN(n-i+1)]
				case 1:
					if n == 0 {
						continue
					}
					i := r.IntN(n)
					b := []byte(doc[i : i+r.IntN(n-i+1)])
					if len(b) > 0 {
						b[r.IntN(len(b))] = 'z'
					}
					s = string(b)
				default:
					b := make([]byte, r.IntN(60))
					for i := range b {
						b[i] = alphabet[r.IntN(len(alphabet))]
					}
					s = string(b)
				}
				pieces = append(pieces, s)
			}
			got := newPieceFinder(pieces, payloadMin).find(doc)
			for i, s := range pieces {
				if want := strings.Contains(doc, s); got[i] != want {
					t.Fatalf("doc of %d bytes: find %q = %v, want %v", n, s, got[i], want)
				}
			}
		}
	}
	// A piece whose first window the doc repeats many times over.
	doc := strings.Repeat("a", 10000) + "b"
	pieces := []string{strings.Repeat("a", 30) + "c", strings.Repeat("a", 40) + "b", strings.Repeat("a", 24)}
	got := newPieceFinder(pieces, payloadMin).find(doc)
	if !slices.Equal(got, []bool{false, true, true}) {
		t.Fatalf("repeated prefix: %v", got)
	}
	// Thousands of them, of several lengths, each found or not as
	// strings.Contains says: a search of the document each had cost the
	// pieces times the document.
	doc = strings.Repeat(strings.Repeat("a", 30)+"z", 2000) + "a" + strings.Repeat("a", 24) + "00001234"
	pieces = nil
	for i := range 3000 {
		pieces = append(pieces, strings.Repeat("a", 24+i%7)+fmt.Sprintf("%08d", i*617%5000))
	}
	got = newPieceFinder(pieces, payloadMin).find(doc)
	for i, p := range pieces {
		if want := strings.Contains(doc, p); got[i] != want {
			t.Fatalf("many repeated prefixes: %q found %v, want %v", p, got[i], want)
		}
	}
}

// TestSearchDoc checks the streamed search of a document's norm, read in
// chunks of every size, against its definition: a text lacks when the
// document holds it fewer times (strings.Count, non-overlapping) than the
// texts do; texts in order, out of order, repeated, overlapping and
// absent, then random ones. The marker count and the payload pieces are
// checked alike against bytes.Count and find over the whole document.
func TestSearchDoc(t *testing.T) {
	tests := []struct {
		doc   string
		texts []string
	}{
		{"helloworldagain", []string{"hello", "world", "again"}},
		{"helloworldagain", []string{"again", "hello", "world"}},
		{"helloworldagain", []string{"hello", "missing", "again"}},
		{"okokok", []string{"ok", "ok", "ok"}},
		{"okokok", []string{"ok", "ok", "ok", "ok"}},
		{"aaa", []string{"aa", "aa"}}, // Count("aaa","aa") is 1
		{"xaax", []string{"xa", "ax"}},
		{"abcabc", []string{"bc", "abc", "abc"}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		doc, texts := randTexts(rng, "ab", 60, 6, 5)
		tests = append(tests, struct {
			doc   string
			texts []string
		}{doc, texts})
	}
	for _, tt := range tests {
		seed := maphash.MakeSeed()
		var shown []shownText
		for _, x := range tt.texts {
			shown = append(shown, shownText{kind: "assistant", text: x, norms: [][]byte{[]byte(x)}, keys: []uint64{normKey(seed, x)}})
		}
		pieces := []string{"ab" + strings.Repeat("a", payloadMin), strings.Repeat("b", payloadMin)}
		doc := tt.doc + strings.Repeat("b", rng.IntN(2)*payloadMin)
		in := newSizeInputs(shown, seed, &payloads{newPieceFinder(pieces, payloadMin), []int{0, 1}}, 2)
		in.marker = []byte("ab")
		for _, size := range []int{1, 2, 3, 7, len(doc) + 1} {
			chunks := make(chan normPiece, len(doc)+1)
			for i := 0; i < len(doc); i += size {
				chunks <- normPiece{chunk: []byte(doc[i:min(i+size, len(doc))])}
			}
			close(chunks)
			found := in.searchDoc(chunks)
			got := in.lacking(found, func(yield func(string) bool) { yield(doc) })
			for _, x := range tt.texts {
				need := 0
				for _, y := range tt.texts {
					if y == x {
						need++
					}
				}
				if want := strings.Count(doc, x) < need; got[normKey(seed, x)] != want {
					t.Fatalf("doc %q in chunks of %d, texts %q: %q lacking %v, want %v", doc, size, tt.texts, x, !want, want)
				}
			}
			if want := strings.Count(doc, "ab"); found.markers != want {
				t.Fatalf("doc %q in chunks of %d: %d markers, want %d", doc, size, found.markers, want)
			}
			if want := newPieceFinder(pieces, payloadMin).find(doc); !slices.Equal(found.pieces, want) {
				t.Fatalf("doc %q in chunks of %d: pieces %v, want %v", doc, size, found.pieces, want)
			}
		}
	}
}

// TestMultiCounter counts many patterns at once, in chunks of every size,
// as strings.Count counts each over the whole document.
func TestMultiCounter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 500 {
		doc, pats := randTexts(rng, "aab", 80, 8, 6)
		for _, size := range []int{1, 2, 3, 5, 16, len(doc) + 1} {
			m := newMultiCounter(pats)
			for i := 0; i < len(doc); i += size {
				m.add([]byte(doc[i:min(i+size, len(doc))]))
			}
			for i, p := range pats {
				if want := strings.Count(doc, p); m.n[i] != want {
					t.Fatalf("doc %q in chunks of %d: %q counted %d times, want %d", doc, size, p, m.n[i], want)
				}
			}
		}
	}
}

// TestLackingIsLinear: an answer drawn above its prompt leaves every
// stretch of it unfound, and lacking counts them all. Thousands of them
// had each held a copy of every chunk of the document.
func TestLackingIsLinear(t *testing.T) {
	const n = 20000
	var shown []shownText
	var doc strings.Builder
	seed := maphash.MakeSeed()
	for i := range n {
		x := fmt.Sprintf("w%dx", i)
		doc.WriteString(x)
		shown = append(shown, shownText{kind: "assistant", text: x, norms: [][]byte{[]byte(x)}, keys: []uint64{normKey(seed, x)}})
	}
	in := newSizeInputs(shown, seed, nil, 0)
	var f docFindings
	for i := range n {
		f.unfound = append(f.unfound, textNorm{i, shown[i].text})
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	if got := in.lacking(f, func(yield func(string) bool) { yield(doc.String()) }); len(got) != 0 {
		t.Fatalf("%d lacking, want none", len(got))
	}
	runtime.ReadMemStats(&ms)
	// A counter each had allocated a copy of the document: gigabytes.
	if used := ms.TotalAlloc - before; used > 1024*n {
		t.Errorf("%d bytes allocated for %d patterns in a document of %d bytes", used, n, doc.Len())
	}
}

// randTexts returns a random document of fewer than docMax bytes over
// alphabet, and from 1 to nMax texts: most cut from the document (up to
// lenMax+1 bytes), the others random words of up to lenMax bytes.
func randTexts(rng *rand.Rand, alphabet string, docMax, nMax, lenMax int) (doc string, texts []string) {
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	doc = word(rng.IntN(docMax))
	for range rng.IntN(nMax) + 1 {
		if len(doc) > 0 && rng.IntN(3) > 0 {
			i := rng.IntN(len(doc))
			texts = append(texts, doc[i:i+1+rng.IntN(min(lenMax+1, len(doc)-i))])
		} else {
			texts = append(texts, word(rng.IntN(lenMax)+1))
		}
	}
	return doc, texts
}
