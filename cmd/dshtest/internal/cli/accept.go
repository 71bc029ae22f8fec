package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/ground/words"
)

// This file holds the decisions on pending snapshots (NAME.screen.new,
// written by run): accept and reject, and the listing review shares.

// pendingFix is one pending snapshot.
type pendingFix struct {
	Name     string // fixture name
	Path     string // the pending file
	Fixture  string // the fixture file (may not exist yet)
	Scenario string // the scenario whose snapshot step takes Name; "" if none
}

// listPending returns the pending snapshots in pdir whose fixture names
// match pattern, sorted, with the scenario that owns each. A pattern that
// is a pending fixture's exact name selects that one only; otherwise it is
// an unanchored regular expression ("" for all).
func listPending(root, pdir, pattern string) ([]pendingFix, error) {
	var re *regexp.Regexp
	if pattern != "" {
		var err error
		if re, err = regexp.Compile(pattern); err != nil {
			return nil, usagef("pattern %q: %v", pattern, err)
		}
	}
	entries, err := os.ReadDir(pdir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list pending snapshots: %w", err)
	}
	owners, err := snapshotOwners(filepath.Join(root, "scenarios"))
	if err != nil {
		return nil, err
	}
	var out []pendingFix
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), harness.PendingSuffix)
		if !ok || e.IsDir() || (re != nil && !re.MatchString(name)) {
			continue
		}
		out = append(out, pendingFix{
			Name:     name,
			Path:     filepath.Join(pdir, e.Name()),
			Fixture:  filepath.Join(root, "fixtures", name+harness.FixtureSuffix),
			Scenario: owners[name],
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for _, p := range out {
		if p.Name == pattern {
			return []pendingFix{p}, nil
		}
	}
	return out, nil
}

// snapshotOwners maps each fixture name to the scenario whose snapshot
// step takes it.
func snapshotOwners(sdir string) (map[string]string, error) {
	names, err := harness.ScenarioNames(sdir)
	if err != nil {
		return nil, err
	}
	owners := map[string]string{}
	for _, s := range names {
		snaps, err := harness.SnapshotNames(filepath.Join(sdir, s+".txtar"))
		if err != nil {
			return nil, err
		}
		for _, n := range snaps {
			if _, dup := owners[n]; !dup {
				owners[n] = s
			}
		}
	}
	return owners, nil
}

// rerender renders the scenarios owning ps twice, as record does, and
// returns each fixture's new bytes by name. It fails when a scenario fails
// for a reason other than a changed screen, or when the two renders of a
// fixture differ.
func rerender(root string, ps []pendingFix) (map[string][]byte, error) {
	sdir, fdir := filepath.Join(root, "scenarios"), filepath.Join(root, "fixtures")
	set := map[string]bool{}
	var scen []string
	for _, p := range ps {
		if p.Scenario == "" {
			return nil, failf("%s: no scenario snapshots %q any more; dshtest reject %s deletes it",
				relTo(root, p.Path), p.Name, p.Name)
		}
		if !set[p.Scenario] {
			set[p.Scenario] = true
			scen = append(scen, p.Scenario)
		}
	}
	sort.Strings(scen)
	cfg := harness.Config{ScenarioDir: sdir, FixtureDir: fdir, Scenarios: scen}
	rec, err := harness.Rerecord(cfg, recordOptions)
	if err != nil {
		return nil, err
	}
	if failed := rec.Failed(); len(failed) > 0 || len(rec.Invariants) > 0 {
		var msgs []string
		for _, o := range rec.Outcomes {
			if o.Failed {
				msgs = append(msgs, o.Name+": "+o.Log)
			}
		}
		return nil, failf("%s failed for a reason other than a changed screen: %s; nothing written",
			words.Plural(len(msgs), "scenario"), strings.Join(msgs, "; "))
	}
	for _, n := range rec.Changed() {
		if strings.HasPrefix(n, "scenarios/") {
			return nil, failf("%s: a cmp step's file is stale too; dshtest record re-records both; nothing written", n)
		}
	}
	out := map[string][]byte{}
	for _, p := range ps {
		f := "fixtures/" + p.Name + harness.FixtureSuffix
		for _, d := range rec.Unreproducible {
			if d.Name == f {
				return nil, failf("%s is not reproducible (two renders differ):\n%s\nnothing written", f, d.Diff)
			}
		}
		out[p.Name] = rec.New[f]
	}
	return out, nil
}

// acceptPending re-renders the pending snapshots' scenarios twice and, for
// each whose render is reproducible and still what the pending file holds,
// writes the fixture and removes the pending file.
func acceptPending(root string, ps []pendingFix) ([]string, error) {
	fresh, err := rerender(root, ps)
	if err != nil {
		return nil, err
	}
	var done []string
	for _, p := range ps {
		pending, err := os.ReadFile(p.Path)
		if err != nil {
			return done, fmt.Errorf("read %s: %w", relTo(root, p.Path), err)
		}
		if !bytes.Equal(pending, fresh[p.Name]) {
			return done, failf("%s is stale: %s now renders another screen; run dshtest run %s again",
				relTo(root, p.Path), p.Scenario, p.Scenario)
		}
		if err := writeFileAtomic(p.Fixture, fresh[p.Name]); err != nil {
			return done, fmt.Errorf("write %s: %w", relTo(root, p.Fixture), err)
		}
		if err := os.Remove(p.Path); err != nil {
			return done, fmt.Errorf("remove %s: %w", relTo(root, p.Path), err)
		}
		done = append(done, p.Name)
	}
	return done, nil
}

// rejectPending deletes the pending files.
func rejectPending(ps []pendingFix) error {
	for _, p := range ps {
		if err := os.Remove(p.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

func (a *app) acceptCommand() *cobra.Command {
	var dir, pendingDir string
	cmd := &cobra.Command{
		Use:   "accept [PATTERN]",
		Short: "Accept pending screens (fixtures/NAME.screen.new) as the fixtures",
		Long: `accept makes the pending screens that run wrote (fixtures/NAME.screen.new)
the recorded fixtures. PATTERN is a regular expression matched against
fixture names (all pending screens by default).

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
			done, err := acceptPending(root, ps)
			for _, n := range done {
				fmt.Fprintf(a.stdout, "accepted  fixtures/%s%s\n", n, harness.FixtureSuffix)
			}
			if err != nil {
				return err
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
matched against fixture names (all pending screens by default).`,
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
			if err := rejectPending(ps); err != nil {
				return err
			}
			for _, p := range ps {
				fmt.Fprintf(a.stdout, "rejected  fixtures/%s%s\n", p.Name, harness.PendingSuffix)
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
func (a *app) pendingArgs(dir, pendingDir string, args []string) (string, []pendingFix, error) {
	pattern := ""
	if len(args) == 1 {
		pattern = args[0]
	}
	root, err := findRoot(dir)
	if err != nil {
		return "", nil, err
	}
	pdir := filepath.Join(root, "fixtures")
	if pendingDir != "" {
		if pdir, err = filepath.Abs(pendingDir); err != nil {
			return "", nil, err
		}
	}
	ps, err := listPending(root, pdir, pattern)
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
		ps, _ := listPending(root, filepath.Join(root, "fixtures"), "")
		var out []string
		for _, p := range ps {
			if strings.HasPrefix(p.Name, toComplete) {
				out = append(out, p.Name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
