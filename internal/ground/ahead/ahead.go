// Package ahead is the one read-ahead of the reading path: a producer runs
// on a goroutine of its own and hands its work to the consumer a batch at a
// time, so that the two proceed side by side, and the consumer gives each
// batch back to be filled again, so that a long read allocates a few
// batches, not one per step. The reader scans a container's lines ahead of
// decoding them (sessionlog/reader); the loader decodes events ahead of
// folding them and of what a command does with them (load).
//
// A batch is whatever the caller fills: a struct of slices it truncates and
// appends to. A panic of the producer is raised again in the consumer.
//
// The batches held ahead are bounded in number and, with [StartSized], in
// bytes: a batch of one line of megabytes counts for as many batches as it
// is heavy, so that a log of huge lines is not held ahead by the dozen
// megabytes (a read's memory is a budget of its text). The batch the
// consumer holds counts until it is done with it. A producer may also lend
// a batch ([Pipe.Lend]): hand over its own buffer instead of a copy and
// wait until the consumer is done with it, so that a line of megabytes is
// held once, not once per stage.
//
// [Go] is the same hand-over without batches: one piece of work run ahead
// of the caller, which waits for it and receives its panic.
package ahead

import "sync"

// Pipe carries batches of type B from a producer goroutine to a consumer.
type Pipe[B any] struct {
	batches  chan sent[B]
	free     chan B
	room     chan struct{} // a token per slot sent or held and not yet let go
	returned chan struct{} // the consumer is done with a lent batch
	unit     int64
	size     func(B) int64
	quit     chan struct{}
	done     chan struct{}
	once     sync.Once
	panic    any // the producer's, once done is closed

	// The consumer's: the slots of the batch it holds, and whether it
	// was lent.
	held     int
	heldLent bool
}

// sent is a batch in the pipe.
type sent[B any] struct {
	b    B
	lent bool
}

// Start runs produce on its own goroutine with up to depth batches sent
// ahead of the consumer. produce fills batches (Reuse, else new ones) and
// Sends them; when it returns the consumer's Next reports the end.
func Start[B any](depth int, produce func(p *Pipe[B])) *Pipe[B] {
	return StartSized(depth, 0, nil, produce)
}

// StartSized is Start with the batches ahead also bounded in bytes: a
// batch of size(b) bytes takes size(b)/unit of the depth slots (at least
// one, at most depth), so at most about depth×unit bytes wait for the
// consumer (the one it holds included), or one batch however heavy. A nil
// size or unit ≤ 0 counts every batch as one slot.
func StartSized[B any](depth int, unit int64, size func(B) int64, produce func(p *Pipe[B])) *Pipe[B] {
	if size == nil || unit <= 0 {
		size, unit = nil, 1 // the batches channel's depth bounds them
	}
	p := &Pipe[B]{
		room:     make(chan struct{}, max(depth, 1)),
		returned: make(chan struct{}, 1),
		unit:     unit,
		size:     size,
		batches:  make(chan sent[B], depth),
		free:     make(chan B, depth+2),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go func() {
		defer close(p.done)
		defer close(p.batches)
		defer func() { p.panic = recover() }()
		produce(p)
	}()
	return p
}

// Reuse returns a batch the consumer gave back, if one is waiting: the
// producer truncates and fills it again.
func (p *Pipe[B]) Reuse() (B, bool) {
	select {
	case b := <-p.free:
		return b, true
	default:
		var zero B
		return zero, false
	}
}

// Send hands b to the consumer; false once the consumer has stopped (the
// producer then returns).
func (p *Pipe[B]) Send(b B) bool { return p.send(b, false) }

// Lend hands b to the consumer as Send does and waits until the consumer
// is done with it (its Release, or its next Next), so that b may hold the
// producer's own buffers, which it reuses once Lend returns; false once the
// consumer has stopped. A lent batch is never given back to Reuse.
func (p *Pipe[B]) Lend(b B) bool {
	if !p.send(b, true) {
		return false
	}
	select {
	case <-p.returned:
		return true
	case <-p.quit:
		return false
	}
}

func (p *Pipe[B]) send(b B, lent bool) bool {
	for range p.slots(b) {
		select {
		case p.room <- struct{}{}:
		case <-p.quit:
			return false
		}
	}
	select {
	case p.batches <- sent[B]{b, lent}:
		return true
	case <-p.quit:
		return false
	}
}

// slots is how many of the depth slots b takes, 0 in a pipe not sized
// (its batches channel alone bounds it). The one producer takes them one
// at a time, so a heavy batch waits for the queue to drain.
func (p *Pipe[B]) slots(b B) int {
	if p.size == nil {
		return 0
	}
	return int(min(max(p.size(b)/p.unit, 1), int64(cap(p.room))))
}

// Next returns the next batch; false once the producer is done (its
// panic, if any, is raised here). The consumer is done with the batch
// Next returned before, if it has not released it.
func (p *Pipe[B]) Next() (B, bool) {
	p.letGo()
	s, ok := <-p.batches
	if !ok {
		p.wait()
		return s.b, false
	}
	p.held, p.heldLent = p.slots(s.b), s.lent
	return s.b, true
}

// Release gives b, the batch Next returned last, back to the producer to
// fill again: the consumer holds nothing of it any more.
func (p *Pipe[B]) Release(b B) {
	if p.letGo() {
		return
	}
	select {
	case p.free <- b:
	default:
	}
}

// letGo ends the consumer's hold of its batch: its slots are room again,
// and a lent batch is returned (reported true).
func (p *Pipe[B]) letGo() (lent bool) {
	for range p.held {
		<-p.room
	}
	p.held = 0
	if lent = p.heldLent; lent {
		p.heldLent = false
		select {
		case p.returned <- struct{}{}:
		default: // the producer has stopped waiting
		}
	}
	return lent
}

// Stop ends the producer (its next Send fails) and waits for it; it may be
// called more than once, and after the end.
func (p *Pipe[B]) Stop() {
	p.once.Do(func() { close(p.quit) })
	p.wait()
}

func (p *Pipe[B]) wait() {
	<-p.done
	if r := p.panic; r != nil {
		p.panic = nil // raised once
		panic(r)
	}
}

// Go runs f on a goroutine of its own and returns a function that waits for
// it to return and raises its panic, if any, again in the caller.
func Go(f func()) (wait func()) {
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	return func() {
		if p := <-done; p != nil {
			panic(p)
		}
	}
}
