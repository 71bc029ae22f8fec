package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbSameFixture is the same-fixture verb.
//
//	same-fixture [--document] A B
//
// Checks that fixtures A and B are byte-identical, and prints a line diff
// when they are not. With --document only their transcript documents must
// be identical (the screens may differ, say in the status line's event
// count): "this append changed nothing a person reads". When one of them is snapshotted by a scenario that
// has not run yet (scenarios run in parallel), the check runs on the files
// at the end of the suite. It pins contracts between two paths, such as a live
// compaction and the same log replayed after a resume.
//
// Example:
//
//	same-fixture surface-replayed-compaction surface-after-compaction-wide
func verbSameFixture(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "same-fixture", func(s *script) error {
		p, err := parseArgs("same-fixture", args, flagSpec{bools: []string{"document"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 2 {
			return fmt.Errorf("usage: same-fixture [--document] A B")
		}
		for _, n := range p.pos {
			if !ValidFixtureName(n) {
				return fmt.Errorf("same-fixture: %q is not a fixture name", n)
			}
		}
		return s.suite.store.same(samePair{p.pos[0], p.pos[1], p.has("document"), s.suite.scenarioFile(s.name)})
	})
}
