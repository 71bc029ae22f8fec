package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// Surface is the incremental surface fold of log.md §6: the model-visible
// list of surface node seqs ("nodes", in surface order) and the replace
// generation, kept up to date one event at a time. Upstream calls it the
// SurfaceManager.
//
// Every event of the log, log-only ones included, goes through the Surface
// in seq order, starting at the base seq given to New. Validate plans
// the next event without changing anything; Commit applies a plan; Apply
// does both. A rejected event leaves the Surface exactly as it was.
//
// Cost: an append is O(1) amortized plus the length of its
// sourceEventSeqs; a replace is O(shadowed range + sourceEventSeqs), plus
// the size of the two payloads for a tool/result replacement. The nodes
// form a doubly linked list indexed by seq. Each node carries an order key:
// appends take increasing keys and a replacement node inherits the key of
// the first node it shadows, so keys increase along the list and "start
// after end" is one comparison.
//
// Each node keeps its event's type and data, which is all the tool/result
// rewrite rule (§6, step 4.6) and DeriveMessages need, so the Surface never
// looks events up in the log. Events are immutable once folded; the Surface
// keeps references to their raw data.
//
// A Surface is not safe for concurrent use.
type Surface struct {
	next       int64 // the seq the next event must carry
	head, tail *node
	bySeq      map[int64]*node
	n          int
	gen        int
	nextKey    int64
	version    uint64
	repl       []Replacement
	// lean says the nodes keep no message payloads, only (for
	// NewCountFolder) whether each derives a model message.
	lean bool
}

type node struct {
	prev, next *node
	key        int64
	seq        int64
	typ        string
	data       json.RawMessage
	msg        bool // a lean surface's node derives a model message
}

// Replacement records one replace the fold applied: the replacing event's
// seq, its surfaceOp's start and end, and the nodes it shadowed, in surface
// order.
type Replacement struct {
	Seq          int64
	Start, End   int64
	ShadowedSeqs []int64
}

// Plan is what Validate decided for one event. Op.Kind is OpNone for a
// log-only event, which makes no node; Shadowed lists the nodes a replace
// removes, in surface order.
type Plan struct {
	Seq      int64
	Op       sessionlog.Op
	Shadowed []int64

	s           *Surface
	version     uint64
	typ         string
	data        json.RawMessage
	msg         bool // the node derives a model message (a lean surface's)
	first, last *node
}

// New returns an empty Surface whose first event must carry seq
// baseSeq (0 for a whole log).
func New(baseSeq int64) *Surface {
	return &Surface{next: baseSeq, bySeq: make(map[int64]*node)}
}

// NextSeq returns the seq the next event must carry.
func (s *Surface) NextSeq() int64 { return s.next }

// Len returns the number of surface nodes.
func (s *Surface) Len() int { return s.n }

// Generation returns the replace generation: the number of replacements
// applied so far.
func (s *Surface) Generation() int { return s.gen }

// Contains reports whether seq is a current surface node.
func (s *Surface) Contains(seq int64) bool {
	_, ok := s.bySeq[seq]
	return ok
}

// Nodes returns a copy of the node seqs in surface order.
func (s *Surface) Nodes() []int64 {
	out := make([]int64, 0, s.n)
	for n := s.head; n != nil; n = n.next {
		out = append(out, n.seq)
	}
	return out
}

// All iterates over the node seqs in surface order. The Surface must not
// change during the iteration.
func (s *Surface) All() iter.Seq[int64] {
	return func(yield func(int64) bool) {
		for n := s.head; n != nil; n = n.next {
			if !yield(n.seq) {
				return
			}
		}
	}
}

// Replacements returns a copy of the replacements applied so far, oldest
// first.
func (s *Surface) Replacements() []Replacement {
	out := make([]Replacement, len(s.repl))
	for i, r := range s.repl {
		r.ShadowedSeqs = append([]int64(nil), r.ShadowedSeqs...)
		out[i] = r
	}
	return out
}

// Apply validates e and commits it.
func (s *Surface) Apply(e *sessionlog.Event) error {
	p, err := s.Validate(e)
	if err != nil {
		return err
	}
	return s.Commit(p)
}

// errStalePlan is returned by Commit for a plan made before another commit
// or by another Surface.
var errStalePlan = errors.New("surface: plan is stale")

