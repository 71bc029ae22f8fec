// Package longline gathers a line longer than a bufio.Reader's buffer from
// the slices ReadSlice returns, each valid only until the next read.
//
// A line is gathered in a buffer reused from line to line while it is
// short. One that outgrows Threshold is gathered in blocks instead and
// joined once: below OwnFrom into a buffer reused too, from it on into an
// allocation of its exact size that the reader gives away with the line
// (Bytes reports it owned), so that whoever keeps the line's bytes need
// not copy them. Appended to one growing buffer, a 40 MB
// line was copied a dozen times over (235 MB allocated, two copies live at
// each step), the buffer, a quarter larger than the line, stayed with the
// reader for the rest of the log, and the decoder copied the line once
// more for its event. A few blocks are kept for the next long line; the
// rest go with the line.
package longline

// Threshold is the length past which a line is gathered in blocks;
// OwnFrom is the length from which it is joined into an allocation of its
// own and given away. A line between the two is joined into a buffer
// reused from line to line: given away, each line of a log of lines of a
// megabyte of padding around a small member was a megabyte of garbage, and
// a log of 600 of them (41 KB compressed) took render to 690 MB.
const (
	Threshold = 1 << 20
	OwnFrom   = 16 << 20
)

// block is the size of a block; spare is how many blocks are kept for the
// next long line.
const (
	block = 1 << 20
	spare = 8
)

// Buffer gathers one line at a time. Its zero value is ready to use.
type Buffer struct {
	small  []byte   // the line while it is short; reused
	blocks [][]byte // the line once it is long, in order
	spare  [][]byte // empty blocks for the next long line
	joined []byte   // a long line below OwnFrom, joined; reused
	n      int      // the length gathered
}

// Reset starts the next line.
func (b *Buffer) Reset() {
	b.keep()
	b.small, b.n = b.small[:0], 0
}

// Len is the length gathered so far.
func (b *Buffer) Len() int { return b.n }

// Add appends a copy of p.
func (b *Buffer) Add(p []byte) {
	if len(b.blocks) == 0 {
		if b.n+len(p) <= Threshold {
			b.small = append(b.small, p...)
			b.n += len(p)
			return
		}
		// Past the threshold: the short part begins the first block.
		b.blocks = append(b.blocks, append(b.newBlock(), b.small...))
		b.small = b.small[:0]
	}
	for len(p) > 0 {
		last := b.blocks[len(b.blocks)-1]
		if len(last) == cap(last) {
			last = b.newBlock()
			b.blocks = append(b.blocks, last)
		}
		k := min(len(p), cap(last)-len(last))
		b.blocks[len(b.blocks)-1] = append(last, p[:k]...)
		b.n += k
		p = p[k:]
	}
}

// newBlock returns an empty block, a spare one if there is one.
func (b *Buffer) newBlock() []byte {
	if k := len(b.spare); k > 0 {
		blk := b.spare[k-1]
		b.spare[k-1] = nil
		b.spare = b.spare[:k-1]
		return blk[:0]
	}
	return make([]byte, 0, block)
}

// keep moves the line's blocks to the spares, up to spare of them, and
// lets the others go.
func (b *Buffer) keep() {
	for i, blk := range b.blocks {
		if len(b.spare) < spare {
			b.spare = append(b.spare, blk[:0])
		}
		b.blocks[i] = nil
	}
	b.blocks = b.blocks[:0]
}

// Bytes returns the line gathered. A line below OwnFrom is a reused
// buffer, valid until the next Reset; a longer one (owned) is a new
// allocation of its exact length that nothing else holds, which the caller
// may keep.
func (b *Buffer) Bytes() (line []byte, owned bool) {
	if len(b.blocks) == 0 {
		return b.small, false
	}
	if b.n < OwnFrom {
		line = b.joined[:0]
		owned = false
	} else {
		line = make([]byte, 0, b.n)
		owned = true
	}
	for _, blk := range b.blocks {
		line = append(line, blk...)
	}
	if !owned {
		b.joined = line
	}
	b.keep()
	return line, owned
}
