package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbStepEnd is the step-end verb.
//
//	step-end [--as NAME]
//
// Appends step/end {turn, step} for the current step: its timing footer
// completes with " · Completed <time>".
//
// Example:
//
//	step 1
//	assistant 'Done.'
//	step-end
func verbStepEnd(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "step-end", func(s *script) error {
		p, err := parseArgs("step-end", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 0 {
			return fmt.Errorf("usage: step-end [--as NAME]")
		}
		_, err = s.appendLabelled(ts, p, 0, logOnly(sessionlog.TypeStepEnd, logbuild.Step(s.turn, s.step)))
		s.stream = nil
		return err
	})
}
