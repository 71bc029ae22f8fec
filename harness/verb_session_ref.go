package harness

import (
	"fmt"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
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
		var refs []logbuild.SessionRef
		var text []string
		for i, a := range p.pos {
			id, label, ok := strings.Cut(a, "=")
			if !ok || id == "" {
				return fmt.Errorf("session-ref: %q: want SESSIONID=LABEL", a)
			}
			refs = append(refs, logbuild.SessionRef{SessionID: id, Label: label, CapturedThroughSeq: 12,
				OriginalMessages: 4, RetainedMessages: 4, InputIndex: i})
			text = append(text, fmt.Sprintf("<session-reference id=%q label=%q>\nReferenced session transcript.\n</session-reference>", id, label))
		}
		if p.has("malformed") {
			refs[len(refs)-1].Label = nil
		}
		objs := make([]jsonobj.Object, len(refs))
		for i, r := range refs {
			objs[i] = r.Object()
		}
		// The harness has always written the source with sorted keys (it
		// was a map); its fixtures pin that order.
		source := logbuild.SortedObject(logbuild.SessionRefSource(objs))
		msg := logbuild.UserMessage(logbuild.SeqID("reference", s.nextSeq()),
			[]jsonobj.Object{logbuild.TextBlock(strings.Join(text, "\n"))}, source)
		_, err = s.appendLabelled(ts, p, 0, surfaceAppend(sessionlog.TypeUserMessage, msg, nil))
		return err
	})
}
