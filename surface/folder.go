package surface

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// A Folder is Load for a reader that does not keep the log: it takes the
// stored events one at a time, runs the load-time checks on each and
// folds the surface, holding only the surface. Its verdict is Load's: the
// first event that fails the load-time checks, else the first the fold
// refuses (Load checks the whole log before it folds, so a check failure
// later in the log wins over an earlier fold failure).
//
// The surface keeps the payloads of its nodes. A Folder made to copy them
// keeps copies, so that a reader's buffers are free to go; one that does
// not shares the events' payloads, for a reader that keeps the events
// (Session). A lean Folder (NewVerdictFolder, NewCountFolder) keeps only
// what the verdict needs.
type Folder struct {
	s        *Surface
	n        int64
	copy     bool
	counts   bool // a lean Folder's Surface counts its messages (NewCountFolder)
	syntax   bool // the events' JSON is known valid (TrustSyntax)
	checkErr error
	foldErr  error
}

// NewFolder returns a Folder of an empty log; copyData says whether the
// surface keeps copies of the payloads.
func NewFolder(copyData bool) *Folder { return &Folder{s: New(0), copy: copyData} }

// NewVerdictFolder returns a Folder of an empty log that reaches the same
// verdict as NewFolder's but keeps of each surface node only what a later
// event's check reads: nothing of a message, and of a tool/result what the
// content-only rewrite rule compares (its payload, its content blanked when
// it is long). A reader that needs only the verdict (repro, render,
// history) so holds no copy of the log's texts: on a log of long prompts
// the surface's copies were as large as the log. Its Surface is nil.
func NewVerdictFolder() *Folder { return newLeanFolder(false) }

// NewCountFolder is NewVerdictFolder with a Surface that knows its nodes,
// its generation and how many model messages they derive (MessageCount),
// but not the messages: what check reports of a log it does not keep.
func NewCountFolder() *Folder { return newLeanFolder(true) }

// newLeanFolder returns a Folder whose surface is lean (Surface.lean: its
// nodes keep no message payloads), counting messages or not.
func newLeanFolder(counts bool) *Folder {
	f := &Folder{s: New(0), counts: counts}
	f.s.lean = true
	return f
}

// TrustSyntax tells f that the events it will take hold valid JSON in
// Data, SurfaceOp and SourceEventSeqs, as reader.Stream's do (the
// container checks every line whole), so Add does not scan them for it
// again; every other load-time check still runs, and so does the
// losslessness of Data's numbers.
func (f *Folder) TrustSyntax() { f.syntax = true }

// Add takes the next stored event.
func (f *Folder) Add(e *sessionlog.Event) {
	i := f.n
	f.n++
	if f.checkErr != nil {
		return
	}
	if err := validateStored(e, i, f.syntax); err != nil {
		f.checkErr = err
		return
	}
	if f.foldErr != nil {
		return
	}
	if f.s.lean {
		f.foldErr = f.addLean(e)
		return
	}
	if f.copy && e.SurfaceOp != nil {
		c := *e
		c.Data = bytes.Clone(e.Data)
		e = &c
	}
	f.foldErr = f.s.Apply(e)
}

// addLean folds e keeping of its node only what a later check reads, and
// whether it derives a model message when f counts them.
func (f *Folder) addLean(e *sessionlog.Event) error {
	p, err := f.s.Validate(e)
	if err != nil {
		return err
	}
	if p.Op.Kind != sessionlog.OpNone {
		if f.counts {
			_, p.msg = DeriveEventMessage(e)
		}
		p.data = nil // no check reads a message node's payload
		if e.Type == sessionlog.TypeToolResult {
			p.data = resultRuleData(e.Data)
		}
	}
	return f.s.Commit(p)
}

// ruleDataMax is the payload size above which a verdict Folder keeps a
// tool/result's payload with its content blanked instead of whole.
const ruleDataMax = 4 << 10

// resultRuleData is a copy of a tool/result payload that the content-only
// rule (sameExceptContent) judges as it judges raw: raw itself when it is
// short, else raw with its content blanked as the rule blanks it.
func resultRuleData(raw json.RawMessage) json.RawMessage {
	if len(raw) <= ruleDataMax {
		return bytes.Clone(raw)
	}
	if b, ok := contentBlankedFast(raw); ok {
		return b
	}
	v, ok := contentBlanked(raw)
	if !ok {
		return bytes.Clone(raw)
	}
	b, err := json.Marshal(v)
	if err != nil { // a value json.Unmarshal made always marshals
		return bytes.Clone(raw)
	}
	return b
}

// contentBlankedFast is contentBlanked of the usual shape (data, message
// and the first content block all objects), written out without decoding:
// the members are kept raw, message.content becomes the first block alone
// and that block's content null. It is a new copy, equal as a JSON value
// to what contentBlanked would marshal. ok is false for any other shape.
func contentBlankedFast(raw []byte) ([]byte, bool) {
	data, ok := fastjson.Members(raw)
	if !ok {
		return nil, false
	}
	msg, ok := fastjson.Get(data, "message")
	if !ok {
		return nil, false
	}
	msgMembers, ok := fastjson.Members(msg)
	if !ok {
		return nil, false
	}
	content, ok := fastjson.Get(msgMembers, "content")
	if !ok {
		return nil, false
	}
	first, ok := fastjson.FirstElement(content)
	if !ok {
		return nil, false
	}
	block, ok := fastjson.Members(first)
	if !ok {
		return nil, false
	}
	block = fastjson.Set(block, "content", []byte("null"))
	blanked := append(append([]byte{'['}, fastjson.Object(block)...), ']')
	msgMembers = fastjson.Set(msgMembers, "content", blanked)
	return fastjson.Object(fastjson.Set(data, "message", fastjson.Object(msgMembers))), true
}

// Err returns what Load would have returned for the events added so far:
// nil, or an *sessionlog.Error.
func (f *Folder) Err() error {
	if f.checkErr != nil {
		return f.checkErr
	}
	return f.foldErr
}

// Surface returns the surface folded so far; nil for a verdict Folder,
// whose nodes lack their payloads.
func (f *Folder) Surface() *Surface {
	if f.s.lean && !f.counts {
		return nil
	}
	return f.s
}

// Session returns the session Load(events, clock) would: events must be
// the events added, in order, kept unchanged; the session keeps the slice.
// The error is Err's.
func (f *Folder) Session(events []sessionlog.Event, clock sessionlog.Clock) (*Session, error) {
	if err := f.Err(); err != nil {
		return nil, err
	}
	if f.s.lean {
		return nil, fmt.Errorf("surface: folder: a lean folder keeps no payloads to make a session of")
	}
	if int64(len(events)) != f.n {
		return nil, fmt.Errorf("surface: folder: %d events, %d added", len(events), f.n)
	}
	return &Session{clock: clock, surface: f.s, events: events[:len(events):len(events)]}, nil
}
