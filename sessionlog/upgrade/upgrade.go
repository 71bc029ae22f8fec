// Package upgrade applies upstream's load-time upgrades of older event
// shapes (spec containers.md §7) to raw JSON event lines: the pre-identity
// user, assistant and tool-result messages, the pre-react-loop
// steering/message, turn/start trigger and turn/end reasons, and the
// refusals of request/header-delta, mode/set and request/header with reason
// "fallback".
//
// The upgrades are read-only (the stored bytes never change) and exact: only
// the exact legacy shape is converted, a current-looking but malformed event
// is left for validation to refuse, and the malformed legacy shapes upstream
// refuses are refused with upstream's text. Converted events take
// JavaScript's key order (a spread keeps the stored keys in place); members
// that are not rewritten keep their stored bytes.
//
// Feed events in log order to one Upgrader per session: a legacy replacement
// tool/result inherits the id of the message it replaces, so the Upgrader
// remembers each surface message's id by seq. Events no rule touches (most
// of a log: chunks and log-only events) are recognised from their type alone
// and returned untouched; current-shape messages cost one byte scan, never a
// decode.
package upgrade

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// Upgrader upgrades one session's events, in log order.
type Upgrader struct {
	sessionID string
	// ids holds each surface message's id (its raw JSON string) by seq, for
	// legacy replacements to inherit (upstream's messageIds).
	ids      idTable
	upgraded int
}

// New returns an Upgrader for the session whose header id is sessionID (the
// id upstream mints legacy message ids from).
func New(sessionID string) *Upgrader {
	return &Upgrader{sessionID: sessionID}
}

// Upgraded returns how many events Upgrade has changed so far.
func (u *Upgrader) Upgraded() int { return u.upgraded }

// Upgrade returns line in the current shape and whether it changed. A line
// that is not a JSON object, or not valid JSON, is returned unchanged: the
// decoder, not this package, refuses it. The result may share line's
// backing array when unchanged.
func (u *Upgrader) Upgrade(line json.RawMessage) (json.RawMessage, bool, error) {
	typ, ok := fastjson.Type(line)
	if !ok {
		return line, false, nil
	}
	switch typ {
	case "user/message", "assistant/message", "tool/result":
		if !u.legacyMessage(line, typ) {
			return line, false, nil
		}
	case "request/header":
		// Large (system prompt, tools) and common: only the reason matters.
		data, _ := fastjson.Find(line, "data")
		r, _ := fastjson.Find(data, "reason")
		if s, _ := fastjson.String(r); s != "fallback" {
			return line, false, nil
		}
	case "turn/start", "turn/end", "steering/message", "request/header-delta", "mode/set":
	default:
		return line, false, nil
	}
	return u.slow(line)
}

// legacyMessage is the fast check on a message event: true when it may
// need the upgrade (a decision the slow path makes exactly); false when it is
// current, in which case its id is recorded.
func (u *Upgrader) legacyMessage(line []byte, typ string) bool {
	data, ok := fastjson.Find(line, "data")
	if !ok || !fastjson.IsObject(data) {
		return false // upstream leaves a non-record alone; validation refuses it
	}
	// The key that proves the current shape: its presence alone rules the
	// legacy shape out, so the walk stops there.
	current := "message"
	if typ == "user/message" {
		current = "id"
	}
	var found bool
	var message []byte
	fastjson.Each(data, func(key string, val []byte) bool {
		if key == current {
			found, message = true, val
			return false
		}
		return true
	})
	if !found {
		return true
	}
	id := message
	if typ != "user/message" {
		id, _ = fastjson.Find(message, "id")
	}
	u.record(line, id)
	return false
}

// record remembers the id of the message at line's seq, when it is a string.
func (u *Upgrader) record(line, id []byte) {
	if _, isStr := fastjson.String(id); !isStr {
		return
	}
	seqRaw, ok := fastjson.Find(line, "seq")
	if !ok {
		return
	}
	if seq, ok := fastjson.SafeInt(seqRaw); ok {
		u.ids.set(seq, id)
	}
}

