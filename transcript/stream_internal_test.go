package transcript

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
)

// naiveStream is trStream's rule written plainly: blocks by index, a
// delta added to its block's text, a block-start or block-end setting its
// block whole.
type naiveStream map[int]Block

func (n naiveStream) apply(c *sessionlog.StreamChunk) {
	switch c.Type {
	case "block-start":
		n[c.Index] = Block{Type: c.BlockType}
	case "text-delta", "reasoning-delta":
		b, ok := n[c.Index]
		if !ok {
			b.Type = map[string]string{"text-delta": "text", "reasoning-delta": "reasoning"}[c.Type]
		}
		b.Text += c.Text
		n[c.Index] = b
	case "block-end":
		if c.Block != nil && (c.Block.Type == "text" || c.Block.Type == "reasoning") {
			n[c.Index] = Block{Type: c.Block.Type, Text: c.Block.Text}
		}
	}
}

func (n naiveStream) blocks() []Block {
	keys := make([]int, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Block, len(keys))
	for i, k := range keys {
		out[i] = n[k]
	}
	return out
}

// TestStreamOrders: whatever order the chunks name their blocks in
// (rising, falling, at random), and however their deltas interleave with
// block starts and ends, a step's streamed blocks are the plain rule's,
// after every chunk; the texts handed out before stay as they were.
func TestStreamOrders(t *testing.T) {
	for _, order := range []string{"rising", "falling", "random", "one block"} {
		t.Run(order, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(order))))
			var s trStream
			want := naiveStream{}
			var kept []Block // a snapshot of the blocks handed out earlier
			var keptWant []Block
			for i := range 3000 {
				var idx int
				switch order {
				case "rising":
					idx = i / 3
				case "falling":
					idx = 10000 - i/3
				case "random":
					idx = r.IntN(500)
				case "one block":
					idx = 0
				}
				c := sessionlog.StreamChunk{Type: "text-delta", Index: idx, Text: string(rune('a' + r.IntN(26)))}
				switch r.IntN(20) {
				case 0:
					c = sessionlog.StreamChunk{Type: "block-start", Index: idx, BlockType: "reasoning"}
				case 1:
					c = sessionlog.StreamChunk{Type: "block-end", Index: idx, Block: &sessionlog.ContentBlock{Type: "text", Text: "whole"}}
				case 2:
					c.Type = "reasoning-delta"
				}
				s.apply(&c)
				want.apply(&c)
				if got, w := s.Blocks(), want.blocks(); !slices.Equal(got, w) {
					t.Fatalf("chunk %d (%+v): blocks %v, want %v", i, c, got, w)
				}
				if i == 1500 {
					kept, keptWant = slices.Clone(s.Blocks()), want.blocks()
				}
			}
			if !slices.Equal(kept, keptWant) {
				t.Fatal("blocks handed out earlier changed")
			}
		})
	}
}

// TestStreamIsLinear: a step of many one-byte deltas allocates about as
// much as its text, not its square (the whole text had been copied at
// each delta), and blocks arriving in rising or falling index order move
// about as many blocks as they are (each had moved every block after it).
func TestStreamIsLinear(t *testing.T) {
	const n = 20000
	for _, tc := range []struct {
		name  string
		index func(i int) int
		limit float64 // bytes allocated
	}{
		{"one block", func(int) int { return 0 }, 1 << 20},
		{"rising blocks", func(i int) int { return i }, 16 << 20},
		{"falling blocks", func(i int) int { return n - i }, 16 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunks := make([]sessionlog.StreamChunk, n)
			for i := range chunks {
				chunks[i] = sessionlog.StreamChunk{Type: "text-delta", Index: tc.index(i), Text: "x"}
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var s trStream
			for i := range chunks {
				s.apply(&chunks[i])
			}
			runtime.ReadMemStats(&after)
			if alloc := float64(after.TotalAlloc - before.TotalAlloc); alloc > tc.limit {
				t.Errorf("%d chunks allocate %.0f bytes, over %.0f", n, alloc, tc.limit)
			}
			if moved := s.blocks.moved; moved > 4*n {
				t.Errorf("%d chunks moved %d blocks, over %d", n, moved, 4*n)
			}
		})
	}
}
