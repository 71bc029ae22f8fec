// Package recovery gives the synthetic closers upstream's loader appends to a
// log that ends inside a turn (spec containers.md §6, upstream
// interruptedTurnClosers): one interrupted tool/result per tool call still
// pending, then step/end if a step is open, then turn/end {kind:"interrupted"}.
// A resumed upstream session shows them, so a reader that shows what upstream
// shows appends them too, marked synthetic.
//
// Feed the events in log order, after the load-time upgrades (package
// upgrade), as upstream runs the repair on upgraded events; then ask for the
// closers. Only the few lifecycle types are looked into; every other event
// costs a type check and the reading of its seq and time.
package recovery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
)

// Upstream's texts and codes for the interrupted tool results (repair.ts).
const (
	// TextOutcomeUnknown is the result text of a call whose tool/call was
	// recorded but whose result was not.
	TextOutcomeUnknown = "The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly."
	// TextNotStarted is the result text of a call the assistant requested
	// but whose tool/call was never recorded.
	TextNotStarted = "The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed."
	// CodeOutcomeUnknown and CodeNotStarted are the results' error codes.
	CodeOutcomeUnknown = "TOOL_OUTCOME_UNKNOWN"
	CodeNotStarted     = "TOOL_NOT_STARTED"
)

// Kind says which closer an event is.
type Kind uint8

const (
	// ToolOutcomeUnknown is an interrupted tool/result for a recorded call.
	ToolOutcomeUnknown Kind = iota + 1
	// ToolNotStarted is an interrupted tool/result for a call never recorded.
	ToolNotStarted
	// StepEnd closes the open step.
	StepEnd
	// TurnEnd ends the open turn with reason {kind:"interrupted"}.
	TurnEnd
)

// String names the kind for a summary.
func (k Kind) String() string {
	switch k {
	case ToolOutcomeUnknown:
		return "interrupted tool result (outcome unknown)"
	case ToolNotStarted:
		return "interrupted tool result (not started)"
	case StepEnd:
		return "step/end"
	case TurnEnd:
		return "turn/end interrupted"
	default:
		return "closer"
	}
}

// Closer is one synthetic event.
type Closer struct {
	// Line is the event as upstream's loader builds it, in its key order.
	Line []byte
	Type string
	Seq  int64
	Kind Kind
	// CallID is the tool call a tool/result closer answers.
	CallID string
	// Synthetic is always true: the event is not in the stored log, and a
	// summary says so.
	Synthetic bool
}

// pending is one tool call an assistant message requested and no tool/result
// has answered yet.
type pending struct {
	callID  string
	step    []byte // the assistant message's data.step, raw; nil when absent
	callSeq []byte // the tool/call's seq, raw; nil until one is recorded
	gone    bool
}

// Recoverer tracks the open turn, the open step and the pending calls of a
// log fed in order. The zero value is ready to use.
type Recoverer struct {
	turnOpen bool
	turn     []byte // raw data.turn of the open turn; nil when absent
	stepOpen bool
	step     []byte
	calls    []pending // insertion order, as upstream's Map
	index    map[string]int
	lastSeq  []byte
	lastTime []byte
	fed      bool
}

// Feed reads one event line (a JSON object). Lines it cannot read are
// skipped: refusing them is the decoder's job.
func (r *Recoverer) Feed(line []byte) {
	typ, ok := fastjson.Type(line)
	if !ok {
		return
	}
	r.fed = true
	seq, _ := fastjson.Find(line, "seq")
	tm, _ := fastjson.Find(line, "time")
	r.lastSeq = append(r.lastSeq[:0], seq...)
	r.lastTime = append(r.lastTime[:0], tm...)
	switch typ {
	case "turn/start":
		r.turn = field(line, "turn")
		r.turnOpen = string(r.turn) != "null" // upstream's openTurn === null test
		r.stepOpen, r.step = false, nil
		r.clear()
	case "turn/end":
		r.turnOpen, r.turn = false, nil
		r.stepOpen, r.step = false, nil
		r.clear()
	case "step/start":
		r.step = field(line, "step")
		r.stepOpen = string(r.step) != "null"
	case "step/end":
		r.clear()
		r.stepOpen, r.step = false, nil
	case "assistant/message":
		data, _ := fastjson.Find(line, "data")
		step, _ := fastjson.Find(data, "step")
		msg, _ := fastjson.Find(data, "message")
		content, _ := fastjson.Find(msg, "content")
		fastjson.Elements(content, func(block []byte) bool {
			t, _ := fastjson.Find(block, "type")
			if s, _ := fastjson.String(t); s != "tool-call" {
				return true
			}
			idRaw, _ := fastjson.Find(block, "id")
			if id, isStr := fastjson.String(idRaw); isStr {
				r.set(id, step)
			}
			return true
		})
	case "tool/call":
		data, _ := fastjson.Find(line, "data")
		idRaw, _ := fastjson.Find(data, "callId")
		if id, isStr := fastjson.String(idRaw); isStr {
			if i, ok := r.index[id]; ok {
				r.calls[i].callSeq = bytes.Clone(seq)
			}
		}
	case "tool/result":
		data, _ := fastjson.Find(line, "data")
		msg, _ := fastjson.Find(data, "message")
		src, _ := fastjson.Find(msg, "source")
		idRaw, _ := fastjson.Find(src, "callId")
		if id, isStr := fastjson.String(idRaw); isStr {
			if i, ok := r.index[id]; ok {
				r.calls[i].gone = true
				delete(r.index, id)
			}
		}
	}
}

