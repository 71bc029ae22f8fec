package sessionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Event is one entry of a session log: the envelope of log.md §1.1.
//
// Data, SurfaceOp and SourceEventSeqs are kept as raw JSON so that every
// event, including types this package does not know, survives a decode and
// encode unchanged, and so that malformed markers can be reported with the
// spec's wording instead of failing at decode time. A nil SurfaceOp or
// SourceEventSeqs means the key was absent.
type Event struct {
	Type            string
	Seq             int64
	Time            int64
	Data            json.RawMessage
	SurfaceOp       json.RawMessage
	SourceEventSeqs json.RawMessage
	Ignorable       bool
}

// OpKind says how a surface event joins the model surface.
type OpKind uint8

const (
	// OpNone: the event carries no surfaceOp.
	OpNone OpKind = iota
	// OpAppend: "append".
	OpAppend
	// OpReplace: {"op":"replace","start":S,"end":E}.
	OpReplace
	// OpInvalid: a surfaceOp that is neither "append" nor an object.
	OpInvalid
	// OpInvalidReplace: an object that is not a well-formed replace.
	OpInvalidReplace
)

// Op is a parsed SurfaceOp. Start and End are surface node seqs and are
// meaningful only when Kind is OpReplace.
type Op struct {
	Kind       OpKind
	Start, End int64
}

// AppendOp returns the raw JSON of the "append" surface op, a new slice on
// every call, so that no caller can change another's.
func AppendOp() json.RawMessage { return json.RawMessage(`"append"`) }

