package harness

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbSnapshot is the snapshot verb.
//
//	snapshot NAME
//
// Pins what the mounted terminal shows: the full transcript document and
// the screen, serialised as fixtures/NAME.screen. With GOLDIE_UPDATE=1 (or
// dshtest record) it (re-)records the file, in a scratch copy rendered
// twice (never when CI is set); otherwise it compares, and
// on a difference (or a missing fixture) writes the new screen as the
// pending file NAME.screen.new and lets the scenario run on, which then
// fails at its end with a line diff for every differing snapshot. A screen with theme violations is
// never recorded. Every snapshot also checks live ≡ replay: a terminal
// mounted on the same log with the same settings must show the same
// document and the same screen rows (all but the status line); on a
// difference it names the first divergent event seq. Each NAME belongs to
// exactly one snapshot step of the whole suite.
//
// Example:
//
//	mount 104 30
//	snapshot surface-replayed-compaction
func verbSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "snapshot", func(s *script) error {
		if len(args) != 1 {
			return fmt.Errorf("usage: snapshot NAME")
		}
		name := args[0]
		if s.term == nil {
			return fmt.Errorf("snapshot %s: mount first", name)
		}
		if err := s.suite.store.take(name, s.name); err != nil {
			return err
		}
		if c := s.suite.clash(name); c != "" {
			// Another scenario takes the name too: no pending screen is
			// written, which no accept could take (its owner is not
			// known), whichever scenario runs first.
			return fmt.Errorf("%s; each fixture belongs to exactly one snapshot step: rename all but one", c)
		}
		fx := s.fixture(s.term)
		if v := fx.Violations(); len(v) > 0 {
			return fmt.Errorf("snapshot %s: %d theme violations (%s); refusing to record a screen that is not ANSI-16 foreground only",
				name, len(v), strings.Join(v[:min(len(v), 5)], "; "))
		}
		data := fx.Bytes()
		s.suite.store.remember(name, data)
		equiv := s.checkLiveReplay(name)
		var rec error
		if equiv == nil || !s.suite.cfg.Update {
			rec = s.suite.store.check(name, s.name, data)
			if m, ok := asMismatch(rec); ok {
				// Reported at the scenario's end, with every other one,
				// at the snapshot step's line.
				m.File = s.suite.scenarioFile(s.name)
				m.Line = SnapshotLine(filepath.Join(s.suite.cfg.ScenarioDir, s.name+".txtar"), name)
				s.mismatches = append(s.mismatches, m)
				s.suite.mismatch(m)
				rec = nil
			}
		}
		return errors.Join(rec, equiv)
	})
}
