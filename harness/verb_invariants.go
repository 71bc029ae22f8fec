package harness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/transcript"
)

// verbInvariants is the invariants verb.
//
//	invariants [--size WxH[,WxH]]... CHECK...
//
// Asserts transcript invariants on the scenario's log as it is now, the
// checks dshtest repro runs, by name: live-replay, no-lost-message,
// one-marker, no-payload, history-pages. The log is rendered by the
// terminal the suite mounts (its projection, and the scenario's eager and
// max-tool-lines options) at every --size (repeatable, or a comma list;
// default 80x24, 44x18 and 104x30), both replayed and fed live. If a check
// fails, the step fails with the verdict lines dshtest repro prints, one
// per check, and dshtest record refuses to record the scenario: a
// reproduction of a bug fails until the bug is fixed, instead of pinning
// the broken screens as expected. dshtest repro --emit writes this step
// before the snapshots.
//
// Example:
//
//	load session.jsonl
//	invariants --size 80x24,44x18 no-lost-message one-marker no-payload
//	mount 80 24
//	snapshot user-report-80x24
func verbInvariants(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "invariants", func(s *script) error {
		p, err := parseArgs("invariants", args, flagSpec{values: []string{"size"}})
		if err != nil {
			return err
		}
		if len(p.pos) == 0 {
			return fmt.Errorf("usage: invariants [--size WxH]... CHECK... (checks: %s)", strings.Join(invariant.Names(), ", "))
		}
		for _, name := range p.pos {
			if !slices.Contains(invariant.Names(), name) {
				return fmt.Errorf("invariants: unknown check %q: want %s", name, strings.Join(invariant.Names(), ", "))
			}
		}
		var sizes []invariant.Size
		for _, f := range p.flags {
			for _, v := range strings.Split(f.value, ",") {
				sz, err := invariant.ParseSize(strings.TrimSpace(v))
				if err != nil {
					return fmt.Errorf("invariants: --size %v", err)
				}
				sizes = append(sizes, sz)
			}
		}
		if len(sizes) == 0 {
			sizes = invariant.DefaultSizes()
		}
		events := s.events()
		if len(events) == 0 {
			return fmt.Errorf("invariants: the scenario has no log yet")
		}
		c := invariant.New(events, sizes, transcript.Options{EagerSteps: s.view.eager}, s.suite.cfg.Projection, SessionID)
		c.MaxToolOutputLines = s.view.maxToolLines
		var lines, failed []string
		for _, name := range p.pos {
			r := c.Check(name)
			lines = append(lines, r.Line())
			if !r.OK {
				failed = append(failed, name)
			}
		}
		if len(failed) == 0 {
			for _, l := range lines {
				ts.Logf("%s", l)
			}
			return nil
		}
		s.suite.invariantsFailed(InvariantFailure{Scenario: s.name, File: s.suite.scenarioFile(s.name), Checks: failed})
		var sz []string
		for _, z := range sizes {
			sz = append(sz, z.String())
		}
		return fmt.Errorf("invariants: %d of %d failed (%s) at %s:\n%s",
			len(failed), len(p.pos), strings.Join(failed, ", "), strings.Join(sz, " "), strings.Join(lines, "\n"))
	})
}
