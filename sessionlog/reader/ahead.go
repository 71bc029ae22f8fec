package reader

import (
	"sync"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog/container"
)

// The container's lines are scanned ahead on a goroutine of their own, so
// that scanning (framing, decompression, the torn-tail rules) and
// decoding (upgrades, the decoder, recovery) proceed side by side: on a
// big log they are about a third and two thirds of a read.
//
// The scanner sends batches of lines, copied out of its buffers; the
// stream hands each batch's buffer back once it has read every line of
// it (nothing a line is read into keeps the line's bytes: the decoder
// copies what it keeps). Everything else the stream asks of the container
// (its verdict and torn tails) it asks once the scanner is done, which the
// closing of the batches channel says.
type lineBatch struct {
	lines   []container.Line
	buf     []byte
	members []fastjson.Span // the lines' Members, one after another
}

const (
	aheadLines   = 256
	aheadBatches = 4
)

// lineScanner is the goroutine reading the container ahead of the stream.
type lineScanner struct {
	batches chan lineBatch
	free    chan lineBatch
	quit    chan struct{}
	done    chan struct{}
	cur     lineBatch
	i       int
	once    sync.Once
}

func startScanner(lg *container.Log) *lineScanner {
	sc := &lineScanner{
		batches: make(chan lineBatch, aheadBatches),
		free:    make(chan lineBatch, aheadBatches+2),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	go func() {
		defer close(sc.done)
		defer close(sc.batches)
		b := sc.batch()
		for lg.Next() {
			ln := lg.Line()
			start, m := len(b.buf), len(b.members)
			b.buf = append(b.buf, ln.Data...)
			b.members = append(b.members, ln.Members...)
			cp := container.Line{Pos: ln.Pos, Data: b.buf[start:len(b.buf):len(b.buf)]}
			if ln.Members != nil {
				cp.Members = b.members[m:len(b.members):len(b.members)]
			}
			b.lines = append(b.lines, cp)
			if len(b.lines) == aheadLines {
				if !sc.send(b) {
					return
				}
				b = sc.batch()
			}
		}
		if len(b.lines) > 0 {
			sc.send(b)
		}
	}()
	return sc
}

// batch returns an empty batch, reusing a buffer the stream gave back.
// A line's Data slices buf, which grows by append: the lines are
// re-sliced into the final buffer when the batch is sent (fix), so the
// arrays buf outgrew can go.
func (sc *lineScanner) batch() lineBatch {
	select {
	case b := <-sc.free:
		return lineBatch{lines: b.lines[:0], buf: b.buf[:0], members: b.members[:0]}
	default:
		return lineBatch{lines: make([]container.Line, 0, aheadLines), buf: make([]byte, 0, 64<<10),
			members: make([]fastjson.Span, 0, 8*aheadLines)}
	}
}

func (sc *lineScanner) send(b lineBatch) bool {
	fix(&b)
	select {
	case sc.batches <- b:
		return true
	case <-sc.quit:
		return false
	}
}

// fix points each line's Data and Members into the batch's final buffers.
func fix(b *lineBatch) {
	off, moff := 0, 0
	for i := range b.lines {
		n := len(b.lines[i].Data)
		b.lines[i].Data = b.buf[off : off+n : off+n]
		off += n
		if ms := b.lines[i].Members; ms != nil {
			b.lines[i].Members = b.members[moff : moff+len(ms) : moff+len(ms)]
			moff += len(ms)
		}
	}
}

// next returns the next line, or false once the container has no more.
func (sc *lineScanner) next() (container.Line, bool) {
	for sc.i >= len(sc.cur.lines) {
		if sc.cur.lines != nil {
			select {
			case sc.free <- sc.cur:
			default:
			}
		}
		b, ok := <-sc.batches
		if !ok {
			sc.cur = lineBatch{}
			return container.Line{}, false
		}
		sc.cur, sc.i = b, 0
	}
	ln := sc.cur.lines[sc.i]
	sc.i++
	return ln, true
}

// stop ends the goroutine and waits for it; it may be called more than
// once.
func (sc *lineScanner) stop() {
	sc.once.Do(func() { close(sc.quit) })
	<-sc.done
}
