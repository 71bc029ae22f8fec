package container

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"

	"github.com/dshtest/dshtest/sessionlog"
)

// The Zstandard container (containers.md §3): independent frames, the first
// holding exactly the header line in upstream's framing (FramingBatches),
// cut anywhere in a user's own compression of a raw log (FramingStream).
// Frames are located structurally first,
// as upstream's scanZstdFrames does, so structural refusals (a skippable or
// foreign frame, a reserved bit or block type) win over decoding errors, and
// the torn final frame is known before any plaintext is read. Then each
// frame is decoded in turn from its byte range of the file: neither the
// compressed nor the decompressed log is ever held whole.

const zstdMagic = 0xFD2FB528

type frameRange struct{ start, end int64 }

// frameLayout is the result of the structural scan.
type frameLayout struct {
	frames []frameRange
	// torn is the start of an incomplete final frame, or -1.
	torn int64
	// tornChecksum is how many checksum bytes the torn frame lacks when all
	// its blocks are complete (0 otherwise).
	tornChecksum int
	// declared is the sum of the content sizes the frames' headers declare
	// (libzstd writes them by default), or -1 if a frame declares none.
	declared int64
	// window is the largest window a frame's header declares (a
	// single-segment frame's is its content size); described, the largest
	// a Window_Descriptor declares (not a content size).
	window, described int64
}

// scanFrames walks the frame structure of ra[0:size] without decompressing.
func scanFrames(name string, ra io.ReaderAt, size int64, maxFrames int) (frameLayout, error) {
	lay := frameLayout{torn: -1}
	// The headers are read through a window of the file: a log of small
	// frames has several headers in each, and a ReadAt is a system call.
	win := make([]byte, 0, min(size, 64<<10))
	winStart := int64(0)
	read := func(off int64, n int) ([]byte, bool, error) {
		if size-off < int64(n) {
			return nil, false, nil
		}
		if off < winStart || off+int64(n) > winStart+int64(len(win)) {
			win = win[:min(int64(cap(win)), size-off)]
			if _, err := ra.ReadAt(win, off); err != nil {
				return nil, false, err
			}
			winStart = off
		}
		return win[off-winStart : off-winStart+int64(n)], true, nil
	}
	corrupt := func(off int64, what string) error {
		return refuse(sessionlog.Pos{Path: name, Seq: -1}, fmt.Sprintf("corrupt Zstandard session log: %s at byte %d", what, off), nil)
	}
	off := int64(0)
	for off < size {
		start := off
		torn := func() (frameLayout, error) { lay.torn = start; return lay, nil }
		b, ok, err := read(off, 4)
		if err != nil {
			return lay, err
		}
		if !ok {
			return torn()
		}
		if binary.LittleEndian.Uint32(b) != zstdMagic {
			return lay, corrupt(off, "invalid frame magic")
		}
		off += 4
		b, ok, err = read(off, 1)
		if err != nil {
			return lay, err
		}
		if !ok {
			return torn()
		}
		desc := b[0]
		if desc&0x18 != 0 {
			return lay, corrupt(off, "reserved frame-header bit")
		}
		off++
		fcsFlag := desc >> 6
		single := desc&0x20 != 0
		checksum := desc&0x04 != 0
		dictBytes := int64(desc & 0x03)
		if dictBytes == 3 {
			dictBytes = 4
		}
		fcsBytes := int64(0)
		if fcsFlag == 0 {
			if single {
				fcsBytes = 1
			}
		} else {
			fcsBytes = 1 << fcsFlag
		}
		rest := dictBytes + fcsBytes
		if !single {
			rest++
		}
		if size-off < rest {
			return torn()
		}
		if !single {
			b, _, err := read(off, 1)
			if err != nil {
				return lay, err
			}
			lay.described = max(lay.described, windowSize(b[0]))
			lay.window = max(lay.window, lay.described)
		}
		if fcsBytes == 0 {
			lay.declared = -1
		} else {
			b, _, err := read(off+rest-fcsBytes, int(fcsBytes))
			if err != nil {
				return lay, err
			}
			var v [8]byte
			copy(v[:], b)
			n := int64(binary.LittleEndian.Uint64(v[:]))
			if fcsBytes == 2 {
				n += 256
			}
			if single {
				lay.window = max(lay.window, n)
			}
			switch {
			case lay.declared < 0:
			case n < 0 || lay.declared+n < lay.declared:
				lay.declared = -1
			default:
				lay.declared += n
			}
		}
		off += rest
		for {
			b, ok, err := read(off, 3)
			if err != nil {
				return lay, err
			}
			if !ok {
				return torn()
			}
			h := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
			off += 3
			last := h&1 != 0
			typ := (h >> 1) & 3
			bsize := int64(h >> 3)
			if typ == 3 {
				return lay, corrupt(off-3, "reserved block type")
			}
			if typ == 1 {
				bsize = 1
			}
			if size-off < bsize {
				return torn()
			}
			off += bsize
			if last {
				break
			}
		}
		if checksum {
			if size-off < 4 {
				lay.tornChecksum = int(4 - (size - off))
				return torn()
			}
			off += 4
		}
		lay.frames = append(lay.frames, frameRange{start, off})
		if len(lay.frames) == maxFrames {
			break
		}
	}
	return lay, nil
}

