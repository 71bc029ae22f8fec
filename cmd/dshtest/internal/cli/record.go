package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/terminal/display"
)

func (a *app) recordCommand() *cobra.Command {
	var (
		dir     string
		prune   bool
		dryRun  bool
		check   bool
		verbose bool
	)
	cmd := &cobra.Command{
		Use:   "record [PATTERN]",
		Short: "Re-record fixtures after an intended change, and review what changed",
		Long: `record re-records the fixtures of the scenarios matching PATTERN (all by
default) after an intended change to the renderer or a scenario.

It renders the suite twice, each time in a scratch copy of scenarios/ and
fixtures/, and refuses (exit 1, nothing written) when the two renders differ:
a fixture must be reproducible. It also refuses when a scenario fails for a
reason other than a changed screen, and names the checks of an invariants
step that fails: a reproduction of a bug must not record the bug's screens
as expected. Otherwise it writes the new fixtures (and
any archive file a cmp step re-recorded), runs the recorded scenarios once
more as a check, and lists every fixture as created, changed, unchanged or
orphaned, with a compact line diff per change. Identical changes across
several fixtures are shown once ("3 fixtures: same change").

An orphan is a fixture no snapshot step takes any more; --prune deletes it.
Orphans are only known when every scenario ran.

--dry-run shows all this and writes nothing; --check does the same and exits 1
when anything would change (a created or changed fixture, a changed archive
file, or with --prune an orphan). Both are allowed under CI. Otherwise record
refuses to run when CI is set (exit 2): fixtures are read-only in CI.

Self-test: with DSHTEST_PROJECTOR=surface the scenarios render with the
terminal drawn from the model surface, the broken projection the invariants
must catch, as dshtest repro, run and view do.

To decide on the pending screens a failing run wrote one by one, use
dshtest review, accept or reject instead.`,
		Example: `  dshtest record
  dshtest record compaction
  dshtest record --dry-run
  dshtest record --check
  dshtest record --prune`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if harness.IsCI(a.getenv("CI")) && !dryRun && !check {
				return &exitError{code: ExitUsage, err: fmt.Errorf("record refuses to run when CI is set: fixtures are read-only in CI; nothing written")}
			}
			pattern := ""
			if len(args) == 1 {
				pattern = args[0]
			}
			root, err := findRoot(dir)
			if err != nil {
				return err
			}
			return a.record(root, pattern, prune, dryRun || check, check, verbose)
		}),
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the folder holding scenarios/ and fixtures/ (default: found from the working directory)")
	cmd.Flags().BoolVar(&prune, "prune", false, "delete orphaned fixtures")
	cmd.Flags().BoolVarP(&dryRun, "dry-run", "n", false, "show what would change; write nothing")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 1 if anything would change (allowed under CI)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also name every unchanged fixture")
	return cmd
}

