package projection

import (
	"math"
	"math/bits"
)

// variant: 16B blocks of 64 events + chunk of 8 in 12B records
type vBlock struct {
	mask   uint64
	before int32
	_      int32
}
type vChunk8 struct {
	base int32
	d    [8]uint8
}

type vHist struct {
	events     []Event
	contiguous bool
	base       int64
	blocks     []vBlock
	lines      []historyLine
	c12        []historyChunk
	c8         []vChunk8
	wide       []int64
	w12        []int64
	n          int
}

func newVHist(events []Event) *vHist {
	h0 := NewHistory(events)
	h := &vHist{events: events, contiguous: h0.contiguous, base: h0.base, lines: h0.lines, c12: h0.chunks, w12: h0.wide, n: h0.n}
	h.blocks = make([]vBlock, len(events)/64+1)
	var gs []int64
	c := 0
	for i := range events {
		if i%64 == 0 {
			h.blocks[i/64].before = int32(c)
		}
		if historyCounted(&events[i]) {
			h.blocks[i/64].mask |= 1 << (i % 64)
			c++
			gs = append(gs, historyGroupStart(&events[i]))
		}
	}
	if len(events)%64 == 0 {
		h.blocks[len(events)/64].before = int32(c)
	}
	for s := 0; s < len(gs); s += 8 {
		g := gs[s:min(s+8, len(gs))]
		lo, hi := g[0], g[0]
		for _, x := range g {
			lo, hi = min(lo, x), max(hi, x)
		}
		var ch vChunk8
		if d := lo - h.base; d >= math.MinInt32 && d <= math.MaxInt32 && uint64(hi-lo) < 255 {
			ch.base = int32(d)
			for j, x := range g {
				ch.d[j] = uint8(x - lo)
			}
		} else {
			ch.base = int32(len(h.wide))
			for j := range ch.d {
				ch.d[j] = 255
			}
			h.wide = append(h.wide, g...)
		}
		h.c8 = append(h.c8, ch)
	}
	return h
}

func (h *vHist) rankB(i int) int {
	b := &h.blocks[uint(i)/64]
	return int(b.before) + bits.OnesCount64(b.mask&(1<<(uint(i)%64)-1))
}

func (h *vHist) rankL(i int) int {
	l := &h.lines[uint(i)/historyLineEvents]
	r := uint(i) % historyLineEvents
	w := r / 64
	return int(l.before) + int(l.sub[w]) + bits.OnesCount64(l.mask[w]&(1<<(r%64)-1))
}

func (h *vHist) g12(k int) int64 {
	c := &h.c12[uint(k)/historyChunkGroups]
	j := uint(k) % historyChunkGroups
	if d := c.d[j]; d != historyEscape {
		return h.base + int64(c.base) + int64(d)
	}
	return h.w12[int(c.base)+int(j)]
}

func (h *vHist) g8(k int) int64 {
	c := &h.c8[uint(k)/8]
	j := uint(k) % 8
	if d := c.d[j]; d != historyEscape {
		return h.base + int64(c.base) + int64(d)
	}
	return h.wide[int(c.base)+int(j)]
}

func (h *vHist) index(seq int64) int {
	return int(min(max(seq-h.base, 0), int64(len(h.events))))
}

//go:noinline
func (h *vHist) page(beforeSeq int64, maxMessages int, v int) Page {
	if maxMessages <= 0 {
		maxMessages = DefaultHistoryMessages
	}
	end := len(h.events)
	if beforeSeq >= 0 {
		end = h.index(beforeSeq)
	}
	var k int
	if v&1 == 0 {
		k = h.rankL(end)
	} else {
		k = h.rankB(end)
	}
	var cut int64
	if k >= maxMessages {
		if v&2 == 0 {
			cut = h.g12(k - maxMessages)
		} else {
			cut = h.g8(k - maxMessages)
		}
	}
	start := min(h.index(cut), end)
	if !h.contiguous || start == end {
		return historyMakePage(h.events[start:end], beforeSeq, cut)
	}
	return Page{From: h.base + int64(start), To: h.base + int64(end) - 1, Events: h.events[start:end], HasMore: cut > 0}
}
