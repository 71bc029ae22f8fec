package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/terminal/review"
)

// decider carries out review's decisions as accept and reject do.
type decider struct {
	root   string
	byName map[string]suitedir.Pending
}

// Accept renders the items' scenarios twice and writes the fixtures, as
// dshtest accept does.
func (d decider) Accept(its []review.Item) (int, error) {
	done, err := suitedir.Dir{Root: d.root}.Accept(d.pending(its))
	return len(done), refused(err)
}

// Reject deletes the pending screens, in order.
func (d decider) Reject(its []review.Item) (int, error) {
	for i, p := range d.pending(its) {
		if err := suitedir.Reject([]suitedir.Pending{p}); err != nil {
			return i, err
		}
	}
	return len(its), nil
}

func (d decider) pending(its []review.Item) []suitedir.Pending {
	ps := make([]suitedir.Pending, len(its))
	for i, it := range its {
		ps[i] = d.byName[it.Name]
	}
	return ps
}

// reviewItems reads the pending screens and their fixtures.
func reviewItems(ps []suitedir.Pending) ([]review.Item, map[string]suitedir.Pending, error) {
	var items []review.Item
	byName := map[string]suitedir.Pending{}
	for _, p := range ps {
		nw, err := os.ReadFile(p.Path)
		if err != nil {
			return nil, nil, err
		}
		var rec []byte
		if b, err := os.ReadFile(p.Fixture); err == nil {
			rec = b
		}
		items = append(items, review.Item{Name: p.Name, Scenario: p.Scenario, Recorded: rec, New: nw})
		byName[p.Name] = p
	}
	return items, byName, nil
}

// printDecisions prints what review decided, a line a screen (as accept
// and reject print them) and the summary line.
func (a *app) printDecisions(root string, m *review.Model, ps []suitedir.Pending) {
	for i, d := range m.Decisions() {
		p := ps[i]
		switch d {
		case review.Accepted:
			fmt.Fprintf(a.stdout, "accepted  %s\n", relTo(root, p.Fixture))
		case review.Rejected:
			fmt.Fprintf(a.stdout, "rejected  %s\n", relTo(root, p.Path))
		case review.Skipped:
			fmt.Fprintf(a.stdout, "skipped   %s (still pending)\n", relTo(root, p.Path))
		}
	}
	fmt.Fprintf(a.stdout, "review: %s\n", m.Summary())
}

func (a *app) reviewCommand() *cobra.Command {
	var dir, pendingDir string
	var acceptAll, rejectAll bool
	cmd := &cobra.Command{
		Use:   "review [PATTERN]",
		Short: "Review pending screens one by one: recorded beside new, then accept, reject or skip",
		Long: `review opens a full-screen viewer over the pending screens a failing run wrote
(fixtures/NAME.screen.new; PATTERN, a regular expression, selects fixture
names, and a pending screen's exact name that screen only). For each it shows
the recorded and the new screen side by side (one above the other when the
terminal is narrow), in their real colours, with the changed cells
highlighted.

Keys:
  a          accept: render the scenario twice, as record does, and write the
             fixture (a screen that is not reproducible is refused)
  r          reject: delete the pending screen, keep the fixture
  s          skip: decide later
  A / R / S  accept, reject or skip every screen not yet decided
  d          show the document instead of the screen, and back
  n / p      next / previous pending screen
  ↑↓ PgUp/PgDn Home/End  scroll
  q          quit

It quits by itself when every screen is decided, and prints what was
decided: a line a screen and "review: 2 accepted, 1 rejected, 1 skipped".

--accept and --reject decide every matching screen without a terminal, as
A and R do (for scripts); they print the same lines. review refuses to
run when CI is set.`,
		Example: `  dshtest review
  dshtest review '^surface-'
  dshtest review --accept '^surface-'    # no terminal: accept the matching screens
  dshtest review --reject                # no terminal: reject every pending screen`,
		Args:              argsUsage(cobra.MaximumNArgs(1)),
		ValidArgsFunction: a.completePending(&dir),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if harness.IsCI(a.getenv("CI")) {
				return usagef("review refuses to run when CI is set: fixtures are read-only in CI")
			}
			if acceptAll && rejectAll {
				return usagef("--accept and --reject exclude each other")
			}
			root, ps, err := a.pendingArgs(dir, pendingDir, args)
			if saidNothingPending(a.stdout, "review", err) {
				return nil
			}
			if err != nil {
				return err
			}
			if !acceptAll && !rejectAll && !a.isTTY(a.stdout) {
				return usagef("review needs a terminal on standard output; use dshtest review --accept or --reject, or dshtest accept or dshtest reject")
			}
			items, byName, err := reviewItems(ps)
			if err != nil {
				return err
			}
			m := review.New(items, decider{root: root, byName: byName}, 80, 24)
			if acceptAll || rejectAll {
				d := review.Accepted
				if rejectAll {
					d = review.Rejected
				}
				err := m.DecideRemaining(d)
				a.printDecisions(root, m, ps)
				return err
			}
			// The terminal itself, not the wrapper: Bubble Tea learns the
			// size (and that it may draw) only from the *os.File.
			err = runViewer(m, a.stdin, underlying(a.stdout))
			if err != nil && !interrupted(err) {
				return err
			}
			a.printDecisions(root, m, ps) // what was decided before a signal too
			return err
		}),
	}
	cmd.Flags().BoolVar(&acceptAll, "accept", false, "accept every matching pending screen without a terminal (as A does)")
	cmd.Flags().BoolVar(&rejectAll, "reject", false, "reject every matching pending screen without a terminal (as R does)")
	cmd.Flags().StringVar(&dir, "dir", "", "the folder holding scenarios/ and fixtures/ (default: found from the working directory)")
	cmd.Flags().StringVar(&pendingDir, "pending-dir", "", "where the pending screens are (default: fixtures/)")
	return cmd
}

// Review is the review command's model over the pending screens of a
// scenario folder, deciding as accept and reject do: for tests that drive
// it with teatest.
func Review(root, pattern string, width, height int) (*review.Model, error) {
	re, err := compilePattern(pattern)
	if err != nil {
		return nil, err
	}
	ps, err := suitedir.Dir{Root: root}.Pending("", re)
	if err != nil {
		return nil, err
	}
	items, byName, err := reviewItems(ps)
	if err != nil {
		return nil, err
	}
	return review.New(items, decider{root: root, byName: byName}, width, height), nil
}
