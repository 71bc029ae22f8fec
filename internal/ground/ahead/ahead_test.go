package ahead

import (
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