// event is one line being upgraded on the slow path.
type event struct {
	members  []fastjson.Member
	typ      string
	seq      string // as upstream prints it, for minted ids
	seqShown string // the same, quoted when not a number, for refusals
	changed  bool
}

func (e *event) get(k string) ([]byte, bool) { return fastjson.Get(e.members, k) }

func (e *event) set(k string, v []byte) {
	e.members = fastjson.Set(e.members, k, v)
	e.changed = true
}

// slow decodes the envelope's members and runs upstream's chain, in its
// order: refusals, turn/start, turn/end, steering/message, messages.
func (u *Upgrader) slow(line json.RawMessage) (json.RawMessage, bool, error) {
	if !fastjson.Valid(line) {
		return line, false, nil
	}
	members, ok := fastjson.Members(line)
	if !ok {
		return line, false, nil
	}
	e := &event{members: members}
	typRaw, _ := e.get("type")
	if e.typ, ok = fastjson.String(typRaw); !ok {
		return line, false, nil
	}
	e.seq = fastjson.JSText(e.get("seq"))
	e.seqShown = seqText(e.get("seq"))
	if err := u.refuse(e); err != nil {
		return nil, false, err
	}
	var err error
	switch e.typ {
	case "turn/start":
		err = u.turnStart(e)
	case "turn/end":
		err = u.turnEnd(e)
	case "steering/message":
		err = u.steering(e)
	}
	if err != nil {
		return nil, false, err
	}
	u.message(e)
	u.recordEvent(e)
	if !e.changed {
		return line, false, nil
	}
	u.upgraded++
	return fastjson.Object(e.members), true, nil
}

// seqText renders a seq as upstream's messages do (String(seq)). A seq that
// is not a number, which the container's seq check refuses anyway, is
// quoted, so that no log-derived control byte reaches an error text.
func seqText(raw []byte, present bool) string {
	if _, isNum := fastjson.Number(raw); isNum || !present {
		return fastjson.JSText(raw, present)
	}
	return strconv.Quote(fastjson.JSText(raw, present))
}

// refuse is upstream's assertSupportedEvents. Upstream scans the whole log
// for each of the three in turn before upgrading any event; a stream refuses
// at the first one it meets, so when a log holds several kinds, or a
// malformed legacy event before one, the one named can differ.
func (u *Upgrader) refuse(e *event) error {
	switch e.typ {
	case "request/header-delta", "mode/set":
		return u.fail(e, fmt.Sprintf("unsupported legacy %s event", e.typ))
	case "request/header":
		data, _ := e.get("data")
		if !fastjson.IsObject(data) {
			return nil
		}
		dm, _ := fastjson.Members(data)
		r, _ := fastjson.Get(dm, "reason")
		if s, _ := fastjson.String(r); s == "fallback" {
			return u.fail(e, `unsupported legacy request/header reason "fallback"`)
		}
	}
	return nil
}

// fail builds upstream's refusal of a legacy event upstream does not read,
// or a malformed pre-react-loop event: `session "<id>" contains <what> at
// seq N`, a *sessionlog.Error of sessionlog.LayerUpgrade whose Seq is the
// event's (-1 when it is not a number); the reader adds file:line.
func (u *Upgrader) fail(e *event, what string) error {
	seq, err := strconv.ParseInt(e.seqShown, 10, 64)
	if err != nil {
		seq = -1
	}
	return sessionlog.Refuse(sessionlog.LayerUpgrade, sessionlog.Pos{Seq: seq},
		fmt.Sprintf("session %q contains %s at seq %s", u.sessionID, what, e.seqShown), nil)
}

func (u *Upgrader) malformed(e *event) error {
	return u.fail(e, "malformed pre-react-loop "+e.typ)
}

// dataMembers returns the event's data members, ok false when data is not a
// record.
func (e *event) dataMembers() ([]fastjson.Member, bool) {
	data, _ := e.get("data")
	if !fastjson.IsObject(data) {
		return nil, false
	}
	return fastjson.Members(data)
}