// ReplaceOp returns the raw JSON of a replace surface op over start..end.
func ReplaceOp(start, end int64) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"op":"replace","start":%d,"end":%d}`, start, end))
}

// ParseOp classifies raw surfaceOp JSON as log.md §4 describes.
func ParseOp(raw json.RawMessage) Op {
	if string(raw) == `"append"` { // the usual op, without a decode
		return Op{Kind: OpAppend}
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return Op{Kind: OpNone}
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil && s == "append" {
			return Op{Kind: OpAppend}
		}
		return Op{Kind: OpInvalid}
	case '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil || len(m) != 3 {
			return Op{Kind: OpInvalidReplace}
		}
		var op string
		if json.Unmarshal(m["op"], &op) != nil || op != "replace" {
			return Op{Kind: OpInvalidReplace}
		}
		start, ok1 := SafeNonNegInt(m["start"])
		end, ok2 := SafeNonNegInt(m["end"])
		if !ok1 || !ok2 {
			return Op{Kind: OpInvalidReplace}
		}
		return Op{Kind: OpReplace, Start: start, End: end}
	default:
		return Op{Kind: OpInvalid}
	}
}

// MaxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the bound upstream
// puts on seqs and times.
const MaxSafeInteger = 1<<53 - 1

// SafeNonNegInt reports whether raw is a JSON integer in [0, 2^53-1].
func SafeNonNegInt(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '-' {
		return 0, false
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	if len(raw) > 16 {
		return 0, false
	}
	var n int64
	for _, c := range raw {
		n = n*10 + int64(c-'0')
	}
	if n > MaxSafeInteger {
		return 0, false
	}
	return n, true
}

// Op returns the event's parsed surface op.
func (e *Event) Op() Op { return ParseOp(e.SurfaceOp) }

// Event type names. Both naming generations are listed; see Canonical.
const (
	TypeTurnStart        = "turn/start"
	TypeTurnEnd          = "turn/end"
	TypeStepStart        = "step/start"
	TypeStepEnd          = "step/end"
	TypeUserMessage      = "user/message"
	TypeSteeringMessage  = "steering/message"
	TypeAssistantChunk   = "assistant/chunk"
	TypeAssistantMessage = "assistant/message"
	TypeToolCall         = "tool/call"
	TypeToolResult       = "tool/result"
	TypeTodoWrite        = "todo/write"
	TypeRequestHeader    = "request/header"
	TypeRequestContext   = "request/context"
	TypeSessionTitle     = "session/title"
	TypeSessionEndSeed   = "session/end-seed"
	TypeLLMRetry         = "llm/retry"

	TypeCompactionStart   = "compaction/start"
	TypeCompactionSummary = "compaction/summary"
	TypeCompactionEnd     = "compaction/end"
	TypeCompactionPrune   = "compaction/prune"
	TypeCompactStart      = "compact/start"
	TypeCompactSummary    = "compact/summary"
	TypeCompactEnd        = "compact/end"

	// TypeLegacyHeaderDelta is refused at load time (log.md §1.2).
	TypeLegacyHeaderDelta = "request/header-delta"
)

// Canonical maps the older compaction names (compact/*) to the newer ones
// (compaction/*) and returns every other type unchanged, so that readers can
// switch on one spelling.
func Canonical(t string) string {
	switch t {
	case TypeCompactStart:
		return TypeCompactionStart
	case TypeCompactSummary:
		return TypeCompactionSummary
	case TypeCompactEnd:
		return TypeCompactionEnd
	}
	return t
}

// IsSurfaceEligibleType reports whether events of type t join the model
// surface. steering/message is accepted because older logs use it.
func IsSurfaceEligibleType(t string) bool {
	switch t {
	case TypeUserMessage, TypeAssistantMessage, TypeToolResult, TypeSteeringMessage:
		return true
	}
	return false
}

// IsSurfaceEvent reports whether e is surface-eligible and carries a surfaceOp.
func IsSurfaceEvent(e *Event) bool {
	return IsSurfaceEligibleType(e.Type) && len(bytes.TrimSpace(e.SurfaceOp)) > 0
}

// IsAppendSurfaceEvent reports whether e is an append-origin surface event:
// durable conversation, the source of the human transcript.
func IsAppendSurfaceEvent(e *Event) bool {
	return IsSurfaceEvent(e) && isAppendOp(e.SurfaceOp)
}

// isAppendOp is ParseOp(raw).Kind == OpAppend without decoding an object:
// the projections ask it of every event, many times over, and a replace
// op is a JSON object.
func isAppendOp(raw json.RawMessage) bool {
	if string(raw) == `"append"` {
		return true
	}
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"' && ParseOp(raw).Kind == OpAppend
}

// IsReplacementSurfaceEvent reports whether e is a surface event whose op is
// not "append": a model-only copy (checkpoint, pruned result, regenerated
// answer, another plugin's replacement).
func IsReplacementSurfaceEvent(e *Event) bool {
	return IsSurfaceEvent(e) && !isAppendOp(e.SurfaceOp)
}

// CompactPlugin is the plugin id of the compaction checkpoint source, in both
// naming generations.
const CompactPlugin = "compact"

// CompactCheckpointSource returns the message source a compaction checkpoint
// declares (log.md §10). An empty compactionID gives the older generation's
// constant {"kind":"plugin","plugin":"compact"}; sourceCommandID is written
// only when non-empty.
func CompactCheckpointSource(compactionID, sourceCommandID string) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"kind":"plugin","plugin":"compact"`)
	if compactionID != "" {
		b.WriteString(`,"compactionId":`)
		writeJSONString(&b, compactionID)
	}
	if sourceCommandID != "" {
		b.WriteString(`,"sourceCommandId":`)
		writeJSONString(&b, sourceCommandID)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// IsCompactCheckpointSource reports whether a message source is the
// compaction checkpoint's: kind "plugin" and plugin "compact". It ignores
// compactionId, so both naming generations match.
func IsCompactCheckpointSource(source json.RawMessage) bool {
	var s struct {
		Kind   string `json:"kind"`
		Plugin any    `json:"plugin"`
	}
	if json.Unmarshal(source, &s) != nil {
		return false
	}
	p, ok := s.Plugin.(string)
	return s.Kind == "plugin" && ok && p == CompactPlugin
}

// MayBeCheckpoint is IsCheckpoint's conditions but the source's: a
// user/message that is a replacement surface event. A reader that finds
// the payload's source faster than json.Unmarshal (fastjson.IsCheckpoint)
// asks it first, then IsCompactCheckpointSource.
func MayBeCheckpoint(e *Event) bool {
	return e.Type == TypeUserMessage && IsReplacementSurfaceEvent(e)
}

// IsCheckpoint is the three-condition checkpoint test of log.md §10: a
// user/message, whose source is the compaction checkpoint source, that is a
// replacement surface event. The checkpoint is recognised by its declared
// source, never by its shape.
func IsCheckpoint(e *Event) bool {
	if !MayBeCheckpoint(e) {
		return false
	}
	var m struct {
		Source json.RawMessage `json:"source"`
	}
	if json.Unmarshal(e.Data, &m) != nil {
		return false
	}
	return IsCompactCheckpointSource(m.Source)
}

// Sources decodes SourceEventSeqs. ok is false when the field is present but
// is not an array of integers; absent gives (nil, true).
func (e *Event) Sources() (seqs []int64, ok bool) {
	raw := bytes.TrimSpace(e.SourceEventSeqs)
	if len(raw) == 0 {
		return nil, true
	}
	if raw[0] != '[' {
		return nil, false
	}
	if seqs, ok := PlainSeqs(raw); ok {
		return seqs, true
	}
	if err := json.Unmarshal(raw, &seqs); err != nil {
		return nil, false
	}
	return seqs, true
}

// PlainSeqs parses the form every writer of a log gives a seq array,
// "[1,2,3]": no white space, plain digits without leading zeros, each a
// non-negative safe integer. It is a fast path (benchmarked at many times
// encoding/json's speed): ok is false for anything else, which callers then
// decode with encoding/json, and where ok is true the seqs are what
// encoding/json would give ("[]" gives an empty, non-nil slice).
func PlainSeqs(raw []byte) ([]int64, bool) {
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, false
	}
	body := raw[1 : len(raw)-1]
	if len(body) == 0 {
		return []int64{}, true
	}
	seqs := make([]int64, 0, 1+bytes.Count(body, []byte{','}))
	for len(body) > 0 {
		i := bytes.IndexByte(body, ',')
		tok := body
		if i >= 0 {
			tok, body = body[:i], body[i+1:]
			if len(body) == 0 {
				return nil, false
			}
		} else {
			body = nil
		}
		if len(tok) == 0 || (len(tok) > 1 && tok[0] == '0') {
			return nil, false
		}
		for _, c := range tok {
			if c < '0' || c > '9' { // SafeNonNegInt would trim white space JSON does not allow
				return nil, false
			}
		}
		n, ok := SafeNonNegInt(tok)
		if !ok {
			return nil, false
		}
		seqs = append(seqs, n)
	}
	return seqs, true
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}
