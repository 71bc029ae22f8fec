package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/ground/longline"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file is the JSONL codec of log.md §1.3: one event per line, plus
// upstream's persistence container (an optional session header line and
// packed chunk rows), which the reader accepts and the writer never emits.

// MaxLineBytes is the longest line the Decoder accepts, newline excluded.
const MaxLineBytes = 64 << 20

// Reason texts of the codec. The envelope and legacy texts are log.md §1.2's,
// adapted to lines.
const (
	reasonEnvelope     = "invalid event envelope"
	reasonLegacy       = "unsupported legacy request/header-delta format"
	reasonHeader       = "invalid session header"
	reasonPacked       = "invalid packed chunk row"
	reasonPackedSeq    = "packed chunk row seq range is unsafe"
	reasonPackedTime   = "packed chunk row time overflows"
	reasonTruncatedPfx = "truncated last line: "
	reasonMalformedPfx = "malformed JSON: "
)

// Log is a decoded JSONL log.
type Log struct {
	// Header is upstream's container header line
	// ({"type":"session","version":0,"id":…,…}), compacted but otherwise as
	// read, or nil when the file has none.
	Header json.RawMessage
	// Events are the events in seq order, packed chunk rows expanded.
	Events []sessionlog.Event
}

// WriteTo writes the header line, if any, and then every event, in the
// Encoder's form. It implements io.WriterTo.
func (l *Log) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	enc := NewEncoder(cw)
	if l.Header != nil {
		if err := enc.EncodeHeader(l.Header); err != nil {
			return cw.n, err
		}
	}
	for i := range l.Events {
		if err := enc.Encode(&l.Events[i]); err != nil {
			return cw.n, err
		}
	}
	return cw.n, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ReadLog decodes a whole JSONL log. name is the path used in errors.
//
// The returned Log is never nil. On error it holds the header and every
// event decoded before the failing line, and the error is a *sessionlog.Error.
// A torn final write (its cause sessionlog.ErrTruncated) therefore leaves a usable log:
// callers that tolerate a torn tail keep the prefix and report the error.
// ReadLog checks the codec's rules only (envelope, packed rows, seq
// contiguity from 0); ValidateLog and Load check the rest.
func ReadLog(r io.Reader, name string) (*Log, error) {
	d := NewDecoder(r, name)
	log := &Log{}
	for {
		ev, err := d.Next()
		log.Header = d.Header()
		if err == io.EOF {
			return log, nil
		}
		if err != nil {
			return log, err
		}
		log.Events = append(log.Events, ev)
	}
}

// ParseLog is ReadLog over a byte slice.
func ParseLog(data []byte, name string) (*Log, error) {
	return ReadLog(bytes.NewReader(data), name)
}

// Decoder reads events from a JSONL stream one line at a time.
//
// Lines may be up to MaxLineBytes long. Blank (white-space only) lines are
// skipped. The first non-blank line may be upstream's session header (type
// "session" and no seq key); packed chunk rows (type text-chunks,
// reasoning-chunks or tool-call-chunks and no seq key) expand into the
// assistant/chunk events they stand for. Keys may come in any order.
// Unknown event types decode like any other; Data, SurfaceOp and
// SourceEventSeqs are kept as raw JSON, so a decode and encode changes no
// value.
type Decoder struct {
	name    string
	r       *bufio.Reader
	line    int
	next    int64 // the seq the next event must carry
	started bool  // a non-blank line has been read
	header  json.RawMessage
	pending []sessionlog.Event
	err     error
	buf     longline.Buffer  // a line longer than r's buffer
	owned   bool             // the line decoded is the decoder's to keep (keep)
	lineLen int              // the length of the line decoded
	fields  []fastjson.Field // splitObject's buffer, reused line after line
	maxLine int              // 0: MaxLineBytes
	arena   arena            // the events' raw members
	scratch []byte           // a packed member's data, built before its copy
	types   map[string]string
	offset  int64              // bytes read so far
	packed  packedRow          // the packed row being expanded, if any
	batch   []sessionlog.Event // its events built, reused batch after batch
}

