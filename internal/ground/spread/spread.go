// Package spread is the one parallel loop: independent pieces of work, a
// function of their index alone, run over the machine's CPUs, so that a
// caller's output is the same whether they ran side by side or in turn.
// The terminal renders a batch of items with it; repro works out what a
// log's texts must show with it.
package spread

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// maxWorkers bounds the goroutines of one loop: past a few, the work's
// hand-over and its memory cost more than another CPU gains.
const maxWorkers = 8

// Workers returns how many goroutines Each runs: GOMAXPROCS, at most 8.
// Below 2, Each runs on the caller's goroutine.
func Workers() int { return min(runtime.GOMAXPROCS(0), maxWorkers) }

// Each calls, for each k in [0, n), a worker made by newWorker, and
// returns once every k is done. A worker holds what is not safe for
// concurrent use, such as a renderer; newWorker is called on each
// worker's goroutine, side by side. The ks are handed out one at a time,
// so that one long piece does not hold up the pieces after it. With one
// worker or one piece, Each runs on the caller's goroutine. A panic of a
// worker is raised again in the caller, once the others have stopped.
//
//	spread.Each(len(texts), func() func(int) {
//		return func(k int) { norms[k] = norm(texts[k]) }
//	})
func Each(n int, newWorker func() func(k int)) {
	workers := min(Workers(), n)
	if workers < 2 {
		if n > 0 {
			each := newWorker()
			for k := range n {
				each(k)
			}
		}
		return
	}
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		mu     sync.Mutex
		raised any
	)
	for range workers {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					if raised == nil {
						raised = p
					}
					mu.Unlock()
					next.Store(int64(n)) // the others stop at their next piece
				}
			}()
			each := newWorker()
			for {
				k := next.Add(1) - 1
				if k >= int64(n) {
					return
				}
				each(int(k))
			}
		})
	}
	wg.Wait()
	if raised != nil {
		panic(raised)
	}
}
