package invariant

import (
	"math/rand/v2"
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
}

// TestCountsBelow checks the one-pass count against strings.Count: texts
// in order, out of order, repeated, overlapping and absent.
func TestCountsBelow(t *testing.T) {
	tests := []struct {
		doc   string
		texts []string
		want  []string
	}{
		{"helloworldagain", []string{"hello", "world", "again"}, nil},
		{"helloworldagain", []string{"again", "hello", "world"}, nil},
		{"helloworldagain", []string{"hello", "missing", "again"}, []string{"missing"}},
		{"okokok", []string{"ok", "ok", "ok"}, nil},
		{"okokok", []string{"ok", "ok", "ok", "ok"}, []string{"ok"}},
		{"aaa", []string{"aa", "aa"}, []string{"aa"}}, // Count("aaa","aa") is 1
		{"xaax", []string{"xa", "ax", ""}, nil},
		{"abcabc", []string{"bc", "abc", "abc"}, nil},
	}
	for _, tt := range tests {
		need := map[string]int{}
		for _, s := range tt.texts {
			need[s]++
		}
		got := countsBelow(tt.doc, tt.texts, need)
		want := map[string]bool{}
		for _, s := range tt.want {
			want[s] = true
		}
		// The definition: fewer than need occurrences by strings.Count.
		for s, k := range need {
			if s != "" && (strings.Count(tt.doc, s) < k) != want[s] {
				t.Fatalf("test table wrong for %q in %q", s, tt.doc)
			}
		}
		if len(got) != len(want) {
			t.Errorf("countsBelow(%q, %q) = %v, want %v", tt.doc, tt.texts, got, want)
			continue
		}
		for s := range want {
			if !got[s] {
				t.Errorf("countsBelow(%q, %q) = %v, want %v", tt.doc, tt.texts, got, want)
			}
		}
	}
}