// NewDecoder returns a Decoder reading r. name is the path used in errors.
func NewDecoder(r io.Reader, name string) *Decoder {
	return &Decoder{name: name, r: bufio.NewReaderSize(r, 64<<10)}
}

// Name returns the path used in errors.
func (d *Decoder) Name() string { return d.name }

// Offset returns the number of bytes read so far: the lines decoded and the
// line in progress.
func (d *Decoder) Offset() int64 { return d.offset }

// Line returns the number of lines read so far.
func (d *Decoder) Line() int { return d.line }

// Header returns the container header line, or nil when the stream has none
// or it has not been read yet (it is read by the first call to Next).
func (d *Decoder) Header() json.RawMessage { return d.header }

// Next returns the next event. It returns io.EOF after the last event, and
// otherwise a *sessionlog.Error; after an error every later call returns the
// same error.
func (d *Decoder) Next() (sessionlog.Event, error) {
	for {
		if len(d.pending) > 0 {
			ev := d.pending[0]
			if len(d.pending) == 1 {
				// Emptied in place, so that the next line's event goes in
				// the same slot: cut from the front, the queue had been
				// made again for every line.
				d.pending = d.pending[:0]
			} else {
				d.pending = d.pending[1:]
			}
			return ev, nil
		}
		if d.packed.active {
			d.fillPacked()
			continue
		}
		if d.err != nil {
			return sessionlog.Event{}, d.err
		}
		d.err = d.readRecord()
	}
}

// readRecord reads lines until one yields events (queued in d.pending) or
// an error or EOF occurs.
func (d *Decoder) readRecord() error {
	for {
		line, newline, err := d.readLine()
		if err != nil {
			return err
		}
		if isBlank(line) {
			if !newline {
				return io.EOF
			}
			continue
		}
		if !fastjson.Valid(line) {
			return d.malformed(line, newline)
		}
		first := !d.started
		d.started = true
		return d.decodeLine(line, first, nil)
	}
}

