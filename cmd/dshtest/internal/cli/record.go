package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/ground/words"
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
seed's bug, as dshtest repro and run do.

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

// tree is the content of a flat directory of files by name.
type tree map[string][]byte

// render is what an update render left in the scratch copy.
type render struct {
	res       *suiteResult
	fixtures  tree
	scenarios tree
}

// recordOptions render in the command's scratch directories, which an
// interrupt removes, and start no scenario once one has come.
var recordOptions = harness.RerecordOptions{
	Scratch: func() (string, func(), error) {
		dir, err := newScratch()
		return dir, func() { dropScratch(dir) }, err
	},
	MayStart: scenarioMayStart,
}

// splitFiles splits a recording's files ("scenarios/NAME",
// "fixtures/NAME") into the two directories' trees.
func splitFiles(files map[string][]byte) (scenarios, fixtures tree) {
	scenarios, fixtures = tree{}, tree{}
	for name, b := range files {
		if n, ok := strings.CutPrefix(name, "fixtures/"); ok {
			fixtures[n] = b
		} else {
			scenarios[strings.TrimPrefix(name, "scenarios/")] = b
		}
	}
	return scenarios, fixtures
}

// refused prints why a recording may not be written and returns the
// refusal: an invariants step that failed, a scenario that failed for a
// reason other than a changed screen, files two renders disagree on.
func (a *app) refused(rec *harness.Rerecording) error {
	summary := func() {
		res := &suiteResult{Setup: rec.Setup, Elapsed: rec.Elapsed}
		for _, o := range rec.Outcomes {
			out := outcome{Name: o.Name, Status: "pass", Elapsed: o.Elapsed}
			out.Seconds = float64(o.Elapsed.Milliseconds()) / 1000
			switch {
			case o.Failed:
				out.Status, out.Output = "fail", o.Log
			case o.Skipped:
				out.Status, out.Output = "skip", o.Log
			}
			res.Outcomes = append(res.Outcomes, out)
		}
		printSummary(a.stdout, res, true)
	}
	if bad := rec.Invariants; len(bad) > 0 {
		summary()
		var what []string
		for _, f := range bad {
			what = append(what, f.File+": "+strings.Join(f.Checks, ", "))
		}
		return failf("record: invariants fail (%s): the screens would pin the bug; nothing written", strings.Join(what, "; "))
	}
	if failed := rec.Failed(); len(failed) > 0 {
		summary()
		return failf("record: %s failed for a reason other than a changed screen (%s); nothing written",
			words.Plural(len(failed), "scenario"), strings.Join(failed, ", "))
	}
	if bad := rec.Unreproducible; len(bad) > 0 {
		for _, d := range bad {
			fmt.Fprintf(a.stdout, "not reproducible: %s differs between two renders:\n%s\n", d.Name, indent(d.Diff, "    "))
		}
		return failf("record: %d files are not reproducible (two renders differ); nothing written", len(bad))
	}
	return nil
}

