package cli

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/review"
	"github.com/dshtest/dshtest/cmd/dshtest/internal/viewer"
	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
)

// decider carries out review's decisions as accept and reject do.
type decider struct {
	root   string
	byName map[string]suitedir.Pending
}

// Accept renders the item's scenario twice and writes the fixture, as
// dshtest accept does.
func (d decider) Accept(it review.Item) error {
	_, err := suitedir.Dir{Root: d.root}.Accept([]suitedir.Pending{d.byName[it.Name]})
	return refused(err)
}

// Reject deletes the pending screen.
func (d decider) Reject(it review.Item) error {
	return suitedir.Reject([]suitedir.Pending{d.byName[it.Name]})
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

func (a *app) reviewCommand() *cobra.Command {
	var dir, pendingDir string
	cmd := &cobra.Command{
		Use:   "review [PATTERN]",
		Short: "Review pending screens one by one: recorded beside new, then accept, reject or skip",
		Long: `review opens a full-screen viewer over the pending screens a failing run wrote
(fixtures/NAME.screen.new; PATTERN selects fixture names). For each it shows
the recorded and the new screen side by side (one above the other when the
terminal is narrow), in their real colours, with the changed cells
highlighted.

Keys:
  a          accept: render the scenario twice, as record does, and write the
             fixture (a screen that is not reproducible is refused)
  r          reject: delete the pending screen, keep the fixture
  s          skip: decide later
  d          show the document instead of the screen, and back
  n / p      next / previous pending screen
  ↑↓ PgUp/PgDn Home/End  scroll
  q          quit

It quits by itself when every screen is decided. Without a terminal, use
dshtest accept and dshtest reject.`,
		Example: `  dshtest review
  dshtest review '^surface-'`,
		Args:              argsUsage(cobra.MaximumNArgs(1)),
		ValidArgsFunction: a.completePending(&dir),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if harness.IsCI(a.getenv("CI")) {
				return usagef("review refuses to run when CI is set: fixtures are read-only in CI")
			}
			root, ps, err := a.pendingArgs(dir, pendingDir, args)
			if err != nil {
				return err
			}
			if !a.isTTY(a.stdout) {
				return usagef("review needs a terminal on standard output; use dshtest accept or dshtest reject")
			}
			items, byName, err := reviewItems(ps)
			if err != nil {
				return err
			}
			m := review.New(items, decider{root: root, byName: byName}, 80, 24)
			return viewer.Run(m, a.stdin, a.stdout)
		}),
	}
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
