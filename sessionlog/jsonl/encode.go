package jsonl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/sessionlog"
)

// Encoder writes events as JSONL: one compact line per event, keys in the
// order type, seq, time, data, surfaceOp, sourceEventSeqs, ignorable, with
// surfaceOp and sourceEventSeqs only when present and ignorable only when
// true. Raw values are compacted but not re-escaped (no HTML escaping), so
// encode(decode(encode(x))) equals encode(x) byte for byte.
type Encoder struct {
	w   io.Writer
	buf []byte
}

// NewEncoder returns an Encoder writing to w. Each Encode is one Write.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode writes one event line.
func (e *Encoder) Encode(ev *sessionlog.Event) error {
	b, err := AppendEvent(e.buf[:0], ev)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	e.buf = b
	_, err = e.w.Write(b)
	return err
}

// EncodeHeader writes a container header line (see Log.Header), compacted.
func (e *Encoder) EncodeHeader(header json.RawMessage) error {
	if !fastjson.Valid(header) {
		return errors.New("jsonl: encode header: invalid JSON")
	}
	b := appendCompact(e.buf[:0], header)
	b = append(b, '\n')
	e.buf = b
	_, err := e.w.Write(b)
	return err
}

// WriteLog writes events as JSONL with an Encoder.
func WriteLog(w io.Writer, events []sessionlog.Event) error {
	enc := NewEncoder(w)
	for i := range events {
		if err := enc.Encode(&events[i]); err != nil {
			return err
		}
	}
	return nil
}

// AppendEvent appends the Encoder's line for ev, without the newline, to
// dst. It fails when Data is absent or a raw field is not valid JSON.
func AppendEvent(dst []byte, ev *sessionlog.Event) ([]byte, error) {
	if ev.Data == nil {
		return dst, fmt.Errorf("jsonl: encode event at seq %d: data is absent", ev.Seq)
	}
	for _, raw := range []json.RawMessage{ev.Data, ev.SurfaceOp, ev.SourceEventSeqs} {
		if raw != nil && !fastjson.Valid(raw) {
			return dst, fmt.Errorf("jsonl: encode event at seq %d: invalid raw JSON", ev.Seq)
		}
	}
	dst = append(dst, `{"type":`...)
	dst = jsonobj.AppendString(dst, ev.Type)
	dst = append(dst, `,"seq":`...)
	dst = strconv.AppendInt(dst, ev.Seq, 10)
	dst = append(dst, `,"time":`...)
	dst = strconv.AppendInt(dst, ev.Time, 10)
	dst = append(dst, `,"data":`...)
	dst = appendCompact(dst, ev.Data)
	if ev.SurfaceOp != nil {
		dst = append(dst, `,"surfaceOp":`...)
		dst = appendCompact(dst, ev.SurfaceOp)
	}
	if ev.SourceEventSeqs != nil {
		dst = append(dst, `,"sourceEventSeqs":`...)
		dst = appendCompact(dst, ev.SourceEventSeqs)
	}
	if ev.Ignorable {
		dst = append(dst, `,"ignorable":true`...)
	}
	return append(dst, '}'), nil
}