// turnStart drops the pre-react-loop trigger after checking the whole old
// shape: {turn ≥ 1, trigger:{kind: non-empty string, …}}.
func (u *Upgrader) turnStart(e *event) error {
	dm, ok := e.dataMembers()
	if !ok || !fastjson.Has(dm, "trigger") {
		return nil
	}
	turnRaw, _ := fastjson.Get(dm, "turn")
	trigger, _ := fastjson.Get(dm, "trigger")
	turn, isInt := fastjson.SafeInt(turnRaw)
	if !isInt || turn < 1 || !fastjson.OnlyKeys(dm, []string{"turn", "trigger"}) || !fastjson.IsObject(trigger) {
		return u.malformed(e)
	}
	tm, _ := fastjson.Members(trigger)
	kindRaw, _ := fastjson.Get(tm, "kind")
	if kind, isStr := fastjson.String(kindRaw); !isStr || kind == "" {
		return u.malformed(e)
	}
	e.set("data", fastjson.Object([]fastjson.Member{{Key: "turn", Value: turnRaw}}))
	return nil
}

// turnEnd upgrades the pre-react-loop reasons; the current ones pass, and a
// malformed end is refused. Unknown kinds pass unchanged.
func (u *Upgrader) turnEnd(e *event) error {
	dm, ok := e.dataMembers()
	if !ok {
		return nil
	}
	turnRaw, _ := fastjson.Get(dm, "turn")
	reasonRaw, _ := fastjson.Get(dm, "reason")
	turn, isInt := fastjson.SafeInt(turnRaw)
	if !isInt || turn < 1 || !fastjson.OnlyKeys(dm, []string{"turn", "reason"}) || !fastjson.IsObject(reasonRaw) {
		return u.malformed(e)
	}
	rm, _ := fastjson.Members(reasonRaw)
	kindRaw, _ := fastjson.Get(rm, "kind")
	kind, isStr := fastjson.String(kindRaw)
	if !isStr {
		return u.malformed(e)
	}
	var reason string
	switch kind {
	case "completed", "blocked", "max-tokens", "interrupted":
		if !fastjson.OnlyKeys(rm, []string{"kind"}) {
			return u.malformed(e)
		}
		return nil
	case "aborted":
		if fastjson.Has(rm, "reason") {
			return nil
		}
		if !fastjson.OnlyKeys(rm, []string{"kind"}) {
			return u.malformed(e)
		}
		reason = `{"kind":"aborted","reason":{"kind":"legacy"}}`
	case "disposed":
		if !fastjson.OnlyKeys(rm, []string{"kind"}) {
			return u.malformed(e)
		}
		reason = `{"kind":"aborted","reason":{"kind":"disposed"}}`
	case "error":
		if fastjson.Has(rm, "error") {
			return nil
		}
		stepRaw, _ := fastjson.Get(rm, "step")
		if step, isInt := fastjson.SafeInt(stepRaw); !isInt || step < 0 {
			return u.malformed(e)
		}
		if failure, ok := legacyFailure(rm); ok {
			reason = `{"kind":"error","error":` + string(failure) + `}`
			break
		}
		msg, _ := fastjson.Get(rm, "message")
		code, hasCode := fastjson.Get(rm, "code")
		keys := []string{"kind", "step", "message"}
		if hasCode {
			keys = append(keys, "code")
		}
		if _, msgStr := fastjson.String(msg); !fastjson.OnlyKeys(rm, keys) || !msgStr {
			return u.malformed(e)
		}
		if hasCode {
			if _, codeStr := fastjson.String(code); !codeStr {
				return u.malformed(e)
			}
		} else {
			code = []byte(`"UNKNOWN"`)
		}
		reason = `{"kind":"error","error":{"message":` + string(msg) + `,"code":` + string(code) + `}}`
	default:
		return nil
	}
	e.set("data", fastjson.Object(fastjson.Set(dm, "reason", []byte(reason))))
	return nil
}