// FeedChunk reads an assistant/chunk event by its seq and time, which is
// all Feed reads of one: a packed row's chunks need no line built for them.
func (r *Recoverer) FeedChunk(seq, time int64) {
	r.fed = true
	r.lastSeq = strconv.AppendInt(r.lastSeq[:0], seq, 10)
	r.lastTime = strconv.AppendInt(r.lastTime[:0], time, 10)
}

// field returns a copy of data.<key> of an event line, nil when absent.
func field(line []byte, key string) []byte {
	data, _ := fastjson.Find(line, "data")
	v, ok := fastjson.Find(data, key)
	if !ok {
		return nil
	}
	return bytes.Clone(v)
}

func (r *Recoverer) clear() {
	r.calls = r.calls[:0]
	clear(r.index)
}

// set registers a call as a Map.set does: a known id keeps its place and
// takes the new value (its recorded tool/call is forgotten).
func (r *Recoverer) set(id string, step []byte) {
	if r.index == nil {
		r.index = make(map[string]int)
	}
	p := pending{callID: id, step: bytes.Clone(step)}
	if i, ok := r.index[id]; ok {
		r.calls[i] = p
		return
	}
	r.index[id] = len(r.calls)
	r.calls = append(r.calls, p)
}

// Open reports whether the log fed so far ends inside a turn.
func (r *Recoverer) Open() bool { return r.turnOpen }

// Closers returns the synthetic events upstream appends after the events fed
// so far: none when no turn is open. Their seqs continue from the last
// event's, and they all take its time.
func (r *Recoverer) Closers() ([]Closer, error) {
	c, err := r.Closing()
	if err != nil || c == nil {
		return nil, err
	}
	out := make([]Closer, 0, c.Len())
	for i := range c.Len() {
		cl, err := c.At(i)
		if err != nil {
			return nil, err
		}
		out = append(out, cl)
	}
	return out, nil
}

// Closing is the closers of Closers, built one at a time as they are read
// (At): a log that ends with hundreds of thousands of tool calls pending
// had held a kilobyte line for each at once.
type Closing struct {
	r     *Recoverer
	calls []int // the indexes in r.calls of the calls still pending
	seq   int64 // the first closer's
	tm    []byte
	// bad: a value fed is not JSON, so At checks each closer it builds
	// (those of JSON values are JSON: every other part is written here).
	bad bool
}