// readLine returns the next line without its newline. newline reports
// whether the line ended with one. It returns io.EOF only when no byte is
// left. d.owned says whether the line is a new allocation the decoder may
// keep (longline: a line of a megabyte or more), else it is valid until
// the next read.
func (d *Decoder) readLine() (line []byte, newline bool, err error) {
	d.buf.Reset()
	d.owned = false
	for {
		chunk, rerr := d.r.ReadSlice('\n')
		d.offset += int64(len(chunk))
		n := d.buf.Len() + len(chunk)
		if rerr == nil {
			n-- // the newline
		}
		if n > d.maxLineBytes() {
			d.line++
			e := d.errorf(-1, "line exceeds %d bytes", d.maxLineBytes())
			e.Err = sessionlog.ErrTooLong
			return nil, false, e
		}
		switch rerr {
		case nil:
			d.line++
			if d.buf.Len() == 0 {
				return chunk[:len(chunk)-1], true, nil
			}
			d.buf.Add(chunk[:len(chunk)-1])
			line, d.owned = d.buf.Bytes()
			return line, true, nil
		case bufio.ErrBufferFull:
			d.buf.Add(chunk)
		case io.EOF:
			if n == 0 {
				return nil, false, io.EOF
			}
			d.buf.Add(chunk)
			d.line++
			line, d.owned = d.buf.Bytes()
			return line, false, nil
		default:
			d.line++
			return nil, false, d.errorf(-1, "read error: %v", rerr)
		}
	}
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// errorf is the decoder's refusal of the current line: a *sessionlog.Error
// of sessionlog.LayerDecode, whose Seq is the seq the line claims (for a
// packed row, the seq of the expanded event at fault), or -1 when it is
// not known. Its Line counts from 1 and counts every line, blank or not,
// the header included.
func (d *Decoder) errorf(seq int64, format string, args ...any) *sessionlog.Error {
	return sessionlog.Refuse(sessionlog.LayerDecode, sessionlog.Pos{Path: d.name, Line: d.line, Seq: seq}, fmt.Sprintf(format, args...), nil)
}

// malformed reports a line that is not valid JSON.
func (d *Decoder) malformed(line []byte, newline bool) error {
	msg := "invalid JSON"
	var syn *json.SyntaxError
	if err := json.Unmarshal(line, new(struct{})); errors.As(err, &syn) {
		msg = fmt.Sprintf("%s (byte %d)", syn.Error(), syn.Offset)
	}
	if !newline {
		// A torn final write: the last line has no trailing newline and
		// is not valid JSON. Every event before it is intact.
		e := d.errorf(-1, "%s%s", reasonTruncatedPfx, msg)
		e.Err = sessionlog.ErrTruncated
		return e
	}
	return d.errorf(-1, "%s%s", reasonMalformedPfx, msg)
}

// decodeLine decodes one valid JSON line into d.pending.
//
// The events' raw members are copied into the decoder's arena: they share
// no memory with line, which the caller may reuse, unless the line is the
// decoder's to keep (keep).
//
// split, when not nil, is the line's top-level members as an earlier pass
// split them (container.Line.Members).
func (d *Decoder) decodeLine(line []byte, first bool, split []fastjson.Span) error {
	d.lineLen = len(line)
	var fields []fastjson.Field
	ok := true
	if split != nil {
		fields = fastjson.FieldsOf(d.fields, line, split)
	} else {
		fields, ok = fastjson.SplitObjectInto(d.fields, line)
	}
	d.fields = fields // reused by the next line: nothing keeps it
	if !ok || fastjson.HasDuplicateKey(fields) {
		return d.errorf(-1, reasonEnvelope)
	}
	var typ string
	if raw, ok := fastjson.Lookup(fields, "type"); ok {
		if typ, ok = fastjson.DecodeString(raw); !ok {
			return d.errorf(-1, reasonEnvelope)
		}
	}
	// A line with a seq is always an event, so an event whose type happens
	// to be "session" or a packed row's tag still round-trips.
	if _, hasSeq := fastjson.Lookup(fields, "seq"); !hasSeq {
		switch kind := wrapper(typ, fields); {
		case first && kind != "" && typ != "session": // a header's other keys are not checked (containers.md §1.2)
			return d.errorf(-1, "%s%s, which wrap events but hold neither a session header nor the whole log; read the session's own log (session.jsonl[.zstd] in the session store, or a web export)", ReasonNotALog, kind)
		case first && typ == "session":
			return d.decodeHeader(line, fields)
		case typ == "text-chunks" || typ == "reasoning-chunks" || typ == "tool-call-chunks":
			return d.decodePacked(typ, fields)
		}
	}
	ev, err := d.decodeEvent(fields)
	if err != nil {
		return err
	}
	ev.Data = d.keep(ev.Data)
	ev.SurfaceOp = d.keep(ev.SurfaceOp)
	ev.SourceEventSeqs = d.keep(ev.SourceEventSeqs)
	d.pending = append(d.pending, ev)
	d.next++
	return nil
}

// ReasonNotALog begins the refusal of a file that is one of the streams
// upstream writes beside a session that are not its log (containers.md §0).
const ReasonNotALog = "not a session log: "

// wrapper names the stream a first line without a seq comes from when it
// is one that wraps a session's events without being its log: the
// headless test driver's output, JSON-RPC session.event notifications, or
// another JSON-RPC stream (ACP's standard output); "" for any other line.
func wrapper(typ string, fields []fastjson.Field) string {
	if _, ok := fastjson.Lookup(fields, "event"); ok && typ == "session_event" {
		return "the headless test driver's output (session_event lines)"
	}
	_, rpc := fastjson.Lookup(fields, "jsonrpc")
	raw, hasMethod := fastjson.Lookup(fields, "method")
	if !rpc && !hasMethod {
		return ""
	}
	if method, _ := fastjson.DecodeString(raw); method == "session.event" {
		return "JSON-RPC session.event notifications"
	}
	return "JSON-RPC messages (as ACP's standard output)"
}

// keep returns a raw member of the line decoded, for an event to hold: the
// member itself when the line is the decoder's to keep (owned) and the
// member is too big for the arena and most of the line, so that a line of
// megabytes is not held twice; else the arena's copy. (A small member of a
// line padded to megabytes, kept as a slice, would hold the whole line: 600
// such lines compressed to 41 KB had taken render to 686 MB.)
func (d *Decoder) keep(b []byte) []byte {
	if d.owned && len(b) > arenaOwn && 2*len(b) >= d.lineLen {
		return b[:len(b):len(b)]
	}
	return d.arena.copy(b)
}

// decodeEvent checks a plain event line's envelope and seq.
func (d *Decoder) decodeEvent(fields []fastjson.Field) (sessionlog.Event, error) {
	seq := int64(-1)
	if raw, ok := fastjson.Lookup(fields, "seq"); ok {
		if n, ok := sessionlog.SafeNonNegInt(raw); ok {
			seq = n
		}
	}
	var ev sessionlog.Event
	var hasType, hasData bool
	for _, f := range fields {
		switch f.Key {
		case "type":
			ev.Type, hasType = d.eventType(f.Val)
			hasType = hasType && ev.Type != ""
		case "seq":
			ev.Seq = seq
		case "time":
			t, ok := strictInt64(f.Val)
			if !ok {
				return sessionlog.Event{}, d.errorf(seq, reasonEnvelope)
			}
			ev.Time = t
		case "data":
			ev.Data, hasData = f.Val, true
		case "surfaceOp":
			ev.SurfaceOp = f.Val
		case "sourceEventSeqs":
			ev.SourceEventSeqs = f.Val
		case "ignorable":
			if string(f.Val) != "true" {
				return sessionlog.Event{}, d.errorf(seq, reasonEnvelope)
			}
			ev.Ignorable = true
		default:
			return sessionlog.Event{}, d.errorf(seq, reasonEnvelope)
		}
	}
	_, hasTime := fastjson.Lookup(fields, "time")
	if !hasType || seq < 0 || !hasTime || !hasData {
		return sessionlog.Event{}, d.errorf(seq, reasonEnvelope)
	}
	if ev.Type == sessionlog.TypeLegacyHeaderDelta {
		return sessionlog.Event{}, d.errorf(seq, reasonLegacy)
	}
	if seq != d.next {
		return sessionlog.Event{}, d.errorf(seq, "seq %d is not contiguous; expected %d", seq, d.next)
	}
	return ev, nil
}

// maxTypes bounds the decoder's table of type names: a log of a million
// distinct types must not grow it without end.
const maxTypes = 4096

// eventType decodes a type name, sharing one string per distinct name
// instead of allocating one per event.
func (d *Decoder) eventType(raw []byte) (string, bool) {
	if s, ok := d.types[string(raw)]; ok {
		return s, true
	}
	s, ok := fastjson.DecodeString(raw)
	if ok && len(d.types) < maxTypes {
		if d.types == nil {
			d.types = map[string]string{}
		}
		d.types[string(raw)] = s
	}
	return s, ok
}

// decodeHeader accepts upstream's container header: an object whose type is
// "session" and whose version is a non-negative integer. It is kept
// compacted, key order and values untouched.
func (d *Decoder) decodeHeader(line []byte, fields []fastjson.Field) error {
	v, ok := fastjson.Lookup(fields, "version")
	if !ok {
		return d.errorf(-1, reasonHeader)
	}
	if _, ok := sessionlog.SafeNonNegInt(v); !ok {
		return d.errorf(-1, reasonHeader)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, line); err != nil {
		return d.errorf(-1, reasonHeader)
	}
	d.header = b.Bytes()
	return nil
}

// decodePacked expands a packed chunk row:
//
//	{"type":"text-chunks"|"reasoning-chunks","seq0":S,"time0":T,
//	 "data":{"turn":…,"step":…,"index":…,"dt":[…],"texts":[…]}}
//	{"type":"tool-call-chunks","seq0":S,"time0":T,
//	 "data":{"turn":…,"step":…,"index":…,"dt":[…],"id":…,"name"?:…,"args":[…]}}
//
// Member k (k from 0) becomes the assistant/chunk event with seq S+k and
// time T+dt[0]+…+dt[k-1] (dt holds the gaps between consecutive members, so
// len(dt) == len(members)-1), and data
//
//	{"turn":…,"step":…,"chunk":{"type":"text-delta"|"reasoning-delta","index":…,"text":member}}
//	{"turn":…,"step":…,"chunk":{"type":"tool-call-delta","index":…,"id":…,"name"?:…,"argumentsDelta":member}}
//
// turn, step, index, id, name and the members are copied as they were
// written. This is the layout upstream's JSONL backend writes for runs of
// consecutive delta chunks of one block.
func (d *Decoder) decodePacked(typ string, fields []fastjson.Field) error {
	bad := func() error { return d.errorf(-1, reasonPacked) }
	var seq0, time0 int64
	var data json.RawMessage
	seen := 0
	for _, f := range fields {
		var ok bool
		switch f.Key {
		case "type":
			ok = true
		case "seq0":
			seq0, ok = sessionlog.SafeNonNegInt(f.Val)
		case "time0":
			time0, ok = strictInt64(f.Val)
		case "data":
			data, ok = f.Val, true
		}
		if !ok {
			return bad()
		}
		seen++
	}
	if seen != 4 {
		return bad()
	}
	dfields, ok := fastjson.SplitObject(data)
	if !ok || fastjson.HasDuplicateKey(dfields) {
		return bad()
	}
	tool := typ == "tool-call-chunks"
	membersKey := "texts"
	allowed := []string{"turn", "step", "index", "dt", "texts"}
	if tool {
		membersKey = "args"
		allowed = []string{"turn", "step", "index", "dt", "id", "name", "args"}
	}
	for _, f := range dfields {
		found := false
		for _, k := range allowed {
			found = found || f.Key == k
		}
		if !found {
			return bad()
		}
	}
	turn, ok1 := fastjson.Lookup(dfields, "turn")
	step, ok2 := fastjson.Lookup(dfields, "step")
	index, ok3 := fastjson.Lookup(dfields, "index")
	dtRaw, ok4 := fastjson.Lookup(dfields, "dt")
	membersRaw, ok5 := fastjson.Lookup(dfields, membersKey)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !isNumber(turn) || !isNumber(step) || !isNumber(index) {
		return bad()
	}
	var id, name json.RawMessage
	if tool {
		var ok bool
		if id, ok = fastjson.Lookup(dfields, "id"); !ok || !isString(id) {
			return bad()
		}
		if name, ok = fastjson.Lookup(dfields, "name"); ok && !isString(name) {
			return bad()
		}
	}
	// The row is checked whole before any of its events is built, so a
	// row refused part way yields none of them; its events are then
	// built a batch at a time as they are read (fillPacked), never all
	// at once: one row of millions of members had held them all.
	n := 0
	for mc := fastjson.NewArrayCursor(membersRaw); ; n++ {
		m, more := mc.Next()
		if !more {
			if mc.Broken() || n == 0 {
				return bad()
			}
			break
		}
		if !isString(m) {
			return bad()
		}
	}
	// One walk of the gaps finds both their count and the first member
	// whose gap or time is wrong, which is said only once the row's shape
	// and seqs are found right, as the member-by-member build said it.
	gaps, t := 0, time0
	var fault error
	for dc := fastjson.NewArrayCursor(dtRaw); ; gaps++ {
		raw, more := dc.Next()
		if !more {
			if dc.Broken() || gaps != n-1 {
				return bad()
			}
			break
		}
		if fault != nil {
			continue
		}
		k := seq0 + int64(gaps) + 1 // the member the gap leads to
		switch gap, ok := strictInt64(raw); {
		case !ok:
			fault = d.errorf(k, reasonPacked)
		case (gap > 0 && t > maxInt64-gap) || (gap < 0 && t < minInt64-gap):
			fault = d.errorf(k, reasonPackedTime)
		default:
			t += gap
		}
	}
	if seq0 != d.next {
		return d.errorf(seq0, "seq %d is not contiguous; expected %d", seq0, d.next)
	}
	if int64(n)-1 > sessionlog.MaxSafeInteger-seq0 {
		return d.errorf(seq0, reasonPackedSeq)
	}
	if fault != nil {
		return fault
	}
	chunkType := "text-delta"
	switch typ {
	case "reasoning-chunks":
		chunkType = "reasoning-delta"
	case "tool-call-chunks":
		chunkType = "tool-call-delta"
	}
	// Every member's data is this prefix, the member, and "}}".
	b := append([]byte(nil), `{"turn":`...)
	b = appendCompact(b, turn)
	b = append(b, `,"step":`...)
	b = appendCompact(b, step)
	b = append(b, `,"chunk":{"type":"`...)
	b = append(b, chunkType...)
	b = append(b, `","index":`...)
	b = appendCompact(b, index)
	if tool {
		b = append(b, `,"id":`...)
		b = appendCompact(b, id)
		if name != nil {
			b = append(b, `,"name":`...)
			b = appendCompact(b, name)
		}
		b = append(b, `,"argumentsDelta":`...)
	} else {
		b = append(b, `,"text":`...)
	}
	d.packed = packedRow{active: true, members: fastjson.NewArrayCursor(membersRaw), dts: fastjson.NewArrayCursor(dtRaw),
		seq: seq0, time: time0, left: n, prefix: b}
	d.next = seq0 + int64(n)
	d.fillPacked()
	return nil
}

// packedRow is a packed chunk row checked whole and expanded as it is
// read: the events not yet built, from the member its cursors are at.
// It slices the row's line, which its reader leaves unchanged until the
// row is read (Decoder.Next, LineDecoder.More).
type packedRow struct {
	active       bool
	members, dts fastjson.ArrayCursor
	seq, time    int64  // the next event's
	left         int    // events not yet built
	prefix       []byte // every member's data up to the member
}

// packedBatch is how many of a packed row's events are built at a time.
const packedBatch = 1024

// fillPacked builds the packed row's next events, at most packedBatch of
// them, into d.batch, which d.pending then is (it held the events before
// them, which their reader is done with); it ends the row once every event
// is built.
func (d *Decoder) fillPacked() {
	p := &d.packed
	evs := d.batch[:0]
	for len(evs) < packedBatch && p.left > 0 {
		m, _ := p.members.Next()
		b := appendCompact(append(d.scratch[:0], p.prefix...), m)
		b = append(b, "}}"...)
		evs = append(evs, sessionlog.Event{Type: sessionlog.TypeAssistantChunk, Seq: p.seq, Time: p.time, Data: d.arena.copy(b)})
		d.scratch = b[:0]
		p.seq++
		if p.left--; p.left > 0 { // the next member's time: this one's plus its gap, checked with the row
			gap, _ := p.dts.Next()
			g, _ := strictInt64(gap)
			p.time += g
		}
	}
	d.batch, d.pending = evs, evs
	if p.left == 0 {
		*p = packedRow{}
	}
}

const (
	maxInt64 = 1<<63 - 1
	minInt64 = -1 << 63
)

func isNumber(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

func isString(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

// strictInt64 parses a JSON integer written without fraction or exponent
// that fits an int64.
func strictInt64(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, false
	}
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil
}

// appendCompact appends raw JSON with insignificant white space removed. raw
// must be valid JSON. Compaction escapes nothing.
func appendCompact(dst []byte, raw []byte) []byte {
	raw = bytes.TrimSpace(raw)
	if !needsCompact(raw) {
		return append(dst, raw...)
	}
	b := bytes.NewBuffer(dst)
	if err := json.Compact(b, raw); err != nil {
		return append(dst, raw...)
	}
	return b.Bytes()
}

// needsCompact reports whether raw may hold insignificant white space: any
// space, tab, CR or LF byte outside a string.
func needsCompact(raw []byte) bool {
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			return true
		}
	}
	return false
}
