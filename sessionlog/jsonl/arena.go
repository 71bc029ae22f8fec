package jsonl

// arena holds the raw members of decoded events (data, surfaceOp,
// sourceEventSeqs) in shared blocks rather than one allocation each.
//
// A log's events are small and many: a real profile averages 75 bytes an
// event. One allocation per member would cost its size class's rounding
// and a heap object for the collector to track, per event. Packing the
// members into 64 KiB blocks leaves the collector a few blocks with no
// pointers in them to scan; a block stays alive while any event slices
// it, so a reader that keeps no events (a streaming pass) frees its
// blocks as it goes.
type arena struct{ block []byte }

const (
	arenaBlock = 64 << 10
	// arenaOwn is the size above which a member gets its own allocation:
	// a big tool output must not pin a block, nor waste one's tail.
	arenaOwn = arenaBlock / 8
)

// copy returns a copy of b that shares no memory with b, or nil for nil.
// The copy's capacity is its length, so an append to it cannot write over
// another event's bytes.
func (a *arena) copy(b []byte) []byte {
	if b == nil {
		return nil
	}
	if len(b) > arenaOwn {
		return append(make([]byte, 0, len(b)), b...)
	}
	if cap(a.block)-len(a.block) < len(b) {
		a.block = make([]byte, 0, arenaBlock)
	}
	n := len(a.block)
	a.block = append(a.block, b...)
	return a.block[n:len(a.block):len(a.block)]
}