func (a *app) record(root, pattern string, prune, dryRun, check, verbose bool) error {
	// The guard comes first: an interrupt that lands while the scenarios
	// are read or the preflight runs is said and exits 130 like any other.
	guard := a.guardInterrupts(root)
	defer guard.stop()
	d := suitedir.Dir{Root: root}
	names, all, err := selectScenarios(d.Scenarios(), pattern, "")
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return usagef("no scenario matches %q in %s", pattern, d.Rel(d.Scenarios()))
	}
	removed, err := d.Preflight(names)
	if err != nil {
		return refused(err)
	}
	if len(removed) > 0 {
		fmt.Fprintf(a.stdout, "record: removed %s left by an interrupted run: %s\n",
			words.Plural(len(removed), "temporary file"), esc(strings.Join(removed, ", ")))
	}
	proj, _, err := a.projectionFor()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "recording %s (rendering twice) …\n", words.Plural(len(names), "scenario"))
	r, err := d.Record(names, all, proj)
	var inv *suitedir.InvariantsFailed
	var failed *suitedir.RenderFailed
	var unstable *suitedir.Unreproducible
	switch {
	case errors.As(err, &inv):
		res := inv.Result
		printSummary(a.stdout, &harness.Result{Outcomes: res.Outcomes, Setup: res.Setup, Elapsed: res.Elapsed}, true, suiteNames(d.Scenarios(), d.Fixtures()))
		var what []string
		for _, f := range inv.Failures {
			what = append(what, esc(f.File)+": "+strings.Join(f.Checks, ", "))
		}
		return failf("record: invariants fail (%s): the screens would pin the bug; nothing written", strings.Join(what, "; "))
	case errors.As(err, &failed):
		res := failed.Result
		printSummary(a.stdout, &harness.Result{Outcomes: res.Outcomes, Setup: res.Setup, Elapsed: res.Elapsed}, true, suiteNames(d.Scenarios(), d.Fixtures()))
		return failf("record: %s failed for a reason other than a changed screen (%s); nothing written",
			words.Plural(len(failed.Failed), "scenario"), esc(strings.Join(failed.Failed, ", ")))
	case errors.As(err, &unstable):
		for _, f := range unstable.Files {
			fmt.Fprintf(a.stdout, "not reproducible: %s differs between two renders:\n%s\n", esc(f.Name),
				indent(display.Escape(suitedir.CompactDiff(string(f.First), string(f.Second))), "    "))
		}
		return failf("record: %d files are not reproducible (two renders differ); nothing written", len(unstable.Files))
	case err != nil:
		return err
	}

	// Report.
	for _, n := range r.Created {
		fmt.Fprintf(a.stdout, "created   %s (%d lines)\n", esc(suitedir.InFixtures(n)), bytes.Count(r.Render.Fixtures[n], []byte("\n")))
	}
	printChanges(a.stdout, suitedir.InFixtures, r.Changed, r.OldFixtures, r.Render.Fixtures)
	printChanges(a.stdout, suitedir.InScenarios, r.ScenariosChanged, r.OldScenarios, r.Render.Scenarios)
	if verbose {
		for _, n := range r.Unchanged {
			fmt.Fprintf(a.stdout, "unchanged %s\n", esc(suitedir.InFixtures(n)))
		}
	} else if len(r.Unchanged) > 0 {
		fmt.Fprintf(a.stdout, "unchanged %s (-v names them)\n", words.Plural(len(r.Unchanged), "fixture"))
	}
	for _, n := range r.Orphaned {
		what := "no snapshot step takes it; --prune deletes it"
		if prune {
			what = "deleted"
		}
		fmt.Fprintf(a.stdout, "orphaned  %s (%s)\n", esc(suitedir.InFixtures(n)), what)
	}
	for _, err := range harness.StrayScripts(d.Scenarios()) {
		fmt.Fprintf(a.stdout, "warning   %s\n", esc(err.Error()))
	}
	if !all {
		fmt.Fprintln(a.stdout, "(a partial run: orphaned fixtures are not known)")
	}
	counts := fmt.Sprintf("%d created, %d changed, %d unchanged, %d orphaned", len(r.Created), len(r.Changed), len(r.Unchanged), len(r.Orphaned))
	if dryRun {
		what := "dry run"
		if check {
			what = "check"
		}
		fmt.Fprintf(a.stdout, "record: %s: %s; nothing written\n", what, counts)
		would := len(r.Created) + len(r.Changed) + len(r.ScenariosChanged)
		if prune {
			would += len(r.Orphaned)
		}
		if check && would > 0 {
			return failf("record --check: %s would change; run dshtest record%s", words.Plural(would, "file"), patternArg(pattern))
		}
		return nil
	}
	// Apply, as one batch an interrupted record finishes when run again.
	if err := guard.WriteAll(r); err != nil {
		return err
	}
	if prune {
		if err := d.Prune(r); err != nil {
			return err
		}
	}
	// Check: the recorded scenarios now pass as they are (which also
	// removes their stale pending files).
	after, err := d.Check(names, all, proj)
	if err != nil {
		return err
	}
	if !all || !prune {
		after.Inventory = nil // orphans are reported above
	}
	if after.Failed() {
		printSummary(a.stdout, &after, all, suiteNames(d.Scenarios(), d.Fixtures()))
		return failf("record: fixtures written, but the scenarios still fail")
	}
	fmt.Fprintf(a.stdout, "record: %s\n", counts)
	return nil
}

// patternArg is " PATTERN" for a hint, or "".
func patternArg(pattern string) string {
	if pattern == "" {
		return ""
	}
	return " " + shellQuote(pattern)
}

// shellQuote quotes s for a shell when it needs it.
func shellQuote(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// printChanges prints each changed file with a compact diff, grouping files
// whose change is the same. The diff is a fixture's text, and goes through
// the one escaper as run's does.
func printChanges(w io.Writer, in func(string) string, names []string, old, new suitedir.Tree) {
	type group struct {
		diff  string
		names []string
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, n := range names {
		d := suitedir.CompactDiff(string(old[n]), string(new[n]))
		k := changeKey(d)
		g := byKey[k]
		if g == nil {
			g = &group{diff: d}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.names = append(g.names, esc(in(n)))
	}
	for _, g := range groups {
		if len(g.names) == 1 {
			fmt.Fprintf(w, "changed   %s\n%s\n", g.names[0], indent(display.Escape(g.diff), "    "))
			continue
		}
		fmt.Fprintf(w, "changed   %d fixtures: same change in %s\n%s\n", len(g.names), strings.Join(g.names, ", "), indent(display.Escape(g.diff), "    "))
	}
}

// changeKey identifies a change by its removed and added lines, whatever
// their positions.
func changeKey(diff string) string {
	var b strings.Builder
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