// Commit applies a plan returned by Validate. The plan must be the latest:
// committing a plan made before another commit, or by another Surface,
// fails and changes nothing.
func (s *Surface) Commit(p Plan) error {
	if p.s != s || p.version != s.version {
		return errStalePlan
	}
	s.version++
	s.next++
	switch p.Op.Kind {
	case sessionlog.OpAppend:
		n := &node{key: s.nextKey, seq: p.Seq, typ: p.typ, data: p.data, msg: p.msg}
		s.nextKey++
		n.prev = s.tail
		if s.tail != nil {
			s.tail.next = n
		} else {
			s.head = n
		}
		s.tail = n
		s.bySeq[p.Seq] = n
		s.n++
	case sessionlog.OpReplace:
		n := &node{key: p.first.key, seq: p.Seq, typ: p.typ, data: p.data, msg: p.msg,
			prev: p.first.prev, next: p.last.next}
		if n.prev != nil {
			n.prev.next = n
		} else {
			s.head = n
		}
		if n.next != nil {
			n.next.prev = n
		} else {
			s.tail = n
		}
		for _, seq := range p.Shadowed {
			old := s.bySeq[seq]
			old.prev, old.next = nil, nil
			delete(s.bySeq, seq)
		}
		s.bySeq[p.Seq] = n
		s.n += 1 - len(p.Shadowed)
		s.gen++
		s.repl = append(s.repl, Replacement{Seq: p.Seq, Start: p.Op.Start, End: p.Op.End, ShadowedSeqs: p.Shadowed})
	}
	return nil
}

// Validate plans the fold step for e (log.md §6) without changing the
// Surface. The checks run in the spec's order and the first failure is
// returned as an *sessionlog.Error with the spec's text.
func (s *Surface) Validate(e *sessionlog.Event) (Plan, error) {
	fail := func(format string, args ...any) (Plan, error) {
		return Plan{}, eventErrorf(e.Seq, format, args...)
	}
	if e.Seq != s.next {
		return fail("session event seq %d is not contiguous; expected %d", e.Seq, s.next)
	}
	p := Plan{Seq: e.Seq, s: s, version: s.version, typ: e.Type, data: e.Data}
	hasOp := present(e.SurfaceOp)
	if !sessionlog.IsSurfaceEligibleType(e.Type) {
		if hasOp {
			return fail("session event %q is not surface-eligible and cannot carry surfaceOp", e.Type)
		}
		if present(e.SourceEventSeqs) {
			return fail("session event %q is not surface-eligible and cannot carry sourceEventSeqs", e.Type)
		}
		return p, nil
	}
	if !hasOp {
		return fail("session event %q is surface-eligible and requires a surfaceOp marker", e.Type)
	}
	p.Op = parseOpFast(e.SurfaceOp)
	switch p.Op.Kind {
	case sessionlog.OpInvalid:
		return fail("session event %q carries an invalid surfaceOp", e.Type)
	case sessionlog.OpInvalidReplace:
		return fail("session event %q carries an invalid replace surfaceOp", e.Type)
	case sessionlog.OpAppend:
		if err := checkProvenance(e, nil); err != nil {
			return Plan{}, err
		}
		return p, nil
	}

	start, end := p.Op.Start, p.Op.End
	first, ok := s.bySeq[start]
	if !ok {
		return fail("surface replace: start seq %d not found in surface", start)
	}
	last, ok := s.bySeq[end]
	if !ok {
		return fail("surface replace: end seq %d not found in surface", end)
	}
	if first.key > last.key {
		return fail("surface replace: start seq %d (index %d) is after end seq %d (index %d)",
			start, s.indexOf(first), end, s.indexOf(last))
	}
	var shadowed []int64
	for n := first; ; n = n.next {
		shadowed = append(shadowed, n.seq)
		if n == last {
			break
		}
	}
	if err := checkProvenance(e, shadowed); err != nil {
		return Plan{}, err
	}
	if e.Type == sessionlog.TypeToolResult {
		if len(shadowed) != 1 {
			return fail("tool/result surface replacement must rewrite exactly one current node")
		}
		if first.typ != sessionlog.TypeToolResult {
			return fail("tool/result surface replacement must target a current tool/result")
		}
		if !sameExceptContent(first.data, e.Data) {
			return fail("tool/result surface replacement may change only content")
		}
	}
	p.Shadowed, p.first, p.last = shadowed, first, last
	return p, nil
}

