package cli

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestRowSpool: what a spool is written, in writes of any size across its
// chunks, it holds and writes out whole, in order, and it counts.
func TestRowSpool(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s rowSpool
	var want bytes.Buffer
	for i := range 300 {
		p := bytes.Repeat([]byte{byte('a' + i%26)}, r.IntN(3*spoolChunk/100))
		if i%97 == 0 {
			p = bytes.Repeat([]byte{'Z'}, spoolChunk+r.IntN(spoolChunk)) // past a whole chunk
		}
		if n, err := s.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write of %d bytes = %d, %v", len(p), n, err)
		}
		want.Write(p)
	}
	var got bytes.Buffer
	if n, err := s.WriteTo(&got); err != nil || n != int64(want.Len()) || s.n != int64(want.Len()) {
		t.Fatalf("WriteTo = %d, %v; held %d; want %d", n, err, s.n, want.Len())
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("the spool wrote other bytes than it was written")
	}
}
