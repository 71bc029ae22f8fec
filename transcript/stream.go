package transcript

import "github.com/dshtest/dshtest/sessionlog"

// Streaming: a step's blocks as its assistant/chunk events build them.

// trStream is a step's content as its chunks streamed it: blocks in index
// order (terminal.md §2.3).
type trStream struct {
	index  []int
	blocks []Block
}

// at returns the position of the block at index, inserting a block of type
// typ there if there is none.
func (s *trStream) at(index int, typ string) int {
	k := len(s.index)
	for k > 0 && s.index[k-1] >= index {
		k--
	}
	if k < len(s.index) && s.index[k] == index {
		return k
	}
	s.index = append(s.index, 0)
	s.blocks = append(s.blocks, Block{})
	copy(s.index[k+1:], s.index[k:])
	copy(s.blocks[k+1:], s.blocks[k:])
	s.index[k], s.blocks[k] = index, Block{Type: typ}
	return k
}

// apply feeds one chunk and reports whether the blocks changed.
func (s *trStream) apply(c *sessionlog.StreamChunk) bool {
	switch c.Type {
	case "block-start":
		n := len(s.blocks)
		k := s.at(c.Index, c.BlockType)
		if len(s.blocks) == n {
			if s.blocks[k] == (Block{Type: c.BlockType}) {
				return false
			}
			s.blocks[k] = Block{Type: c.BlockType}
		}
		return true
	case "text-delta", "reasoning-delta":
		typ := "text"
		if c.Type == "reasoning-delta" {
			typ = "reasoning"
		}
		n := len(s.blocks)
		k := s.at(c.Index, typ)
		s.blocks[k].Text += c.Text
		return c.Text != "" || len(s.blocks) != n
	case "block-end":
		if c.Block == nil || (c.Block.Type != "text" && c.Block.Type != "reasoning") {
			return false
		}
		b := Block{Type: c.Block.Type, Text: c.Block.Text}
		n := len(s.blocks)
		k := s.at(c.Index, b.Type)
		if len(s.blocks) == n && s.blocks[k] == b {
			return false
		}
		s.blocks[k] = b
		return true
	}
	return false
}
