package jsonl

import (
	"encoding/json"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/ground/longline"
	"github.com/dshtest/dshtest/sessionlog"
)

// LineDecoder decodes a log whose lines another layer has already split
// (package sessionlog/container, which applies upstream's torn-tail rules):
// each line is given with its line number, and decodes exactly as the
// Decoder would decode it at that place, header and packed rows included.
type LineDecoder struct {
	d Decoder
}

// NewLineDecoder returns a LineDecoder; name is the path used in errors.
func NewLineDecoder(name string) *LineDecoder {
	return &LineDecoder{d: Decoder{name: name}}
}

// Decode decodes one line (without its newline), the lineNo-th of the log.
// The first line decoded may be the session header, which yields no event
// (see Header). The events returned are valid until the next call; their
// raw members do not share line's memory. An error is a *sessionlog.Error.
func (l *LineDecoder) Decode(line []byte, lineNo int) ([]sessionlog.Event, error) {
	if !fastjson.Valid(line) {
		l.d.line = lineNo
		l.d.pending, l.d.packed = l.d.pending[:0], packedRow{}
		return nil, l.d.malformed(line, true)
	}
	return l.DecodeValid(line, lineNo)
}

// DecodeValid is Decode of a line already known to be valid JSON (the
// container checked every line it yields), without checking it again.
func (l *LineDecoder) DecodeValid(line []byte, lineNo int) ([]sessionlog.Event, error) {
	return l.decode(line, nil, lineNo)
}

// DecodeSplit is DecodeValid of a line an earlier pass has already split
// into its top-level members (container.Line.Members), without splitting
// it again.
func (l *LineDecoder) DecodeSplit(line []byte, members []fastjson.Span, lineNo int) ([]sessionlog.Event, error) {
	return l.decode(line, members, lineNo)
}

// DecodeOwned is DecodeSplit (DecodeValid when members is nil) of a line
// that is the decoder's to keep (container.Line.Owned: nothing writes to
// it after): a raw member too big for the arena slices line instead of
// being copied, so that a line of megabytes is not held twice.
func (l *LineDecoder) DecodeOwned(line []byte, members []fastjson.Span, lineNo int) ([]sessionlog.Event, error) {
	l.d.owned = true
	defer func() { l.d.owned = false }()
	return l.decode(line, members, lineNo)
}

func (l *LineDecoder) decode(line []byte, split []fastjson.Span, lineNo int) ([]sessionlog.Event, error) {
	d := &l.d
	d.line = lineNo
	d.pending = d.pending[:0]
	d.packed = packedRow{} // a row not read to its end is left
	first := !d.started
	d.started = true
	if err := d.decodeLine(line, first, split); err != nil {
		return nil, err
	}
	return d.pending, nil
}

// More returns the next events of the line last decoded, when it is a
// packed chunk row: Decode and its variants return its first events only,
// and More the rest, a batch at a time, until it returns none. The row is
// checked whole before its first events are returned, so an error is
// returned by Decode or never. The events are valid until the next call of
// More or Decode, and the line must be left unchanged until More has
// returned none: the events not yet returned are built from it.
func (l *LineDecoder) More() []sessionlog.Event {
	d := &l.d
	d.pending = d.pending[:0]
	if !d.packed.active {
		return nil
	}
	d.fillPacked()
	return d.pending
}

// Header returns the header line, compacted, once decoded; nil otherwise.
func (l *LineDecoder) Header() json.RawMessage { return l.d.header }

// Release drops what the decoder holds of the lines and events decoded
// (its buffers point into the last line, its pending events at their
// members), keeping the header: its read is over, and a line of megabytes
// must not stay live with the decoder.
func (l *LineDecoder) Release() {
	d := &l.d
	clear(d.pending)
	clear(d.fields)
	clear(d.batch)
	d.pending, d.fields, d.batch, d.packed, d.buf, d.scratch, d.arena = nil, nil, nil, packedRow{}, longline.Buffer{}, nil, arena{}
}

// SetMaxLineBytes sets the longest line the Decoder accepts (newline
// excluded); n <= 0 restores MaxLineBytes. Call it before the first Next.
func (d *Decoder) SetMaxLineBytes(n int) {
	d.maxLine = max(n, 0)
}

func (d *Decoder) maxLineBytes() int {
	if d.maxLine > 0 {
		return d.maxLine
	}
	return MaxLineBytes
}
