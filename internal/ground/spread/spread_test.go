package spread

import (
	"runtime"
	"slices"
	"testing"
)

func TestEach(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		for _, n := range []int{0, 1, 2, 7, 1000} {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			got := make([]int, n)
			Each(n, func() func(int) {
				return func(k int) { got[k] += k + 1 }
			})
			want := make([]int, n)
			for k := range want {
				want[k] = k + 1
			}
			if !slices.Equal(got, want) {
				t.Errorf("GOMAXPROCS=%d n=%d: each k once: got %v", procs, n, got)
			}
		}
	}
}

func TestEachPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, n := range []int{1, 100} {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("n=%d: recovered %v, want the worker's panic", n, p)
				}
			}()
			Each(n, func() func(int) {
				return func(k int) {
					if k == n-1 {
						panic("boom")
					}
				}
			})
			t.Errorf("n=%d: Each returned after a worker panicked", n)
		}()
	}
}
