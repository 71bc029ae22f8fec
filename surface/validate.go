package surface

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// eventErrorf is the rejection of one event by load-time validation, the
// surface fold or Session.Append: a *sessionlog.Error of
// sessionlog.LayerSurface whose Reason is the spec's text verbatim
// (log.md §1.2, §4–§6, §8.3) and whose Seq is the event's seq (for
// load-time envelope errors, its index in the loaded array). It names no
// file or line, and so prints as its Reason: the loader of a file places it
// (package load).
func eventErrorf(seq int64, format string, args ...any) *sessionlog.Error {
	return sessionlog.Refuse(sessionlog.LayerSurface, sessionlog.Pos{Seq: seq}, fmt.Sprintf(format, args...), nil)
}

// ValidateLog runs the load-time checks of log.md §1.2 over a stored or
// seeded log, in order for each event, and returns the first failure:
//
//  1. the envelope: a non-empty type, a safe non-negative seq, data present
//     and lossless JSON (no -0, no number that overflows to ±Infinity),
//     surfaceOp and sourceEventSeqs valid JSON when present;
//  2. no legacy request/header-delta event;
//  3. seq equal to the index;
//  4. message shapes (log.md §8.3), subject "seed <type> at index N";
//  5. no unknown type without ignorable: true (see isKnownType).
//
// It does not fold the surface; Load does both.
func ValidateLog(events []sessionlog.Event) error {
	for i := range events {
		if err := validateStored(&events[i], int64(i), false); err != nil {
			return err
		}
	}
	return nil
}

// validateStored runs the load-time checks on the event at index i; with
// syntax, its payloads are known to be valid JSON (Folder.TrustSyntax).
func validateStored(e *sessionlog.Event, i int64, syntax bool) error {
	msg, ok := readPayload(e, syntax)
	if !ok {
		return eventErrorf(i, "seed event at index %d has an invalid event envelope", i)
	}
	if e.Type == sessionlog.TypeLegacyHeaderDelta {
		return eventErrorf(i, "seed event at index %d uses unsupported legacy request/header-delta format", i)
	}
	if e.Seq != i {
		return eventErrorf(i, "seed event at index %d has seq %d (expected %d); seed must be contiguous from 0", i, e.Seq, i)
	}
	if err := checkMessage(e, &msg, func() string { return fmt.Sprintf("seed %s at index %d", e.Type, i) }); err != nil {
		return err
	}
	return checkKnown(e)
}

// checkKnown refuses an unknown type that lacks the ignorable marker
// (log.md §1.2.5).
func checkKnown(e *sessionlog.Event) error {
	if e.Ignorable || isKnownType(e.Type) {
		return nil
	}
	return eventErrorf(e.Seq, "session event at seq %d has unknown type %q and is not marked ignorable", e.Seq, e.Type)
}

// readPayload runs the envelope checks on e (validSyntax, then
// losslessJSON) and, for a message event, reads its message's facts in
// the same walk as its numbers (readMessage): a message's content is
// scanned once for both. ok is false when the envelope is invalid. A
// payload the walk could not read is no object: its facts say so.
func readPayload(e *sessionlog.Event, syntax bool) (msg messageFacts, ok bool) {
	if !validSyntax(e, syntax) {
		return messageFacts{}, false
	}
	if isMessageType(e.Type) {
		msg, lossless, walked := readMessage(e.Data, e.Type == sessionlog.TypeUserMessage, e.Type == sessionlog.TypeToolResult)
		if walked {
			return msg, lossless
		}
	}
	return msg, losslessJSON(e.Data)
}

// validSyntax checks what the typed Event can still get wrong but for its
// lossless numbers; with syntax, that its payloads are valid JSON is known
// and not checked.
func validSyntax(e *sessionlog.Event, syntax bool) bool {
	if e.Type == "" || e.Seq < 0 || e.Seq > sessionlog.MaxSafeInteger || e.Data == nil {
		return false
	}
	if syntax {
		return true
	}
	if !fastjson.Valid(e.Data) {
		return false
	}
	for _, raw := range []json.RawMessage{e.SurfaceOp, e.SourceEventSeqs} {
		if raw != nil && !fastjson.Valid(raw) {
			return false
		}
	}
	return true
}