func (a *app) record(root, pattern string, prune, dryRun, check, verbose bool) error {
	// The guard comes first: an interrupt that lands while the scenarios
	// are read or the preflight runs is said and exits 130 like any other.
	guard := a.guardInterrupts(root)
	defer guard.stop()
	sdir, fdir := filepath.Join(root, "scenarios"), filepath.Join(root, "fixtures")
	names, all, err := selectScenarios(sdir, pattern, "")
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return usagef("no scenario matches %q in %s", pattern, relTo(root, sdir))
	}
	if err := a.recordPreflight(sdir, fdir, names); err != nil {
		return err
	}
	proj, _, err := a.projectionFor()
	if err != nil {
		return err
	}
	cfg := harness.Config{ScenarioDir: sdir, FixtureDir: fdir, Projection: proj}
	if !all {
		cfg.Scenarios = names
	}
	fmt.Fprintf(a.stdout, "recording %s (rendering twice) …\n", words.Plural(len(names), "scenario"))
	rec, err := harness.Rerecord(cfg, recordOptions)
	if err != nil {
		return err
	}
	if err := a.refused(rec); err != nil {
		return err
	}
	origScen, origFix := splitFiles(rec.Old)
	first := &render{res: &suiteResult{Recorded: rec.Recorded}}
	first.scenarios, first.fixtures = splitFiles(rec.New)

	// Classify fixtures.
	recorded := map[string]bool{}
	for _, n := range first.res.Recorded {
		recorded[n+harness.FixtureSuffix] = true
	}
	var created, changed, unchanged, orphaned []string
	for name, b := range first.fixtures {
		old, ok := origFix[name]
		switch {
		case !ok:
			created = append(created, name)
		case !bytes.Equal(old, b):
			changed = append(changed, name)
		case recorded[name]:
			unchanged = append(unchanged, name)
		}
		if ok && !recorded[name] && all {
			orphaned = append(orphaned, name)
		}
	}
	var scenChanged []string
	for name, b := range first.scenarios {
		if !bytes.Equal(origScen[name], b) {
			scenChanged = append(scenChanged, name)
		}
	}
	for _, s := range [][]string{created, changed, unchanged, orphaned, scenChanged} {
		sort.Strings(s)
	}

	// Report.
	for _, n := range created {
		fmt.Fprintf(a.stdout, "created   fixtures/%s (%d lines)\n", n, bytes.Count(first.fixtures[n], []byte("\n")))
	}
	printChanges(a.stdout, "fixtures/", changed, origFix, first.fixtures)
	printChanges(a.stdout, "scenarios/", scenChanged, origScen, first.scenarios)
	if verbose {
		for _, n := range unchanged {
			fmt.Fprintf(a.stdout, "unchanged fixtures/%s\n", n)
		}
	} else if len(unchanged) > 0 {
		fmt.Fprintf(a.stdout, "unchanged %s (-v names them)\n", words.Plural(len(unchanged), "fixture"))
	}
	for _, n := range orphaned {
		what := "no snapshot step takes it; --prune deletes it"
		if prune {
			what = "deleted"
		}
		fmt.Fprintf(a.stdout, "orphaned  fixtures/%s (%s)\n", n, what)
	}
	if !all {
		fmt.Fprintln(a.stdout, "(a partial run: orphaned fixtures are not known)")
	}

	if dryRun {
		what := "dry run"
		if check {
			what = "check"
		}
		fmt.Fprintf(a.stdout, "record: %s: %d created, %d changed, %d unchanged, %d orphaned; nothing written\n",
			what, len(created), len(changed), len(unchanged), len(orphaned))
		would := len(created) + len(changed) + len(scenChanged)
		if prune {
			would += len(orphaned)
		}
		if check && would > 0 {
			return failf("record --check: %s would change; run dshtest record%s", words.Plural(would, "file"), patternArg(pattern))
		}
		return nil
	}
	// Apply, as one batch an interrupted record finishes when run again.
	if err := guard.writeAll(batchFiles(created, changed, scenChanged), func(rel string) []byte {
		if n, ok := strings.CutPrefix(rel, "fixtures/"); ok {
			return first.fixtures[n]
		}
		return first.scenarios[strings.TrimPrefix(rel, "scenarios/")]
	}); err != nil {
		return err
	}
	if prune {
		for _, n := range orphaned {
			if err := os.Remove(filepath.Join(fdir, n)); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	}
	// Check: the recorded scenarios now pass as they are (which also
	// removes their stale pending files).
	work, err := newScratch()
	if err != nil {
		return err
	}
	defer dropScratch(work)
	cfg.PendingDir, cfg.WorkdirRoot = fdir, work
	after := runSuite(suiteRun{cfg: cfg})
	if !all || !prune {
		after.Inventory = nil // orphans are reported above
	}
	if after.failed() {
		printSummary(a.stdout, after, all)
		return failf("record: fixtures written, but the scenarios still fail")
	}
	fmt.Fprintf(a.stdout, "record: %d created, %d changed, %d unchanged, %d orphaned\n",
		len(created), len(changed), len(unchanged), len(orphaned))
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
func shellQuote(s string) string { return harness.ShellQuote(s) }

// printChanges prints each changed file with a compact diff, grouping files
// whose change is the same.
func printChanges(w io.Writer, prefix string, names []string, old, new tree) {
	type group struct {
		diff  string
		names []string
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, n := range names {
		d := compactDiff(string(old[n]), string(new[n]))
		k := changeKey(d)
		g := byKey[k]
		if g == nil {
			g = &group{diff: d}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.names = append(g.names, prefix+n)
	}
	for _, g := range groups {
		if len(g.names) == 1 {
			fmt.Fprintf(w, "changed   %s\n%s\n", g.names[0], indent(g.diff, "    "))
			continue
		}
		fmt.Fprintf(w, "changed   %d fixtures: same change in %s\n%s\n", len(g.names), strings.Join(g.names, ", "), indent(g.diff, "    "))
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