// MaxWindow is the largest window a Zstandard frame may need, libzstd's
// default windowLogMax (2^27): a frame that needs more is refused, here and
// in a SQLite database's BLOBs.
const MaxWindow = 1 << 27

// windowSize is the window a frame header's Window_Descriptor declares
// (RFC 8878 §3.1.1.1.2).
func windowSize(desc byte) int64 {
	base := int64(1) << (10 + desc>>3)
	return base + base/8*int64(desc&7)
}

func newZstdDecoder(ignoreChecksum bool, more ...zstd.DOption) (*zstd.Decoder, error) {
	return zstd.NewReader(nil, append([]zstd.DOption{
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(MaxWindow),
		zstd.IgnoreChecksum(ignoreChecksum)}, more...)...)
}

// PlainZstd returns the plaintext of the Zstandard stream r, its frames
// decoded in turn and their checksums checked, for a compressed log that
// is not upstream's container: a header-less log compressed as a whole.
// Close releases the decoder.
func PlainZstd(r io.Reader) (io.ReadCloser, error) {
	dec, err := newZstdDecoder(false)
	if err != nil {
		return nil, err
	}
	if err := dec.Reset(r); err != nil {
		dec.Close()
		return nil, err
	}
	return plainReader{dec.IOReadCloser()}, nil
}

// plainReader says what a decoding error of PlainZstd's means.
type plainReader struct{ io.ReadCloser }

func (p plainReader) Read(b []byte) (int, error) {
	n, err := p.ReadCloser.Read(b)
	switch {
	case err == nil, errors.Is(err, io.EOF):
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = errors.New("the compressed log ends inside a Zstandard frame (torn or truncated)")
	default:
		err = fmt.Errorf("corrupt Zstandard data: %w", err)
	}
	return n, err
}

// Framing names how a Zstandard log's plaintext is cut into frames.
type Framing string

const (
	// FramingBatches is upstream's (§3): a frame holding exactly the
	// header line, then one frame per append batch, each ending on a
	// committed boundary.
	FramingBatches Framing = "header+batches"
	// FramingStream is any other cut: one frame of the whole log (what
	// `zstd session.jsonl` writes) or frames cut anywhere, as a user's
	// own compression of a raw log makes them. Its frames are one stream
	// of raw JSONL text, read with the raw rules (§2).
	FramingStream Framing = "stream"
)

// zstdFraming is what openZstd found of a log's frames.
type zstdFraming struct {
	framing Framing
	frames  int   // complete frames
	window  int64 // the largest window of a frame (Log.Window)
	// decoded counts the text the frames' decoder has written (its reader
	// runs ahead of the lines read: Log.Decoded).
	decoded *atomic.Int64
}

