package harness

import (
	"fmt"

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
		reason := map[string]any{"kind": kind}
		msg, hasMsg := p.get("message")
		if msg, err = textArg(ts, "turn-end", msg); err != nil {
			return err
		}
		code, hasCode := p.get("code")
		if p.has("plain") && p.has("current") {
			return fmt.Errorf("turn-end: --plain and --current exclude each other")
		}
		if kind == "error" && !p.has("current") {
			reason["step"] = s.step
		}
		if cause, ok := p.get("cause"); ok {
			reason["reason"] = map[string]any{"kind": cause}
		}
		if hasMsg || hasCode {
			if p.has("current") {
				f := map[string]any{"message": msg}
				if hasCode {
					f["code"] = code
				}
				reason["error"] = f
			} else if p.has("plain") {
				reason["message"] = msg
				if hasCode {
					reason["code"] = code
				}
			} else {
				f := map[string]any{"message": msg}
				if hasCode {
					f["code"] = code
				}
				reason["failure"] = f
			}
		}
		data := struct {
			Turn   int64          `json:"turn"`
			Reason map[string]any `json:"reason"`
		}{s.turn, reason}
		_, err = s.appendLabelled(ts, p, 0, logOnly("turn/end", data))
		s.stream = nil
		return err
	})
}
