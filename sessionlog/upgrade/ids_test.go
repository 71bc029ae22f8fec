package upgrade

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestIDTable: the table answers as a map whose last write wins, for
// ascending seqs, repeated ones, seqs that go back, and seqs never set.
func TestIDTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		seqs []int64
	}{
		{"none", nil},
		{"ascending", []int64{1, 2, 5, 9}},
		{"repeated", []int64{1, 2, 2, 3}},
		{"back", []int64{4, 7, 5, 9, 7, 10, 4}},
		{"negative", []int64{-3, -1, 0, 2}},
	} {
		var tab idTable
		want := map[int64][]byte{}
		for i, seq := range tc.seqs {
			id := []byte(fmt.Sprintf(`"m-%d"`, i))
			tab.set(seq, id)
			want[seq] = bytes.Clone(id)
			id[1] = 'X' // the table holds a copy
		}
		for seq := int64(-5); seq <= 12; seq++ {
			if got := tab.get(seq); !bytes.Equal(got, want[seq]) {
				t.Errorf("%s: get(%d) = %s, want %s", tc.name, seq, got, want[seq])
			}
		}
	}
	// Random runs, mostly ascending as logs are.
	r := rand.New(rand.NewPCG(1, 2))
	for run := range 200 {
		var tab idTable
		want := map[int64][]byte{}
		seq := int64(0)
		for i := range r.IntN(50) {
			if r.IntN(10) == 0 {
				seq -= int64(r.IntN(5))
			} else {
				seq += int64(r.IntN(3))
			}
			id := []byte(fmt.Sprintf(`"%d-%d"`, run, i))
			tab.set(seq, id)
			want[seq] = id
		}
		for s := seq - 60; s <= seq+5; s++ {
			if got := tab.get(s); !bytes.Equal(got, want[s]) {
				t.Fatalf("run %d: get(%d) = %s, want %s", run, s, got, want[s])
			}
		}
	}
}
