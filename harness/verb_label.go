package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbLabel is the label verb.
//
//	label NAME SEQ
//
// Names an existing seq (for example of a loaded log), as --as does for an
// appended event. The label is also the environment variable NAME.
//
// Example:
//
//	load example-session.jsonl
//	label checkpoint 33
func verbLabel(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "label", func(s *script) error {
		if len(args) != 2 {
			return fmt.Errorf("usage: label NAME SEQ")
		}
		seq, err := s.seqArg("label", args[1])
		if err != nil {
			return err
		}
		if _, err := s.event("label", seq); err != nil {
			return err
		}
		return s.label(ts, args[0], seq)
	})
}
