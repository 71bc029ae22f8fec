package harness

import (
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbSessionRef is the session-ref verb.
//
//	session-ref SESSIONID=LABEL... [--malformed] [--as NAME]
//
// Appends the context message an @session mention produces: user/message
// with source {kind:"session-reference", version:1, references:[{sessionId,
// label, capturedThroughSeq, compacted, originalMessages, retainedMessages,
// omittedMessages, omittedBytes, inputIndex}…]} and surfaceOp "append".
// It renders as the dim row "Referenced sessions · LABEL (SESSIONID), …"
// (just LABEL when it equals the id). --malformed drops the label of the
// last reference, which turns the message into a context card.
//
// Example:
//
//	session-ref 'source-session=Source session'
func verbSessionRef(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "session-ref", func(s *script) error {
		p, err := parseArgs("session-ref", args, flagSpec{bools: []string{"malformed"}, values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) == 0 {
			return fmt.Errorf("usage: session-ref SESSIONID=LABEL... [--malformed] [--as NAME]")
		}
		var refs []map[string]any
		var text []string
		for i, a := range p.pos {
			id, label, ok := strings.Cut(a, "=")
			if !ok || id == "" {
				return fmt.Errorf("session-ref: %q: want SESSIONID=LABEL", a)
			}
			ref := map[string]any{"sessionId": id, "label": label, "capturedThroughSeq": 12,
				"compacted": false, "originalMessages": 4, "retainedMessages": 4,
				"omittedMessages": 0, "omittedBytes": 0, "inputIndex": i}
			refs = append(refs, ref)
			text = append(text, fmt.Sprintf("<session-reference id=%q label=%q>\nReferenced session transcript.\n</session-reference>", id, label))
		}
		if p.has("malformed") {
			delete(refs[len(refs)-1], "label")
		}
		source := map[string]any{"kind": "session-reference", "version": 1, "references": refs}
		msg := message{ID: msgID("reference", s.nextSeq()), Role: "user",
			Content: []any{textBlock{"text", strings.Join(text, "\n")}}, Source: source}
		_, err = s.appendLabelled(ts, p, 0, surfaceAppend("user/message", msg, nil))
		return err
	})
}
