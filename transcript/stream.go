package transcript

import (
	"slices"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
)

// Streaming: a step's blocks as its assistant/chunk events build them.

// trStream is a step's content as its chunks streamed it: blocks in index
// order (terminal.md §2.3).
type trStream struct {
	index  gapped[int]
	blocks gapped[Block]
	// texts[k], once block k has had a delta, builds its text: a block's
	// text is its builder's, so that each delta costs its own length, where
	// adding it to the text before copied the whole text (a step of 400,000
	// one-byte deltas took 47 s).
	texts gapped[*strings.Builder]
}

// Blocks are the blocks so far, in index order.
func (s *trStream) Blocks() []Block { return s.blocks.all() }

// at returns the position of the block at index, inserting a block of type
// typ there if there is none.
func (s *trStream) at(index int, typ string) int {
	idx := s.index.all()
	k, found := slices.BinarySearch(idx, index)
	if found {
		return k
	}
	s.index.insert(k, index)
	s.blocks.insert(k, Block{Type: typ})
	s.texts.insert(k, nil)
	return k
}

// gapped is a slice that grows at either end: an element inserted before
// the middle moves the ones before it, into room kept at the front, so
// that blocks arriving in falling index order cost no more than in rising
// order (each insertion had moved every block after it: 100,000 blocks in
// falling order took 19 s).
type gapped[T any] struct {
	buf   []T
	off   int // the elements are buf[off:]
	moved int // elements moved by insertions so far (TestStreamIsLinear)
}

func (g *gapped[T]) all() []T { return g.buf[g.off:] }

// insert inserts v at position k of all().
func (g *gapped[T]) insert(k int, v T) {
	n := len(g.buf) - g.off
	if k >= n/2 {
		var zero T
		g.buf = append(g.buf, zero)
		g.moved += copy(g.buf[g.off+k+1:], g.buf[g.off+k:])
		g.buf[g.off+k] = v
		return
	}
	if g.off == 0 {
		// Room at the front as large as the elements.
		room := max(n, 4)
		nb := make([]T, room+n, room+n+max(n, 4))
		g.moved += copy(nb[room:], g.buf)
		g.buf, g.off = nb, room
	}
	g.moved += copy(g.buf[g.off-1:], g.buf[g.off:g.off+k])
	g.off--
	g.buf[g.off+k] = v
}

// set sets block k whole: its text builds afresh from a later delta.
func (s *trStream) set(k int, b Block) {
	s.blocks.all()[k], s.texts.all()[k] = b, nil
}

// add adds a delta to block k's text.
func (s *trStream) add(k int, text string) {
	texts, blocks := s.texts.all(), s.blocks.all()
	b := texts[k]
	if b == nil {
		b = &strings.Builder{}
		b.WriteString(blocks[k].Text)
		texts[k] = b
	}
	b.WriteString(text)
	blocks[k].Text = b.String() // the builder's bytes so far, which it never writes again
}

// apply feeds one chunk and reports whether the blocks changed.
func (s *trStream) apply(c *sessionlog.StreamChunk) bool {
	switch c.Type {
	case "block-start":
		n := len(s.Blocks())
		k := s.at(c.Index, c.BlockType)
		if len(s.Blocks()) == n {
			if s.Blocks()[k] == (Block{Type: c.BlockType}) {
				return false
			}
			s.set(k, Block{Type: c.BlockType})
		}
		return true
	case "text-delta", "reasoning-delta":
		typ := "text"
		if c.Type == "reasoning-delta" {
			typ = "reasoning"
		}
		n := len(s.Blocks())
		k := s.at(c.Index, typ)
		if c.Text != "" {
			s.add(k, c.Text)
		}
		return c.Text != "" || len(s.Blocks()) != n
	case "block-end":
		if c.Block == nil || (c.Block.Type != "text" && c.Block.Type != "reasoning") {
			return false
		}
		b := Block{Type: c.Block.Type, Text: c.Block.Text}
		n := len(s.Blocks())
		k := s.at(c.Index, b.Type)
		if len(s.Blocks()) == n && s.Blocks()[k] == b {
			return false
		}
		s.set(k, b)
		return true
	}
	return false
}
