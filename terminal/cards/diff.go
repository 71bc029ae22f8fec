package cards

import "sync"

// diffOp is one line of a line diff.
type diffOp struct {
	kind byte // ' ' equal, '-' removed, '+' added
	text string
}

// lineDiff computes a shortest line diff of a and b (Myers' O(ND)
// algorithm). It gives up and reports ok == false when more than maxEdits
// lines would have to be removed or added. Within each changed stretch the
// removed lines come before the added ones.
func lineDiff(a, b []string, maxEdits int) (ops []diffOp, ok bool) {
	// Common prefix and suffix cost nothing.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	mid, ok := myers(ma, mb, maxEdits)
	if !ok {
		return nil, false
	}
	for _, s := range a[:pre] {
		ops = append(ops, diffOp{' ', s})
	}
	ops = append(ops, mid...)
	for _, s := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', s})
	}
	return ops, true
}

// traceBuf holds myers' trace buffers between calls: a card of many diffs
// reuses one; maxTraceKept is the largest made ahead and kept, in values
// (the trace of 1,000 edits is a million, 4 MB).
var traceBuf = sync.Pool{New: func() any { return new([]int32) }}

const maxTraceKept = 2 << 20

func myers(a, b []string, maxEdits int) ([]diffOp, bool) {
	n, m := len(a), len(b)
	if n+m == 0 {
		return nil, true
	}
	if n+m > 0 && (n == 0 || m == 0) {
		if n+m > maxEdits {
			return nil, false
		}
		return group(nil, a, b), true
	}
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	// Step d reads and writes only diagonals -d-1…d+1 of v: the trace
	// keeps that stretch of each step, one after another in one slice of
	// int32 (a copy of the whole of v at each step had made a diff of
	// 1,000 edits allocate 16 MB).
	tr := traceBuf.Get().(*[]int32)
	defer traceBuf.Put(tr)
	if need := (limit+1)*(limit+3) + 3; cap(*tr) < need && need <= maxTraceKept {
		*tr = make([]int32, 0, need) // the most the steps can take: grown by appends, it was copied again and again
	}
	trace := (*tr)[:0]
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		for _, x := range v[off-d-1 : off+d+2] {
			trace = append(trace, int32(x))
		}
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if cap(trace) <= maxTraceKept {
		*tr = trace
	}
	if found < 0 {
		return nil, false
	}
	// vAt is v at step d's start, on diagonal k (|k| ≤ d+1): step d's
	// stretch starts (d)² + 2d… into the trace (the stretches before it
	// hold 2e+3 values each, e < d).
	vAt := func(d, k int) int { return int(trace[d*d+2*d+(k+d+1)]) }
	// Backtrack from (n, m) through the saved V arrays.
	var rev []diffOp
	x, y := n, m
	for d := found; d > 0; d-- {
		k := x - y
		var pk int
		if k == -d || (k != d && vAt(d, k-1) < vAt(d, k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vAt(d, pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{' ', a[x]})
		}
		if x == px {
			y--
			rev = append(rev, diffOp{'+', b[y]})
		} else {
			x--
			rev = append(rev, diffOp{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, diffOp{' ', a[x]})
	}
	ops := make([]diffOp, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		ops = append(ops, rev[i])
	}
	return regroup(ops), true
}

// regroup orders every changed stretch as removals, then additions.
func regroup(ops []diffOp) []diffOp {
	out := make([]diffOp, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		var del, add []string
		for ; j < len(ops) && ops[j].kind != ' '; j++ {
			if ops[j].kind == '-' {
				del = append(del, ops[j].text)
			} else {
				add = append(add, ops[j].text)
			}
		}
		out = group(out, del, add)
		i = j
	}
	return out
}

func group(out []diffOp, del, add []string) []diffOp {
	for _, s := range del {
		out = append(out, diffOp{'-', s})
	}
	for _, s := range add {
		out = append(out, diffOp{'+', s})
	}
	return out
}
