package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/words"
)

// This file holds the decisions on pending snapshots (NAME.screen.new,
// written by run): accept and reject, and the listing review shares.

func (a *app) acceptCommand() *cobra.Command {
	var dir, pendingDir string
	cmd := &cobra.Command{
		Use:   "accept [PATTERN]",
		Short: "Accept pending screens (fixtures/NAME.screen.new) as the fixtures",
		Long: `accept makes the pending screens that run wrote (fixtures/NAME.screen.new)
the recorded fixtures. PATTERN is a regular expression matched against
fixture names (all pending screens by default); one that is exactly a
pending screen's name selects that screen only: accept log-summary leaves
log-summary-narrow, which accept '^log-summary' takes too.

As record does, it renders each owning scenario twice and refuses (exit 1,
nothing written) a screen that is not reproducible, a scenario that fails
for another reason, or a pending file the scenario no longer renders. It
refuses to run when CI is set.`,
		Example: `  dshtest accept
  dshtest accept log-summary-narrow
  dshtest accept '^surface-'`,
		Args:              argsUsage(cobra.MaximumNArgs(1)),
		ValidArgsFunction: a.completePending(&dir),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if harness.IsCI(a.getenv("CI")) {
				return &exitError{code: ExitUsage, err: fmt.Errorf("accept refuses to run when CI is set: fixtures are read-only in CI; nothing written")}
			}
			root, ps, err := a.pendingArgs(dir, pendingDir, args)
			if saidNothingPending(a.stdout, "accept", err) {
				return nil
			}
			if err != nil {
				return err
			}
			done, err := suitedir.Dir{Root: root}.Accept(ps)
			for _, n := range done {
				fmt.Fprintf(a.stdout, "accepted  %s\n", suitedir.FixtureFile(n))
			}
			if err != nil {
				return refused(err)
			}
			fmt.Fprintf(a.stdout, "accept: %s accepted\n", words.Plural(len(done), "fixture"))
			return nil
		}),
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the folder holding scenarios/ and fixtures/ (default: found from the working directory)")
	cmd.Flags().StringVar(&pendingDir, "pending-dir", "", "where the pending screens are (default: fixtures/)")
	return cmd
}

func (a *app) rejectCommand() *cobra.Command {
	var dir, pendingDir string
	cmd := &cobra.Command{
		Use:   "reject [PATTERN]",
		Short: "Reject pending screens: delete fixtures/NAME.screen.new, keep the fixtures",
		Long: `reject deletes the pending screens that run wrote (fixtures/NAME.screen.new)
and leaves the recorded fixtures as they are. PATTERN is a regular expression
matched against fixture names (all pending screens by default); one that is
exactly a pending screen's name selects that screen only.`,
		Example: `  dshtest reject
  dshtest reject log-summary-narrow`,
		Args:              argsUsage(cobra.MaximumNArgs(1)),
		ValidArgsFunction: a.completePending(&dir),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			_, ps, err := a.pendingArgs(dir, pendingDir, args)
			if saidNothingPending(a.stdout, "reject", err) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := suitedir.Reject(ps); err != nil {
				return err
			}
			for _, p := range ps {
				fmt.Fprintf(a.stdout, "rejected  %s\n", suitedir.InFixtures(p.Name+harness.PendingSuffix))
			}
			fmt.Fprintf(a.stdout, "reject: %s rejected\n", words.Plural(len(ps), "pending screen"))
			return nil
		}),
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the folder holding scenarios/ and fixtures/ (default: found from the working directory)")
	cmd.Flags().StringVar(&pendingDir, "pending-dir", "", "where the pending screens are (default: fixtures/)")
	return cmd
}

// pendingArgs finds the root and the pending snapshots matching the
// optional PATTERN argument; none is nothingPending (exit 0, said).
func (a *app) pendingArgs(dir, pendingDir string, args []string) (string, []suitedir.Pending, error) {
	pattern := ""
	if len(args) == 1 {
		pattern = args[0]
	}
	root, err := findRoot(dir)
	if err != nil {
		return "", nil, err
	}
	d := suitedir.Dir{Root: root}
	pdir := d.Fixtures()
	if pendingDir != "" {
		if pdir, err = filepath.Abs(pendingDir); err != nil {
			return "", nil, err
		}
	}
	re, err := compilePattern(pattern)
	if err != nil {
		return "", nil, err
	}
	ps, err := d.Pending(pdir, re)
	if err != nil {
		return "", nil, err
	}
	if len(ps) == 0 {
		what := "no pending screens"
		if pattern != "" {
			what = fmt.Sprintf("no pending screen matches %q", pattern)
		}
		return "", nil, nothingPending(fmt.Sprintf("%s in %s (dshtest run writes them); nothing to do", what, relTo(root, pdir)))
	}
	return root, ps, nil
}

// refused is err with the exit code of a check that failed when it is a
// refusal of the folder (suitedir.Refusal): nothing was written.
func refused(err error) error {
	var r *suitedir.Refusal
	if errors.As(err, &r) {
		return failf("%s", r)
	}
	return err
}

// completePending completes the names of pending screens.
func (a *app) completePending(dir *string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		root, err := findRoot(*dir)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ps, _ := suitedir.Dir{Root: root}.Pending("", nil)
		var out []string
		for _, p := range ps {
			if strings.HasPrefix(p.Name, toComplete) {
				out = append(out, p.Name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
