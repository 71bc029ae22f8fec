package reader

import (
	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog/container"
)

// The container's lines are scanned ahead on a goroutine of their own
// (package ahead, the one read-ahead design), so that scanning (framing,
// decompression, the torn-tail rules) and decoding (upgrades, the decoder,
// recovery) proceed side by side: on a big log they are about a third and
// two thirds of a read.
//
// The scanner sends batches of lines, copied out of its buffers; the
// stream hands each batch's buffer back once it has read every line of
// it (nothing a line is read into keeps the line's bytes: the decoder
// copies what it keeps). A line of a batch's size or more is lent instead
// (ahead.Pipe.Lend): the stream reads it in the container's own buffer and
// the scanner waits for it to be done, so that a line of megabytes is not
// copied, nor held twice. Everything else the stream asks of the container
// (its verdict and torn tails) it asks once the scanner is done, which
// the pipe's end says.
type lineBatch struct {
	lines   []container.Line
	buf     []byte
	members []fastjson.Span // the lines' Members, one after another
}

// A batch is sent at aheadLines lines or aheadBytes of text, whichever
// comes first: lines of megabytes each must not make a batch of hundreds
// of them, and a batch counts for its bytes in the aheadBatches held
// ahead (ahead.StartSized), so that at most about aheadBatches×aheadBytes
// wait, or one batch of a line however long.
const (
	aheadLines   = 256
	aheadBatches = 4
	aheadBytes   = 1 << 20
)

// lineScanner reads the container ahead of the stream (package ahead).
type lineScanner struct {
	pipe *ahead.Pipe[lineBatch]
	cur  lineBatch
	i    int
}

func startScanner(lg *container.Log) *lineScanner {
	pipe := ahead.StartSized(aheadBatches, aheadBytes, func(b lineBatch) int64 { return int64(len(b.buf)) }, func(p *ahead.Pipe[lineBatch]) {
		b := batch(p)
		for lg.Next() {
			ln := lg.Line()
			if len(ln.Data) >= aheadBytes {
				if len(b.lines) > 0 {
					fix(&b)
					if !p.Send(b) {
						return
					}
					b = batch(p)
				}
				if !p.Lend(lineBatch{lines: []container.Line{ln}}) {
					return
				}
				continue
			}
			start, m := len(b.buf), len(b.members)
			b.buf = append(b.buf, ln.Data...)
			b.members = append(b.members, ln.Members...)
			cp := container.Line{Pos: ln.Pos, Data: b.buf[start:len(b.buf):len(b.buf)]}
			if ln.Members != nil {
				cp.Members = b.members[m:len(b.members):len(b.members)]
			}
			b.lines = append(b.lines, cp)
			if len(b.lines) == aheadLines || len(b.buf) >= aheadBytes {
				fix(&b)
				if !p.Send(b) {
					return
				}
				b = batch(p)
			}
		}
		if len(b.lines) > 0 {
			fix(&b)
			p.Send(b)
		}
	})
	return &lineScanner{pipe: pipe}
}

// batch returns an empty batch, reusing a buffer the stream gave back.
// A line's Data slices buf, which grows by append: the lines are
// re-sliced into the final buffer when the batch is sent (fix), so the
// arrays buf outgrew can go.
func batch(p *ahead.Pipe[lineBatch]) lineBatch {
	if b, ok := p.Reuse(); ok && cap(b.buf) <= 2*aheadBytes {
		return lineBatch{lines: b.lines[:0], buf: b.buf[:0], members: b.members[:0]}
	}
	return lineBatch{lines: make([]container.Line, 0, aheadLines), buf: make([]byte, 0, 64<<10),
		members: make([]fastjson.Span, 0, 8*aheadLines)}
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
			sc.pipe.Release(sc.cur)
		}
		b, ok := sc.pipe.Next()
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
	sc.pipe.Stop()
	sc.cur = lineBatch{} // a lent line is the container's buffer
}