// openZstd prepares a scanner over a Zstandard log held in ra[0:size].
// A frame that declares more than maxText, the text cap, is refused before
// the decoder allocates for it, and the scanner stops at the cap.
func openZstd(name string, ra io.ReaderAt, size int64, maxLine int, maxText int64, decoders *Decoders) (*scanner, zstdFraming, io.Closer, error) {
	var found zstdFraming
	lay, err := scanFrames(name, ra, size, -1)
	if err != nil {
		var ce *sessionlog.Error
		if errors.As(err, &ce) {
			return nil, found, nil, err
		}
		return nil, found, nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, "read failed: "+err.Error(), err)
	}
	if len(lay.frames) == 0 {
		return nil, found, nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, "empty or header-less Zstandard session log", nil)
	}
	found.frames = len(lay.frames)
	found.window = min(lay.window, MaxWindow)
	found.decoded = new(atomic.Int64)
	// The decoder's memory cap is the text cap, and a described window
	// too: it may be longer than a small text cap, and is memory the frame
	// needs whatever its text (the scanner stops at the cap, with its own
	// refusal). A single segment's window is its content size, which the
	// text cap bounds: the decoder refuses more before it allocates.
	decMemory := max(maxText, min(lay.described, MaxWindow))
	dec, err := decoders.get(decMemory)
	if err != nil {
		return nil, found, nil, err
	}
	closer := closerFunc(func() error { decoders.put(dec, decMemory); return nil })
	h := lay.frames[0]
	header, whole, err := firstLine(dec, io.NewSectionReader(ra, h.start, h.end-h.start), maxLine)
	if err != nil {
		closer.Close()
		return nil, found, nil, frameFailed(name, h.start, err)
	}
	torn := func() (io.Reader, error) { return tornFrame(ra, lay.torn, size, lay.tornChecksum, maxText) }
	if !whole {
		// Not upstream's framing: every frame, the torn one too, is one
		// plaintext stream, and the raw rules find the header and the
		// torn tail in it.
		found.framing = FramingStream
		r := io.Reader(&framesReader{name: name, ra: ra, frames: lay.frames, dec: dec, decoded: found.decoded})
		if lay.torn >= 0 {
			r = io.MultiReader(r, &lazyReader{open: torn})
		}
		s := newScanner(name, maxLine, onePart(part{r: r, torn: lay.torn}))
		s.maxText = maxText
		s.declared = lay.declared
		return s, found, closer, nil
	}
	found.framing = FramingBatches
	if reason := headerProblem(header); reason != "" {
		closer.Close()
		return nil, found, nil, refuse(sessionlog.Pos{Path: name, Line: 1, Seq: -1}, reason, nil)
	}
	fr := &framesReader{name: name, ra: ra, frames: lay.frames[1:], dec: dec, decoded: found.decoded}
	stage := 0
	parts := func() (part, bool, error) {
		stage++
		switch {
		case stage == 1:
			return part{r: fr, strict: true, torn: -1}, true, nil
		case stage == 2 && lay.torn >= 0:
			r, err := torn()
			if err != nil {
				return part{}, false, err
			}
			return part{r: r, torn: lay.torn}, true, nil
		}
		return part{}, false, nil
	}
	s := newScanner(name, maxLine, parts)
	s.maxText = maxText
	s.header = header
	s.text = int64(len(header)) + 1 // the header frame is text too, as in every other form
	s.headerID = headerID(header)
	s.declared = lay.declared
	return s, found, closer, nil
}

// firstLine decodes the start of the frame src, up to its first newline
// and at most one line of maxLine bytes: its first line without the
// newline (nil if it has none within the limit), and whether that line is
// the whole frame, as the header frame of upstream's framing is (§3.4).
// It reads no further than the line and one byte past it: a frame of a
// whole log begins with a short header line, and reading a line cap's
// worth of it would cost that much memory before the log is read.
func firstLine(dec *zstd.Decoder, src io.Reader, maxLine int) (line []byte, whole bool, err error) {
	if err := dec.Reset(src); err != nil {
		return nil, false, err
	}
	br := bufio.NewReaderSize(io.LimitReader(dec, int64(maxLine)+2), firstLineChunk)
	line, err = br.ReadBytes('\n')
	switch {
	case err == io.EOF: // no newline within the limit
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	if _, err = br.ReadByte(); err != nil && err != io.EOF {
		return nil, false, err
	}
	return line[:len(line)-1], err == io.EOF, nil
}

// firstLineChunk is what firstLine reads at a time.
const firstLineChunk = 64 << 10

// onePart is the parts of a scanner that reads p alone.
func onePart(p part) func() (part, bool, error) {
	given := false
	return func() (part, bool, error) {
		if given {
			return part{}, false, nil
		}
		given = true
		return p, true, nil
	}
}

// lazyReader opens its reader at the first Read, so that a torn final
// frame is decoded only when the stream reaches it.
type lazyReader struct {
	open func() (io.Reader, error)
	r    io.Reader
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil {
		r, err := l.open()
		if err != nil {
			return 0, err
		}
		l.r = r
	}
	return l.r.Read(p)
}

func frameFailed(name string, start int64, err error) error {
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return refuse(sessionlog.Pos{Path: name, Seq: -1}, fmt.Sprintf("the Zstandard frame at byte %d holds more than the text limit", start), errors.Join(sessionlog.ErrTextTooLong, err))
	}
	return refuse(sessionlog.Pos{Path: name, Seq: -1}, fmt.Sprintf("corrupt Zstandard session log: frame at byte %d failed validation (%v)", start, err), err)
}