// indexOf returns n's position in surface order. O(n); error paths only.
func (s *Surface) indexOf(target *node) int {
	i := 0
	for n := s.head; n != nil && n != target; n = n.next {
		i++
	}
	return i
}

// present reports whether an optional raw field is present: non-empty
// after white space is trimmed.
func present(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	if c := raw[0]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
		return true
	}
	return len(bytes.TrimSpace(raw)) > 0
}

// parseOpFast is ParseOp with a fast path for the common "append".
func parseOpFast(raw json.RawMessage) sessionlog.Op {
	if string(raw) == `"append"` {
		return sessionlog.Op{Kind: sessionlog.OpAppend}
	}
	return sessionlog.ParseOp(raw)
}

// checkProvenance runs the sourceEventSeqs checks of log.md §5 in order.
// shadowed is nil for an append.
func checkProvenance(e *sessionlog.Event, shadowed []int64) error {
	fail := func(format string, args ...any) error {
		return eventErrorf(e.Seq, format, args...)
	}
	var seqs []int64
	if present(e.SourceEventSeqs) {
		var isArray, valid bool
		seqs, isArray, valid = parseSeqArray(e.SourceEventSeqs)
		if !isArray {
			return fail("sourceEventSeqs on event at seq %d must be an array when present", e.Seq)
		}
		if len(seqs) == 0 && valid && e.Type != sessionlog.TypeAssistantMessage {
			return fail("sourceEventSeqs must not be empty except on assistant/message")
		}
		if !valid {
			return fail("session event %q sourceEventSeqs must densely contain non-negative safe integers", e.Type)
		}
		if hasDuplicate(seqs) {
			return fail("sourceEventSeqs must not contain duplicates")
		}
		for _, x := range seqs {
			if x >= e.Seq {
				return fail("sourceEventSeqs must reference earlier events: %d >= current seq %d", x, e.Seq)
			}
		}
	}
	if len(shadowed) == 0 {
		return nil
	}
	listed := make(map[int64]struct{}, len(seqs))
	for _, x := range seqs {
		listed[x] = struct{}{}
	}
	var missing []string
	for _, x := range shadowed {
		if _, ok := listed[x]; !ok {
			missing = append(missing, strconv.FormatInt(x, 10))
		}
	}
	if len(missing) > 0 {
		return fail("surface replace: sourceEventSeqs must include every shadowed surface node; missing %s",
			strings.Join(missing, ", "))
	}
	return nil
}

// parseSeqArray decodes sourceEventSeqs. isArray is false when raw is not a
// JSON array; valid is false when an element is not a non-negative safe
// integer (an empty array is valid). sessionlog.PlainSeqs is the fast path
// for the usual form.
func parseSeqArray(raw json.RawMessage) (seqs []int64, isArray, valid bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false, false
	}
	if seqs, ok := sessionlog.PlainSeqs(raw); ok {
		return seqs, true, true
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, false, false
	}
	seqs = make([]int64, 0, len(items))
	for _, it := range items {
		n, ok := sessionlog.SafeNonNegInt(it)
		if !ok {
			return nil, true, false
		}
		seqs = append(seqs, n)
	}
	return seqs, true, true
}

