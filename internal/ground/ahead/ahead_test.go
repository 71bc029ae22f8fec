package ahead

import (
	"runtime"
	"sync/atomic"
	"testing"
)

type batch struct{ n []int }

func produceTo(limit int) func(p *Pipe[batch]) {
	return func(p *Pipe[batch]) {
		b, ok := p.Reuse()
		if !ok {
			b = batch{n: make([]int, 0, 4)}
		}
		for i := 0; i < limit; i++ {
			b.n = append(b.n, i)
			if len(b.n) == 4 {
				if !p.Send(b) {
					return
				}
				if b, ok = p.Reuse(); ok {
					b.n = b.n[:0]
				} else {
					b = batch{n: make([]int, 0, 4)}
				}
			}
		}
		if len(b.n) > 0 {
			p.Send(b)
		}
	}
}

func TestPipeInOrder(t *testing.T) {
	for _, limit := range []int{0, 1, 4, 5, 1000} {
		p := Start(2, produceTo(limit))
		want := 0
		for {
			b, ok := p.Next()
			if !ok {
				break
			}
			for _, v := range b.n {
				if v != want {
					t.Fatalf("limit %d: got %d, want %d", limit, v, want)
				}
				want++
			}
			p.Release(b)
		}
		p.Stop()
		if want != limit {
			t.Fatalf("limit %d: %d values", limit, want)
		}
	}
}

func TestPipeStopsEarly(t *testing.T) {
	p := Start(2, produceTo(1<<20))
	if _, ok := p.Next(); !ok {
		t.Fatal("no batch")
	}
	p.Stop() // the producer is blocked in Send: it must end
	p.Stop()
}

func TestPipePanicReachesConsumer(t *testing.T) {
	p := Start(1, func(p *Pipe[batch]) { panic("boom") })
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v", r)
		}
	}()
	for {
		if _, ok := p.Next(); !ok {
			break
		}
	}
	t.Fatal("Next returned without the producer's panic")
}

func TestGo(t *testing.T) {
	ran := false
	ahead := Go(func() { ran = true })
	ahead()
	if !ran {
		t.Fatal("wait returned before f ran")
	}
	defer func() {
		if p := recover(); p != "boom" {
			t.Fatalf("recovered %v, want the goroutine's panic", p)
		}
	}()
	Go(func() { panic("boom") })()
	t.Fatal("wait did not raise the panic")
}

// TestPipeSized: with StartSized, the bytes sent and not yet taken stay
// within depth×unit, or one batch however heavy (give or take the batch
// the consumer has taken and not yet counted); every batch arrives in
// order.
func TestPipeSized(t *testing.T) {
	const depth, unit = 4, 100
	sizes := []int64{0, 1, 100, 1000, 1000, 1000, 1000, 1000, 50, 250, 1000, 1000, 100, 100, 399, 401, 0, 5}
	for range 20 {
		sizes = append(sizes, sizes[:18]...)
	}
	var sent, taken atomic.Int64
	var over atomic.Int64
	p := StartSized(depth, unit, func(b batch) int64 { return int64(b.n[1]) }, func(p *Pipe[batch]) {
		for i, s := range sizes {
			sent.Add(s)
			if !p.Send(batch{n: []int{i, int(s)}}) {
				return
			}
			// The consumer's latest batch may be taken and not yet counted.
			if q := sent.Load() - taken.Load(); q > depth*unit+2*1000 {
				over.Store(q)
			}
		}
	})
	want := 0
	for {
		b, ok := p.Next()
		if !ok {
			break
		}
		if b.n[0] != want {
			t.Fatalf("batch %d, want %d", b.n[0], want)
		}
		want++
		runtime.Gosched() // let the producer fill the pipe
		taken.Add(int64(b.n[1]))
	}
	p.Stop()
	if want != len(sizes) {
		t.Fatalf("%d batches, want %d", want, len(sizes))
	}
	if q := over.Load(); q != 0 {
		t.Errorf("%d bytes queued, over %d", q, depth*unit)
	}
}

// TestPipeSizedStops: a producer waiting for room for a heavy batch ends
// when the consumer stops.
func TestPipeSizedStops(t *testing.T) {
	p := StartSized(2, 1, func(b batch) int64 { return 1 << 20 }, produceTo(1<<20))
	if _, ok := p.Next(); !ok {
		t.Fatal("no batch")
	}
	p.Stop()
}

// TestPipeLend: a lent batch is the producer's until the consumer is done
// with it: the producer does not go on (here: overwrite its one buffer)
// before the consumer's Release or next Next, and a lent batch is never
// handed to Reuse.

// TestPipeSizedHeld: the batch the consumer holds counts for its bytes
// until it is done with it, so a producer of heavy batches waits for the
// consumer's Release rather than building another behind the one in the
// channel.
func TestPipeSizedHeld(t *testing.T) {
	var built atomic.Int64
	p := StartSized(2, 10, func(b batch) int64 { return 20 }, func(p *Pipe[batch]) {
		for i := range 3 {
			built.Add(1)
			if !p.Send(batch{n: []int{i}}) {
				return
			}
		}
	})
	b, ok := p.Next()
	if !ok {
		t.Fatal("no batch")
	}
	for range 100 {
		runtime.Gosched()
	}
	// Held: batch 0. The producer built batch 1 and waits to send it.
	if n := built.Load(); n != 2 {
		t.Fatalf("%d batches built while the consumer holds a heavy one, want 2", n)
	}
	p.Release(b)
	for {
		if _, ok := p.Next(); !ok {
			break
		}
	}
	p.Stop()
	if n := built.Load(); n != 3 {
		t.Fatalf("%d batches built, want 3", n)
	}
}

// TestPipeLendStops: a producer waiting for a lent batch ends when the
// consumer stops.
func TestPipeLendStops(t *testing.T) {
	p := Start(2, func(p *Pipe[batch]) {
		for p.Lend(batch{n: []int{1}}) {
		}
	})
	if _, ok := p.Next(); !ok {
		t.Fatal("no batch")
	}
	p.Stop()
}

// TestRoom: a batch takes a slot per unit of its bytes, at least one and
// at most depth; Take waits for the slots given back and ends on quit.
func TestRoom(t *testing.T) {
	r := NewRoom(4, 100)
	quit := make(chan struct{})
	for _, tc := range []struct {
		size int64
		want int
	}{{0, 1}, {99, 1}, {250, 2}, {10_000, 4}} {
		n, ok := r.Take(tc.size, quit)
		if !ok || n != tc.want {
			t.Fatalf("Take(%d) = %d, %v; want %d", tc.size, n, ok, tc.want)
		}
		r.Give(n)
	}
	n, _ := r.Take(400, quit) // all of it
	close(quit)
	if _, ok := r.Take(1, quit); ok {
		t.Fatal("Take on a full room returned after quit")
	}
	r.Give(n)
}
