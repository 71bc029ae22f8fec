package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbSameFixture is the same-fixture verb.
//
//	same-fixture A B
//
// Checks that fixtures A and B are byte-identical, and prints a line diff
// when they are not. When one of them is snapshotted by a scenario that
// has not run yet (scenarios run in parallel), the check runs on the files
// at the end of the suite. It pins contracts between two paths, such as a live
// compaction and the same log replayed after a resume.
//
// Example:
//
//	same-fixture surface-replayed-compaction surface-after-compaction-wide
func verbSameFixture(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "same-fixture", func(s *script) error {
		if len(args) != 2 {
			return fmt.Errorf("usage: same-fixture A B")
		}
		for _, n := range args {
			if !validFixtureName(n) {
				return fmt.Errorf("same-fixture: %q is not a fixture name", n)
			}
		}
		return s.suite.store.same(args[0], args[1])
	})
}
