package cli

import (
	"math/rand/v2"
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

// TestDocIndexExact checks docIndex.contains against strings.Contains on
// substrings of the document (always found), altered substrings and random
// strings, short and long.
func TestDocIndexExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 5, 24, 25, 100, 5000} {
		doc := randDoc(r, n)
		ix := newDocIndex(doc, payloadMin)
		for range 2000 {
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
				s = randDoc(r, r.IntN(60))
			}
			if got, want := ix.contains(s), strings.Contains(doc, s); got != want {
				t.Fatalf("doc of %d bytes: contains(%q) = %v, want %v", n, s, got, want)
			}
		}
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
