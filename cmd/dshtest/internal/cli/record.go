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
	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/terminal"
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

func readTree(dir string) (tree, error) {
	t := tree{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return t, nil
		}
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || harness.IsPending(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		t[e.Name()] = b
	}
	return t, nil
}

func writeTree(dir string, t tree) error {
	// One level only: a scratch directory an interrupt removed is not
	// made again.
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	for name, b := range t {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// render is one update-mode run of the suite in a scratch copy.
type render struct {
	res       *suiteResult
	fixtures  tree
	scenarios tree
}

// renderScratch runs the suite in update mode on a scratch copy of the
// scenarios and fixtures and returns what it left there.
//
// Messages name the user's files: the scratch directory's path is replaced
// by root's in every output.
func renderScratch(root string, scenarios, fixtures tree, names []string, all bool, proj terminal.Projection) (*render, error) {
	tmp, err := newScratch()
	if err != nil {
		return nil, err
	}
	defer dropScratch(tmp)
	sdir, fdir := filepath.Join(tmp, "scenarios"), filepath.Join(tmp, "fixtures")
	if err := writeTree(sdir, scenarios); err != nil {
		return nil, err
	}
	if err := writeTree(fdir, fixtures); err != nil {
		return nil, err
	}
	cfg := harness.Config{ScenarioDir: sdir, FixtureDir: fdir, Update: true, WorkdirRoot: tmp, Projection: proj}
	if !all {
		cfg.Scenarios = names
	}
	r := &render{res: runSuite(suiteRun{cfg: cfg})}
	r.res.unscratch(tmp, root)
	if r.fixtures, err = readTree(fdir); err != nil {
		return nil, err
	}
	if r.scenarios, err = readTree(sdir); err != nil {
		return nil, err
	}
	return r, nil
}

func (a *app) record(root, pattern string, prune, dryRun, check, verbose bool) error {
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
	guard := a.guardInterrupts(root)
	defer guard.stop()
	origScen, err := readTree(sdir)
	if err != nil {
		return err
	}
	origFix, err := readTree(fdir)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "recording %s (rendering twice) …\n", invariant.Plural(len(names), "scenario"))
	first, err := renderScratch(root, origScen, origFix, names, all, proj)
	if err != nil {
		return err
	}
	if bad := first.res.Invariants; len(bad) > 0 {
		printSummary(a.stdout, &suiteResult{Outcomes: first.res.Outcomes, Setup: first.res.Setup, Elapsed: first.res.Elapsed}, true)
		var what []string
		for _, f := range bad {
			what = append(what, f.File+": "+strings.Join(f.Checks, ", "))
		}
		return failf("record: invariants fail (%s): the screens would pin the bug; nothing written", strings.Join(what, "; "))
	}
	if failed := failures(first.res); len(failed) > 0 {
		printSummary(a.stdout, &suiteResult{Outcomes: first.res.Outcomes, Setup: first.res.Setup, Elapsed: first.res.Elapsed}, true)
		return failf("record: %s failed for a reason other than a changed screen (%s); nothing written",
			invariant.Plural(len(failed), "scenario"), strings.Join(failed, ", "))
	}
	second, err := renderScratch(root, origScen, origFix, names, all, proj)
	if err != nil {
		return err
	}
	if bad := differing(first.fixtures, second.fixtures, "fixtures/", first.scenarios, second.scenarios, "scenarios/"); len(bad) > 0 {
		for _, d := range bad {
			fmt.Fprintf(a.stdout, "not reproducible: %s differs between two renders:\n%s\n", d.name, indent(d.diff, "    "))
		}
		return failf("record: %d files are not reproducible (two renders differ); nothing written", len(bad))
	}

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
		fmt.Fprintf(a.stdout, "unchanged %s (-v names them)\n", invariant.Plural(len(unchanged), "fixture"))
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
			return failf("record --check: %s would change; run dshtest record%s", invariant.Plural(would, "file"), patternArg(pattern))
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
	cfg := harness.Config{ScenarioDir: sdir, FixtureDir: fdir, PendingDir: fdir, WorkdirRoot: work, Projection: proj}
	if !all {
		cfg.Scenarios = names
	}
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
func shellQuote(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// failures names the scenarios that failed in an update-mode run.
func failures(res *suiteResult) []string {
	var out []string
	for _, o := range res.Outcomes {
		if o.Status == "fail" {
			out = append(out, o.Name)
		}
	}
	if res.Setup != "" {
		out = append(out, "setup")
	}
	return out
}

type fileDiff struct{ name, diff string }

// differing lists the files that differ between two renders.
func differing(a1, b1 tree, p1 string, a2, b2 tree, p2 string) []fileDiff {
	var out []fileDiff
	cmp := func(a, b tree, prefix string) {
		keys := map[string]bool{}
		for k := range a {
			keys[k] = true
		}
		for k := range b {
			keys[k] = true
		}
		var names []string
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if !bytes.Equal(a[k], b[k]) {
				out = append(out, fileDiff{prefix + k, compactDiff(string(a[k]), string(b[k]))})
			}
		}
	}
	cmp(a1, b1, p1)
	cmp(a2, b2, p2)
	return out
}

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