// Closing returns the closers to append after the events fed so far, nil
// when no turn is open. The Recoverer must be fed no more while they are
// read.
func (r *Recoverer) Closing() (*Closing, error) {
	if !r.turnOpen || !r.fed {
		return nil, nil
	}
	last, ok := fastjson.SafeInt(r.lastSeq)
	if !ok || last < 0 {
		return nil, fmt.Errorf("recovery: the last event's seq %q is not a non-negative integer", r.lastSeq)
	}
	c := &Closing{r: r, seq: last + 1, tm: number(r.lastTime)}
	// The closers copy the turn, step, time and seq values they were fed;
	// from lines that were not JSON (which a decoder refuses first) they
	// would not be JSON either: that is found before any closer is read.
	valid := func(v []byte) bool { return v == nil || json.Valid(v) }
	bad := !valid(r.turn) || !valid(c.tm) || r.stepOpen && !valid(r.step)
	for i := range r.calls {
		if p := &r.calls[i]; !p.gone {
			c.calls = append(c.calls, i)
			bad = bad || !valid(p.step) || !valid(number(p.callSeq))
		}
	}
	if c.bad = bad; bad { // say which closer is not JSON
		for i := range c.Len() {
			if _, err := c.At(i); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// Len is the number of closers.
func (c *Closing) Len() int {
	n := len(c.calls) + 1 // the turn/end
	if c.r.stepOpen {
		n++
	}
	return n
}

// At builds the i-th closer: a tool/result for each call still pending,
// then a step/end if a step is open, then the turn/end.
func (c *Closing) At(i int) (Closer, error) {
	r, seq, tm := c.r, c.seq+int64(i), c.tm
	var out Closer
	switch {
	case i < len(c.calls):
		p := &r.calls[c.calls[i]]
		kind, text, name, code := ToolNotStarted, TextNotStarted, "ToolNotStartedError", CodeNotStarted
		if p.callSeq != nil {
			kind, text, name, code = ToolOutcomeUnknown, TextOutcomeUnknown, "ToolOutcomeUnknownError", CodeOutcomeUnknown
		}
		id := fastjson.Quote(p.callID)
		msgID := fastjson.Quote("interrupted-tool-result-" + p.callID + "-" + strconv.FormatInt(seq, 10))
		data := []fastjson.Member{}
		data = optional(data, "turn", r.turn)
		data = optional(data, "step", p.step)
		data = append(data,
			fastjson.Member{Key: "message", Value: fastjson.Object([]fastjson.Member{
				{Key: "id", Value: msgID},
				{Key: "role", Value: []byte(`"user"`)},
				{Key: "source", Value: fastjson.Object([]fastjson.Member{{Key: "kind", Value: []byte(`"tool"`)}, {Key: "callId", Value: id}})},
				{Key: "content", Value: wrap(fastjson.Object([]fastjson.Member{
					{Key: "type", Value: []byte(`"tool-result"`)},
					{Key: "toolCallId", Value: id},
					{Key: "isError", Value: []byte("true")},
					{Key: "content", Value: wrap(fastjson.Object([]fastjson.Member{
						{Key: "type", Value: []byte(`"text"`)},
						{Key: "text", Value: fastjson.Quote(text)},
					}))},
				}))},
			})},
			fastjson.Member{Key: "error", Value: fastjson.Object([]fastjson.Member{
				{Key: "name", Value: fastjson.Quote(name)},
				{Key: "code", Value: fastjson.Quote(code)},
			})},
		)
		ev := r.envelope("tool/result", seq, tm, fastjson.Object(data))
		ev = append(ev, fastjson.Member{Key: "surfaceOp", Value: []byte(`"append"`)})
		if p.callSeq != nil {
			ev = append(ev, fastjson.Member{Key: "sourceEventSeqs", Value: wrap(number(p.callSeq))})
		}
		out = Closer{Line: fastjson.Object(ev), Type: "tool/result", Seq: seq, Kind: kind, CallID: p.callID, Synthetic: true}
	case i == len(c.calls) && r.stepOpen:
		data := optional(optional(nil, "turn", r.turn), "step", r.step)
		out = Closer{Line: fastjson.Object(r.envelope("step/end", seq, tm, fastjson.Object(data))), Type: "step/end", Seq: seq, Kind: StepEnd, Synthetic: true}
	default:
		data := optional(nil, "turn", r.turn)
		data = append(data, fastjson.Member{Key: "reason", Value: []byte(`{"kind":"interrupted"}`)})
		out = Closer{Line: fastjson.Object(r.envelope("turn/end", seq, tm, fastjson.Object(data))), Type: "turn/end", Seq: seq, Kind: TurnEnd, Synthetic: true}
	}
	if c.bad && !json.Valid(out.Line) {
		return Closer{}, fmt.Errorf("recovery: the events fed were not valid JSON, so the closer at seq %d is not", seq)
	}
	return out, nil
}

// envelope starts a closer: type, seq, time, data.
func (r *Recoverer) envelope(typ string, seq int64, tm, data []byte) []fastjson.Member {
	ev := []fastjson.Member{
		{Key: "type", Value: fastjson.Quote(typ)},
		{Key: "seq", Value: []byte(strconv.FormatInt(seq, 10))},
	}
	if tm != nil { // JSON.stringify drops an undefined time
		ev = append(ev, fastjson.Member{Key: "time", Value: tm})
	}
	return append(ev, fastjson.Member{Key: "data", Value: data})
}

// optional appends key when the value was present (JSON.stringify drops
// undefined members).
func optional(m []fastjson.Member, key string, v []byte) []fastjson.Member {
	if v == nil {
		return m
	}
	return append(m, fastjson.Member{Key: key, Value: v})
}

// number renders a raw number as JSON.stringify would; other values are kept.
func number(raw []byte) []byte {
	if len(raw) == 0 {
		return nil
	}
	if _, ok := fastjson.Number(raw); ok {
		return []byte(fastjson.FormatNumber(raw))
	}
	return bytes.Clone(raw)
}

func wrap(v []byte) []byte { return append(append([]byte{'['}, v...), ']') }
