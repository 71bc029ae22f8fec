package sessionlog_test

import (
	"encoding/json"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
)

// BenchmarkPlainSeqs holds PlainSeqs to the rule that keeps a fast path: at
// least 1.5× faster than encoding/json on the same seq arrays, in one run.
func BenchmarkPlainSeqs(b *testing.B) {
	var seqs [][]byte
	for _, e := range synthlog.Log(20000) {
		if e.SourceEventSeqs != nil {
			seqs = append(seqs, e.SourceEventSeqs)
		}
	}
	b.Run("fast", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, ok := sessionlog.PlainSeqs(seqs[i%len(seqs)]); !ok {
				b.Fatal("declined")
			}
			i++
		}
	})
	b.Run("json", func(b *testing.B) {
		i := 0
		for b.Loop() {
			var s []int64
			if err := json.Unmarshal(seqs[i%len(seqs)], &s); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