// framesReader is the plaintext of complete frames, decoded one at a time.
//
// The decoder reads a frame in many small pieces (a block header, then the
// block), and a piece read from a file is a system call: about eleven for
// each of the sub-kilobyte frames upstream appends. So the compressed bytes
// of consecutive small frames are read in one batch of up to frameBatch
// bytes, and each frame is decoded from memory. A frame larger than a batch
// is read through a buffer of the same size instead.
type framesReader struct {
	name    string
	ra      io.ReaderAt
	frames  []frameRange
	dec     *zstd.Decoder
	open    bool
	decoded *atomic.Int64 // the plaintext read

	batch      []byte // the compressed bytes of frames[:batched]
	batchStart int64  // the file offset of batch[0]
	batched    int
	src        bytes.Reader
}

const frameBatch = 256 << 10

// source returns the compressed bytes of frames[0] to decode.
func (f *framesReader) source() (io.Reader, error) {
	fr := f.frames[0]
	if fr.end-fr.start > frameBatch {
		return bufio.NewReaderSize(io.NewSectionReader(f.ra, fr.start, fr.end-fr.start), frameBatch), nil
	}
	if f.batched == 0 {
		n := 0
		for n < len(f.frames) && f.frames[n].end-fr.start <= frameBatch {
			n++
		}
		end := f.frames[n-1].end
		if cap(f.batch) < frameBatch {
			f.batch = make([]byte, frameBatch)
		}
		f.batch = f.batch[:end-fr.start]
		if _, err := f.ra.ReadAt(f.batch, fr.start); err != nil {
			return nil, err
		}
		f.batchStart, f.batched = fr.start, n
	}
	f.src.Reset(f.batch[fr.start-f.batchStart : fr.end-f.batchStart])
	return &f.src, nil
}

func (f *framesReader) Read(p []byte) (int, error) {
	for {
		if !f.open {
			if len(f.frames) == 0 {
				return 0, io.EOF
			}
			r, err := f.source()
			if err == nil {
				err = f.dec.Reset(r)
			}
			if err != nil {
				return 0, frameFailed(f.name, f.frames[0].start, err)
			}
			f.open = true
		}
		n, err := f.dec.Read(p)
		f.decoded.Add(int64(n))
		if errors.Is(err, io.EOF) {
			f.open = false
			f.frames = f.frames[1:]
			if f.batched > 0 {
				f.batched--
			}
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err != nil {
			return 0, frameFailed(f.name, f.frames[0].start, err)
		}
		return n, nil
	}
}

// tornFrame returns the plaintext recoverable from the incomplete final
// frame at ra[start:size] (§3.7). Upstream decompresses it without asking
// for the frame's end or checksum and keeps nothing if that throws; here a
// first pass finds whether decoding stops at the truncation (keep) or at
// corrupt data (keep nothing), and a second pass streams the same output.
// A frame torn only inside its checksum gets the missing bytes padded and
// the checksum ignored, so its last block is kept as upstream keeps it.
//
// Neither pass decodes more than limit+1 bytes, the text cap: past it the
// scanner refuses the log (a torn frame of a few kilobytes can expand to
// gigabytes, and its first pass had decoded all of them).
func tornFrame(ra io.ReaderAt, start, size int64, missingChecksum int, limit int64) (io.Reader, error) {
	dec, err := newZstdDecoder(true)
	if err != nil {
		return nil, err
	}
	src := func() io.Reader {
		r := io.Reader(io.NewSectionReader(ra, start, size-start))
		if missingChecksum > 0 {
			r = io.MultiReader(r, bytes.NewReader(make([]byte, missingChecksum)))
		}
		return r
	}
	var n int64
	if err := dec.Reset(src()); err == nil {
		n, err = io.Copy(io.Discard, io.LimitReader(dec, min(limit, math.MaxInt64-1)+1))
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			n = 0
		}
	} else {
		n = 0
	}
	if n == 0 {
		dec.Close()
		return eofReader{}, nil
	}
	if err := dec.Reset(src()); err != nil {
		dec.Close()
		return eofReader{}, nil
	}
	return &closingReader{r: io.LimitReader(dec, n), close: dec.Close}, nil
}

// closingReader releases its decoder at EOF.
type closingReader struct {
	r     io.Reader
	close func()
}

func (c *closingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil {
		if c.close != nil {
			c.close()
			c.close = nil
		}
		if !errors.Is(err, io.EOF) {
			err = io.EOF // the first pass already proved this much decodes
		}
	}
	return n, err
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