func hasDuplicate(seqs []int64) bool {
	if len(seqs) <= 16 {
		for i := range seqs {
			for j := i + 1; j < len(seqs); j++ {
				if seqs[i] == seqs[j] {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[int64]struct{}, len(seqs))
	for _, x := range seqs {
		if _, ok := seen[x]; ok {
			return true
		}
		seen[x] = struct{}{}
	}
	return false
}

// sameExceptContent is the tool/result content-only rule (log.md §6, step
// 4.6.3): both payloads, with message.content reduced to its first block
// and that block's content set to null, must be equal as JSON values,
// whatever their key order. A first block that is not an object reduces to
// {"content":null}.
func sameExceptContent(a, b json.RawMessage) bool {
	if eq, ok := sameExceptContentFast(a, b); ok {
		return eq
	}
	va, okA := contentBlanked(a)
	vb, okB := contentBlanked(b)
	return okA && okB && reflect.DeepEqual(va, vb)
}

// sameExceptContentFast decides the rule for the usual shape (data, message
// and first content block all objects) without decoding the content: it
// splits the three objects into raw members and compares every member but
// message.content[0].content, byte for byte or, when the bytes differ, as
// decoded JSON values. ok is false for any other shape, which the generic
// comparison then decides.
//
// It does not re-validate the payloads (Load and Session.Append have
// checked that data is valid JSON); on malformed input it never panics and
// falls back to the generic comparison whenever the object structure it
// walks is broken.
func sameExceptContentFast(a, b []byte) (eq, ok bool) {
	da, okA := fastjson.ObjectMembers(a)
	db, okB := fastjson.ObjectMembers(b)
	if !okA || !okB {
		return false, false
	}
	ma, okA := fastjson.ObjectMembers(da["message"])
	mb, okB := fastjson.ObjectMembers(db["message"])
	if !okA || !okB {
		return false, false
	}
	ca, okA := fastjson.FirstElement(ma["content"])
	cb, okB := fastjson.FirstElement(mb["content"])
	if !okA || !okB {
		return false, false
	}
	ba, okA := fastjson.ObjectMembers(ca)
	bb, okB := fastjson.ObjectMembers(cb)
	if !okA || !okB {
		return false, false
	}
	return membersEqual(da, db, "message") && membersEqual(ma, mb, "content") && membersEqual(ba, bb, "content"), true
}

// membersEqual compares two objects' members, ignoring the key skip.
func membersEqual(x, y map[string][]byte, skip string) bool {
	nx, ny := len(x), len(y)
	if _, ok := x[skip]; ok {
		nx--
	}
	if _, ok := y[skip]; ok {
		ny--
	}
	if nx != ny {
		return false
	}
	for k, vx := range x {
		if k == skip {
			continue
		}
		vy, ok := y[k]
		if !ok || !jsonEqual(vx, vy) {
			return false
		}
	}
	return true
}

// jsonEqual compares two valid JSON values as values.
func jsonEqual(x, y []byte) bool {
	if bytes.Equal(x, y) {
		return true
	}
	var vx, vy any
	if json.Unmarshal(x, &vx) != nil || json.Unmarshal(y, &vy) != nil {
		return false
	}
	return reflect.DeepEqual(vx, vy)
}

// contentBlanked decodes a tool/result payload and blanks its content as
// the rule says; it is the generic form of the comparison.
func contentBlanked(raw json.RawMessage) (any, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	data, ok := v.(map[string]any)
	if !ok {
		return v, true
	}
	msg, ok := data["message"].(map[string]any)
	if !ok {
		return v, true
	}
	block := map[string]any{}
	if content, ok := msg["content"].([]any); ok && len(content) > 0 {
		if b, ok := content[0].(map[string]any); ok {
			block = b
		}
	}
	block["content"] = nil
	msg["content"] = []any{block}
	return v, true
}

// FoldResult is the result of a whole-log fold: the surface nodes in
// surface order and every replacement, oldest first.
type FoldResult struct {
	Nodes        []int64
	Replacements []Replacement
}

// Fold runs the surface fold over events, whose first must carry seq
// baseSeq, and returns the final surface. It stops at the first rejected
// event with its *sessionlog.Error.
func Fold(events []sessionlog.Event, baseSeq int64) (FoldResult, error) {
	s := New(baseSeq)
	for i := range events {
		if err := s.Apply(&events[i]); err != nil {
			return FoldResult{}, err
		}
	}
	return FoldResult{Nodes: s.Nodes(), Replacements: s.repl}, nil
}

// String returns a short description of the plan, for tests and logs.
func (p Plan) String() string {
	switch p.Op.Kind {
	case sessionlog.OpAppend:
		return fmt.Sprintf("seq %d: append", p.Seq)
	case sessionlog.OpReplace:
		return fmt.Sprintf("seq %d: replace %d..%d shadowing %v", p.Seq, p.Op.Start, p.Op.End, p.Shadowed)
	}
	return fmt.Sprintf("seq %d: log-only", p.Seq)
}
