package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbTurnEnd is the turn-end verb.
//
//	turn-end [KIND] [--message M] [--code C] [--plain|--current] [--cause K] [--as NAME]
//
// Appends turn/end {turn, reason:{kind:KIND}} for the current turn. KIND
// defaults to completed; the set is open (completed, aborted, error,
// disposed, max-tokens, interrupted, blocked, or anything else). For
// error, the reason carries the current step and failure {message:M,
// code:C}; with --plain it carries message M (and code C) directly
// instead of a failure object; with --current it carries the current
// shape error {message:M, code:C} and no step. --cause K adds the current
// aborted shape's cancel cause, reason:{kind:K} (user, parent, hook,
// disposed, legacy).
//
// Example:
//
//	turn-end
//	turn-end error --message 'provider overloaded' --code overloaded
//	turn-end error --current --message 'snapshot disk full' --code UNKNOWN
//	turn-end aborted --cause disposed
func verbTurnEnd(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "turn-end", func(s *script) error {
		p, err := parseArgs("turn-end", args, flagSpec{bools: []string{"plain", "current"}, values: []string{"message", "code", "cause", "as"}})
		if err != nil {
			return err
		}
		if len(p.pos) > 1 {
			return fmt.Errorf("usage: turn-end [KIND] [--message M] [--code C] [--plain|--current] [--cause K] [--as NAME]")
		}
		kind := "completed"
		if len(p.pos) == 1 {
			kind = p.pos[0]
		}
		reason := logbuild.EndReason{Kind: kind}
		msg, hasMsg := p.get("message")
		if msg, err = textArg(ts, "turn-end", msg); err != nil {
			return err
		}
		code, hasCode := p.get("code")
		if p.has("plain") && p.has("current") {
			return fmt.Errorf("turn-end: --plain and --current exclude each other")
		}
		if kind == "error" && !p.has("current") {
			reason.Step = new(s.step)
		}
		if cause, ok := p.get("cause"); ok {
			reason.Cause = new(cause)
		}
		if hasMsg || hasCode {
			f := &logbuild.Failure{Message: msg}
			if hasCode {
				f.Code = new(code)
			}
			switch {
			case p.has("current"):
				reason.Error = f
			case p.has("plain"):
				reason.Plain = f
			default:
				reason.Failure = f
			}
		}
		// The harness has always written the reason with sorted keys (it
		// was a map); its fixtures pin that order.
		data := logbuild.TurnEnd(s.turn, logbuild.SortedObject(reason.Object()))
		_, err = s.appendLabelled(ts, p, 0, logOnly(sessionlog.TypeTurnEnd, data))
		s.stream = nil
		return err
	})
}