// legacyFailure returns the failure of a {kind:"error", step, failure} reason
// when it has exactly the LlmFailure shape.
func legacyFailure(rm []fastjson.Member) ([]byte, bool) {
	failure, _ := fastjson.Get(rm, "failure")
	if !fastjson.IsObject(failure) || !fastjson.OnlyKeys(rm, []string{"kind", "step", "failure"}) {
		return nil, false
	}
	fm, ok := fastjson.Members(failure)
	if !ok || !fastjson.OnlyKeys(fm, []string{"message", "code"}, "status", "providerRetryAfterMs", "requestId") {
		return nil, false
	}
	isString := func(k string) bool { v, _ := fastjson.Get(fm, k); _, s := fastjson.String(v); return s }
	optional := func(k string, check func([]byte) bool) bool {
		v, present := fastjson.Get(fm, k)
		return !present || check(v)
	}
	isNumber := func(v []byte) bool { _, n := fastjson.Number(v); return n }
	isStr := func(v []byte) bool { _, s := fastjson.String(v); return s }
	if !isString("message") || !isString("code") ||
		!optional("status", isNumber) || !optional("providerRetryAfterMs", isNumber) || !optional("requestId", isStr) {
		return nil, false
	}
	return fastjson.Object(fm), true
}

// steering converts the removed steering/message into a user/message: the
// wrapped form {turn, message} unwraps, the pre-identity form
// {turn, content, source} gets a minted id; anything else is refused.
func (u *Upgrader) steering(e *event) error {
	dm, ok := e.dataMembers()
	if !ok {
		return u.malformed(e)
	}
	turnRaw, _ := fastjson.Get(dm, "turn")
	_, turnOK := fastjson.SafeInt(turnRaw)
	wrapped, _ := fastjson.Get(dm, "message")
	if fastjson.IsObject(wrapped) && turnOK && fastjson.OnlyKeys(dm, []string{"turn", "message"}) {
		e.set("type", []byte(`"user/message"`))
		e.set("data", wrapped)
		return nil
	}
	if !turnOK || !fastjson.OnlyKeys(dm, []string{"turn", "content", "source"}) {
		return u.malformed(e)
	}
	e.set("type", []byte(`"user/message"`))
	msg := fastjson.Without(dm, "turn")
	msg = append(msg, fastjson.Member{Key: "id", Value: u.legacyID(e)}, fastjson.Member{Key: "role", Value: []byte(`"user"`)})
	e.set("data", fastjson.Object(msg))
	return nil
}

// legacyID mints upstream's id for a message stored before identities:
// legacy-message:<session id>:<seq>.
func (u *Upgrader) legacyID(e *event) []byte {
	return fastjson.Quote("legacy-message:" + u.sessionID + ":" + e.seq)
}

// isMessage says typ is one of the message types message and recordEvent
// read: any other event's data they need not decode (turn/start and
// turn/end, common and always on the slow path, would decode it twice more).
func isMessage(typ string) bool {
	return typ == "user/message" || typ == "assistant/message" || typ == "tool/result"
}

