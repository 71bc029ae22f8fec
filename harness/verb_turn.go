package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbTurn is the turn verb.
//
//	turn N [--old] [--as NAME]
//
// Appends turn/start {turn:N} and makes N the current turn (the step is
// reset to 0). --old writes the older generation's payload, which adds
// trigger {kind:"message",source:{kind:"user"}}.
//
// Example:
//
//	turn 1
//	turn 2 --old
func verbTurn(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "turn", func(s *script) error {
		p, err := parseArgs("turn", args, flagSpec{bools: []string{"old"}, values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 1 {
			return fmt.Errorf("usage: turn N [--old] [--as NAME]")
		}
		n, err := intArg("turn", "turn", p.pos[0])
		if err != nil {
			return err
		}
		var trigger jsonobj.Object
		if p.has("old") {
			trigger = logbuild.Trigger("message", logbuild.UserSource())
		}
		if _, err := s.appendLabelled(ts, p, 0, logOnly(sessionlog.TypeTurnStart, logbuild.TurnStart(n, trigger))); err != nil {
			return err
		}
		s.turn, s.step, s.stream = n, 0, nil
		return nil
	})
}
