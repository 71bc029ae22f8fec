package cards

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
	var trace [][]int
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
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
	if found < 0 {
		return nil, false
	}
	// Backtrack from (n, m) through the saved V arrays.
	var rev []diffOp
	x, y := n, m
	for d := found; d > 0; d-- {
		vp := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && vp[off+k-1] < vp[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vp[off+pk]
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
