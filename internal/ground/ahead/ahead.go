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
	room     *Room         // the bytes sent or held and not yet let go; nil if unsized
	returned chan struct{} // the consumer is done with a lent batch
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

// sent is a batch in the pipe, with the slots of room it took.
type sent[B any] struct {
	b     B
	slots int
	lent  bool
}

// Start runs produce on its own goroutine with up to depth batches sent
// ahead of the consumer. produce fills batches (Reuse, else new ones) and
// Sends them; when it returns the consumer's Next reports the end.
func Start[B any](depth int, produce func(p *Pipe[B])) *Pipe[B] {
	return StartSized(depth, 0, nil, produce)
}

// StartSized is Start with the batches ahead also bounded in bytes (a
// Room of depth slots of unit bytes): at most about depth×unit bytes wait
// for the consumer (the batch it holds included), or one batch however
// heavy. A nil size or unit ≤ 0 bounds the batches by number alone.
func StartSized[B any](depth int, unit int64, size func(B) int64, produce func(p *Pipe[B])) *Pipe[B] {
	p := &Pipe[B]{
		returned: make(chan struct{}, 1),
		size:     size,
		batches:  make(chan sent[B], depth),
		free:     make(chan B, depth+2),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if size != nil && unit > 0 { // else the batches channel's depth bounds them
		p.room = NewRoom(depth, unit)
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
	slots := 0
	if p.room != nil {
		var ok bool
		if slots, ok = p.room.Take(p.size(b), p.quit); !ok {
			return false
		}
	}
	select {
	case p.batches <- sent[B]{b, slots, lent}:
		return true
	case <-p.quit:
		return false
	}
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
	p.held, p.heldLent = s.slots, s.lent
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
	if p.held > 0 {
		p.room.Give(p.held)
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

// Room bounds the bytes in flight between a producer and its consumers:
// a batch of size bytes takes size/unit of depth slots (at least one, at
// most depth) until it is given back, so at most about depth×unit bytes
// are in flight, or one batch however heavy. A Pipe started sized holds
// its batches to one; a fan-out to several consumers (repro's feed) gives
// a batch back once the last of them is done with it.
type Room struct {
	slots chan struct{}
	unit  int64
}

// NewRoom returns a Room of depth slots of unit bytes.
func NewRoom(depth int, unit int64) *Room {
	return &Room{slots: make(chan struct{}, max(depth, 1)), unit: max(unit, 1)}
}

// Take waits for the slots of a batch of size bytes and returns how many
// it took; false once quit is closed first. The slots are taken one at a
// time by the one producer, so a heavy batch waits for the room to drain.
func (r *Room) Take(size int64, quit <-chan struct{}) (int, bool) {
	n := int(min(max(size/r.unit, 1), int64(cap(r.slots))))
	for range n {
		select {
		case r.slots <- struct{}{}:
		case <-quit:
			return 0, false
		}
	}
	return n, true
}

// Give gives back n slots Take took.
func (r *Room) Give(n int) {
	for range n {
		<-r.slots
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