// losslessJSON reports whether valid JSON raw survives JSON.parse and
// JSON.stringify unchanged in value (log.md §1.2.6): it rejects negative
// zero and numbers that overflow a float64.
func losslessJSON(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '"' {
			i = stringEnd(raw, i+1)
			continue
		}
		if c != '-' && (c < '0' || c > '9') {
			continue
		}
		end, ok := number(raw, i)
		if !ok {
			return false
		}
		i = end - 1
	}
	return true
}

// stringEnd is the index of the quote that ends the string whose text
// starts at raw[i] (len(raw) if none does): the first quote after an even
// run of backslashes, found by IndexByte rather than byte by byte, since
// most of a payload is long strings.
func stringEnd(raw []byte, i int) int {
	for {
		k := bytes.IndexByte(raw[i:], '"')
		if k < 0 {
			return len(raw)
		}
		q := i + k
		n := 0
		for q-1-n >= i && raw[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// isKnownType reports whether the vocabulary (sessionlog.LookupType, the
// union of upstream's known sets and the retired types) knows event type t.
func isKnownType(t string) bool {
	_, ok := sessionlog.LookupType(t)
	return ok
}

// isMessageType reports whether events of type t carry a message that
// CheckMessageShape checks.
func isMessageType(t string) bool {
	return sessionlog.IsSurfaceEligibleType(t)
}

// CheckMessageShape runs the message shape checks of log.md §8.3 on a
// message event (user/message, steering/message, assistant/message,
// tool/result) and returns nil for any other type. subject gives what
// starts every error text, "seed <type> at index N" when loading, "session
// event at seq N" when appending: it is asked for only on a failure (every
// event of a log is checked). Data is expected to be valid JSON (the envelope check
// runs first); malformed data fails the first check that cannot read it.
func CheckMessageShape(e *sessionlog.Event, subject func() string) error {
	if !isMessageType(e.Type) {
		return nil
	}
	m, _, _ := readMessage(e.Data, e.Type == sessionlog.TypeUserMessage, e.Type == sessionlog.TypeToolResult)
	return checkMessage(e, &m, subject)
}

// checkMessage is CheckMessageShape on the facts of e's message; nil for
// an event of no message.
func checkMessage(e *sessionlog.Event, m *messageFacts, subject func() string) error {
	if !isMessageType(e.Type) {
		return nil
	}
	fail := func(format string, args ...any) error {
		return eventErrorf(e.Seq, "%s %s", subject(), fmt.Sprintf(format, args...))
	}
	if !m.object {
		return fail("lacks an identified message")
	}
	if id, ok := jsonString(m.id); !ok || id == "" {
		return fail("lacks an identified message")
	}
	wantRole := "user"
	if e.Type == sessionlog.TypeAssistantMessage {
		wantRole = "assistant"
	}
	if role, ok := jsonString(m.role); !ok || role != wantRole {
		return fail("message must have role %q", wantRole)
	}
	source := &m.source
	if !source.object {
		return fail("message has invalid source")
	}
	kind, ok := jsonString(source.kind)
	if !ok || kind == "" {
		return fail("message has invalid source")
	}
	if !m.contentArray {
		return fail("message has invalid content")
	}
	switch e.Type {
	case sessionlog.TypeAssistantMessage:
		provider, ok1 := jsonString(source.provider)
		model, ok2 := jsonString(source.model)
		if kind != "model" || !ok1 || !ok2 || provider == "" || model == "" {
			return fail("message must have model source")
		}
	case sessionlog.TypeToolResult:
		callID, ok := jsonString(source.callID)
		if kind != "tool" || !ok || callID == "" {
			return fail("message must have tool source")
		}
		block := &m.block
		if typ, _ := jsonString(block.typ); !block.sole || typ != "tool-result" || !block.contentArray {
			return fail("message must contain one tool-result block")
		}
		if id, ok := jsonString(block.callID); !ok || id != callID {
			return fail("message has mismatched tool call ids")
		}
	}
	return nil
}

// jsonString decodes raw as a JSON string; ok is false for any other value.
func jsonString(raw []byte) (string, bool) {
	return fastjson.DecodeString(bytes.TrimSpace(raw))
}
