package harness

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/sessionlog"
)

// verbAppend is the append verb.
//
//	append JSON [--as NAME]
//
// Appends one raw event, given as its JSON envelope {type, data,
// surfaceOp?, sourceEventSeqs?, ignorable?}. seq and time are assigned (any
// given are ignored). The session validates it before it enters the log,
// so "! append" with a following stderr check pins a rejection and its
// exact text. Labels are environment variables, so '…'$NAME'…' puts a
// labelled seq into the JSON. An envelope the Event type cannot carry (an
// unknown key, a non-string type, an absent data) is rejected with the
// session's envelope error.
//
// Example:
//
//	append '{"type":"session/title","data":{"title":"Demo"}}'
//	! append '{"type":"tool/call","data":{},"surfaceOp":"append"}'
//	stderr '^session event "tool/call" is not surface-eligible and cannot carry surfaceOp$'
func verbAppend(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "append", func(s *script) error {
		p, err := parseArgs("append", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 1 {
			return fmt.Errorf("usage: append JSON [--as NAME]")
		}
		e, err := rawEvent(p.pos[0])
		if err != nil {
			return err
		}
		_, err = s.appendLabelled(ts, p, 0, e)
		return err
	})
}

// rawEvent decodes an event envelope. A malformed envelope becomes an
// event with no type, which the session rejects with its envelope error.
func rawEvent(src string) (sessionlog.Event, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(src), &fields); err != nil {
		return sessionlog.Event{}, fmt.Errorf("append: not a JSON object: %w", err)
	}
	var e sessionlog.Event
	valid := true
	for k, v := range fields {
		switch k {
		case "type":
			valid = valid && json.Unmarshal(v, &e.Type) == nil
		case "data":
			e.Data = v
		case "surfaceOp":
			e.SurfaceOp = v
		case "sourceEventSeqs":
			e.SourceEventSeqs = v
		case "ignorable":
			valid = valid && bytes.Equal(bytes.TrimSpace(v), []byte("true"))
			e.Ignorable = true
		case "seq", "time":
		default:
			valid = false
		}
	}
	if !valid {
		e.Type = ""
	}
	return e, nil
}
