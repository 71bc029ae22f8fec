package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbTurnEnd is the turn-end verb.
//
//	turn-end [KIND] [--message M] [--code C] [--plain] [--as NAME]
//
// Appends turn/end {turn, reason:{kind:KIND}} for the current turn. KIND
// defaults to completed; the set is open (completed, aborted, error,
// disposed, max-tokens, interrupted, blocked, or anything else). For
// error, the reason carries the current step and failure {message:M,
// code:C}; with --plain it carries message M (and code C) directly
// instead of a failure object.
//
// Example:
//
//	turn-end
//	turn-end error --message 'provider overloaded' --code overloaded
func verbTurnEnd(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "turn-end", func(s *script) error {
		p, err := parseArgs("turn-end", args, flagSpec{bools: []string{"plain"}, values: []string{"message", "code", "as"}})
		if err != nil {
			return err
		}
		if len(p.pos) > 1 {
			return fmt.Errorf("usage: turn-end [KIND] [--message M] [--code C] [--plain] [--as NAME]")
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
		if kind == "error" {
			reason["step"] = s.step
		}
		if hasMsg || hasCode {
			if p.has("plain") {
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