// message is upstream's migrateLegacyMessageEvent.
func (u *Upgrader) message(e *event) {
	typRaw, _ := e.get("type")
	typ, _ := fastjson.String(typRaw)
	if !isMessage(typ) {
		return
	}
	dm, ok := e.dataMembers()
	if !ok {
		return
	}
	has := func(k string) bool { return fastjson.Has(dm, k) }
	get := func(k string) []byte { v, _ := fastjson.Get(dm, k); return v }
	switch typ {
	case "user/message":
		if has("id") || has("role") || has("message") || !has("content") || !has("source") {
			return
		}
		dm = append(dm, fastjson.Member{Key: "id", Value: u.legacyID(e)}, fastjson.Member{Key: "role", Value: []byte(`"user"`)})
		e.set("data", fastjson.Object(dm))
	case "assistant/message":
		if has("message") || !has("content") || !has("provenance") {
			return
		}
		var source []fastjson.Member
		if prov := get("provenance"); fastjson.IsObject(prov) {
			source, _ = fastjson.Members(prov)
		}
		source = fastjson.Set(source, "kind", []byte(`"model"`))
		msg := fastjson.Object([]fastjson.Member{
			{Key: "id", Value: u.legacyID(e)},
			{Key: "role", Value: []byte(`"assistant"`)},
			{Key: "content", Value: get("content")},
			{Key: "source", Value: fastjson.Object(source)},
		})
		rest := fastjson.Without(dm, "content", "provenance")
		e.set("data", fastjson.Object(append(rest, fastjson.Member{Key: "message", Value: msg})))
	case "tool/result":
		if has("message") || !has("callId") || !has("content") || !has("isError") {
			return
		}
		callID := get("callId")
		var msg []fastjson.Member
		if id, ok := u.inheritedID(e); ok {
			if id != nil { // an unknown target leaves the id out, as JSON.stringify drops undefined
				msg = append(msg, fastjson.Member{Key: "id", Value: id})
			}
		} else {
			msg = append(msg, fastjson.Member{Key: "id", Value: u.legacyID(e)})
		}
		block := fastjson.Object([]fastjson.Member{
			{Key: "type", Value: []byte(`"tool-result"`)},
			{Key: "toolCallId", Value: callID},
			{Key: "content", Value: get("content")},
			{Key: "isError", Value: get("isError")},
		})
		msg = append(msg,
			fastjson.Member{Key: "role", Value: []byte(`"user"`)},
			fastjson.Member{Key: "content", Value: []byte("[" + string(block) + "]")},
			fastjson.Member{Key: "source", Value: fastjson.Object([]fastjson.Member{
				{Key: "kind", Value: []byte(`"tool"`)},
				{Key: "callId", Value: callID},
			})},
		)
		rest := fastjson.Without(dm, "callId", "content", "isError")
		e.set("data", fastjson.Object(append(rest, fastjson.Member{Key: "message", Value: fastjson.Object(msg)})))
	}
}

// inheritedID is the id a legacy replacement takes from its target
// (surfaceOp.start). ok is false when the event is not a replacement with a
// numeric start; id is nil when no message is known at that seq.
func (u *Upgrader) inheritedID(e *event) (id []byte, ok bool) {
	op, _ := e.get("surfaceOp")
	if !fastjson.IsObject(op) {
		return nil, false
	}
	om, _ := fastjson.Members(op)
	kind, _ := fastjson.Get(om, "op")
	if s, _ := fastjson.String(kind); s != "replace" {
		return nil, false
	}
	startRaw, _ := fastjson.Get(om, "start")
	if _, isNum := fastjson.Number(startRaw); !isNum {
		return nil, false
	}
	if start, isInt := fastjson.SafeInt(startRaw); isInt {
		return u.ids.get(start), true
	}
	return nil, true
}

// recordEvent remembers the id of a (possibly upgraded) surface message.
func (u *Upgrader) recordEvent(e *event) {
	typRaw, _ := e.get("type")
	typ, _ := fastjson.String(typRaw)
	if !isMessage(typ) {
		return
	}
	dm, ok := e.dataMembers()
	if !ok {
		return
	}
	var id []byte
	switch typ {
	case "user/message":
		id, _ = fastjson.Get(dm, "id")
	case "assistant/message", "tool/result":
		msg, _ := fastjson.Get(dm, "message")
		if !fastjson.IsObject(msg) {
			return
		}
		mm, _ := fastjson.Members(msg)
		id, _ = fastjson.Get(mm, "id")
	default:
		return
	}
	if _, isStr := fastjson.String(id); !isStr {
		return
	}
	seqRaw, _ := e.get("seq")
	if seq, ok := fastjson.SafeInt(seqRaw); ok {
		u.ids.set(seq, id)
	}
}
