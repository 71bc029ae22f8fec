package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbStep is the step verb.
//
//	step N [--as NAME]
//
// Appends step/start {turn, step:N} in the current turn and makes N the
// current step. An open chunk stream is forgotten.
//
// Example:
//
//	turn 1
//	step 1
func verbStep(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "step", func(s *script) error {
		p, err := parseArgs("step", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 1 {
			return fmt.Errorf("usage: step N [--as NAME]")
		}
		n, err := intArg("step", "step", p.pos[0])
		if err != nil {
			return err
		}
		if _, err := s.appendLabelled(ts, p, 0, logOnly(sessionlog.TypeStepStart, logbuild.Step(s.turn, n))); err != nil {
			return err
		}
		s.step, s.stream = n, nil
		return nil
	})
}
