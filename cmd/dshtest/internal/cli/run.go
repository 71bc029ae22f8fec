package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/terminal/display"
)

func (a *app) runCommand() *cobra.Command {
	var (
		dir        string
		shard      string
		asJSON     bool
		verbose    bool
		pendingDir string
		junit      string
		github     bool
		report     string
	)
	cmd := &cobra.Command{
		Use:   "run [PATTERN]",
		Short: "Run the scenario suite (the same verdicts as go test ./harness -run TestScenarios)",
		Long: `run runs the scenarios of scenarios/*.txtar against the fixtures in fixtures/,
exactly as go test ./harness -run TestScenarios does, and prints one line per
scenario (name, ok or FAIL, time), then every failure with its diff, then a
closing "scenarios: N passed, N failed" line. On a terminal a live progress
line shows the scenario running.

PATTERN is a regular expression matched against scenario names (as go test
-run takes); --shard i/n runs the i-th of n stable partitions by name hash
(a shard that holds no scenario passes, saying so).
A run of every scenario also checks the closed fixture inventory: a fixture
no snapshot took, or a snapshot without its fixture, fails the run.

run never writes a fixture. A snapshot that differs from its fixture (or
has none) writes its new screen beside it as fixtures/NAME.screen.new, and
the scenario goes on, so every changed snapshot is reported; decide with
dshtest review, accept or reject. Under CI (CI set to anything but "", 0
or false) pending screens go only to --pending-dir or $DSHTEST_PENDING_DIR,
and without one nothing is written. A passing snapshot removes its stale
pending file. It finds the scenario folder from the working directory: the
nearest folder at or above it that holds scenarios/ and fixtures/ (or
scenarios/ beside this module's go.mod); --dir names it instead. Exit 1 if
anything failed.

Self-test: with DSHTEST_PROJECTOR=surface the scenarios render with the
terminal drawn from the model surface, the broken projection the invariants
must catch, as dshtest repro, record and view do; an invariants step then
fails.`,
		Example: `  dshtest run
  dshtest run compaction
  dshtest run --shard 2/4 --json
  go run ./cmd/dshtest run -v '^surface-'`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			pattern := ""
			if len(args) == 1 {
				pattern = args[0]
			}
			root, err := findRoot(dir)
			if err != nil {
				return err
			}
			proj, _, err := a.projectionFor()
			if err != nil {
				return err
			}
			cfg := suitedir.Dir{Root: root}.Config()
			cfg.CI, cfg.Verbose, cfg.Projection = harness.IsCI(a.getenv("CI")), verbose, proj
			cfg.PendingDir = a.pendingDir(pendingDir, cfg.FixtureDir)
			cfg.HintDir = dir // the suite as named, for the commands a failure suggests
			if err := refuseInputs(root, output{"--junit", junit}, output{"--report", report}); err != nil {
				return err
			}
			names, all, err := selectScenarios(cfg.ScenarioDir, pattern, shard)
			if err != nil {
				return err
			}
			if len(names) == 0 && pattern == "" && shard != "" {
				// A suite with fewer scenarios than shards leaves some
				// empty: a CI matrix job with nothing to run passes.
				if asJSON {
					writeSummaryJSON(a.stdout, &harness.Result{})
				} else {
					fmt.Fprintf(a.stdout, "scenarios: none in shard %s of %s\n", shard, relTo(root, cfg.ScenarioDir))
				}
				if junit != "" {
					return writeJUnitFile(junit, &harness.Result{})
				}
				return nil
			}
			if len(names) == 0 {
				where := relTo(root, cfg.ScenarioDir)
				if shard != "" {
					where += " (shard " + shard + ")"
				}
				return usagef("no scenario matched %q in %s", pattern, where)
			}
			if !all {
				cfg.Scenarios = names
			}
			files := suiteNames(cfg.ScenarioDir, cfg.FixtureDir)
			res := a.runWithProgress(cfg, verbose, asJSON, files)
			if asJSON {
				writeSummaryJSON(a.stdout, res)
			} else {
				printSummary(a.stdout, res, all, files)
			}
			if github {
				writeGitHub(a.stdout, res, githubDir(root, a.getenv("GITHUB_WORKSPACE")))
			}
			if junit != "" {
				if err := writeJUnitFile(junit, res); err != nil {
					return err
				}
			}
			if report != "" && res.Failed() {
				if err := a.writeRunReport(report, root, res); err != nil {
					return err
				}
			}
			if res.Failed() {
				return errFailed
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the folder holding scenarios/ and fixtures/ (default: found from the working directory)")
	cmd.Flags().StringVar(&shard, "shard", "", "run shard i of n (1-based, stable by name), e.g. 1/4")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON lines: one object per scenario, then a summary")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "log every scenario step")
	cmd.Flags().StringVar(&junit, "junit", "", "also write a JUnit XML report to FILE (one test case per scenario)")
	cmd.Flags().BoolVar(&github, "github", false, "also print GitHub Actions error annotations (::error file=…,line=…::…)")
	cmd.Flags().StringVar(&report, "report", "", "on failure, also write an HTML report of every changed screen to FILE")
	cmd.Flags().StringVar(&pendingDir, "pending-dir", "", "write pending screens (NAME.screen.new) here (default: beside the fixtures; under CI only here or in $DSHTEST_PENDING_DIR)")
	return cmd
}

// output is a file a command writes: its flag and its path.
type output struct{ flag, path string }

// refuseInputs refuses (ExitUsage) an output that would replace an input
// of the suite in root, however spelled, or that the suite would read as
// one when it next runs (a new scenarios/NAME.txtar, any file of
// fixtures/).
func refuseInputs(root string, outs ...output) error {
	d := suitedir.Dir{Root: root}
	for _, out := range outs {
		if in, ok := suitedir.InputAt(out.path, d.Scenarios(), d.Fixtures()); ok {
			return &exitError{code: ExitUsage, err: fmt.Errorf("%s %s: refusing to replace %s, an input of the run", out.flag, esc(out.path), esc(in))}
		}
		if what, ok := d.ReadAsInput(out.path); ok {
			return &exitError{code: ExitUsage, err: fmt.Errorf("%s %s: refusing to write an output where the next run would read it as %s", out.flag, esc(out.path), what)}
		}
	}
	return nil
}

// pendingDir is where run writes pending screens: --pending-dir, else
// harness.PendingDirFromEnv (beside the fixtures, or under CI only
// $DSHTEST_PENDING_DIR).
func (a *app) pendingDir(flag, fixtureDir string) string {
	if flag != "" {
		if abs, err := filepath.Abs(flag); err == nil {
			return abs
		}
		return flag
	}
	d := harness.PendingDirFromEnv(a.getenv, fixtureDir)
	if abs, err := filepath.Abs(d); err == nil && d != "" {
		return abs
	}
	return d
}

// runWithProgress runs the suite, reporting each scenario as it finishes:
// a JSON line, or a plain line (with a live progress line on a terminal).
// names are the suite's file names its text may quote (suiteNames).
func (a *app) runWithProgress(cfg harness.Config, verbose, asJSON bool, names []string) *harness.Result {
	tty := !asJSON && a.isTTY(a.stdout)
	text := textEscaper(names)
	cfg.Verbose = verbose
	failed := 0
	cfg.Started = func(name string, i, n int) {
		if tty {
			status := ""
			if failed > 0 {
				status = fmt.Sprintf(" (%d failed so far)", failed)
			}
			fmt.Fprintf(a.stdout, "\r\x1b[K[%d/%d] %s …%s", i, n, esc(name), status)
		}
	}
	cfg.Finished = func(o harness.Outcome, i, n int) {
		if o.Status == "fail" {
			failed++
		}
		if asJSON {
			writeJSONLine(a.stdout, o)
			return
		}
		if tty {
			fmt.Fprint(a.stdout, "\r\x1b[K")
		}
		fmt.Fprintln(a.stdout, outcomeLine(o))
		if verbose && o.Output != "" && o.Status != "fail" {
			fmt.Fprintln(a.stdout, indent(text(o.Output), "    "))
		}
	}
	res := harness.RunSuite(cfg)
	if tty {
		fmt.Fprint(a.stdout, "\r\x1b[K")
	}
	return &res
}

func outcomeLine(o harness.Outcome) string {
	verdict := map[string]string{"pass": "ok  ", "fail": "FAIL", "skip": "skip"}[o.Status]
	return fmt.Sprintf("%s %-40s %6.2fs", verdict, esc(o.Name), o.Elapsed.Seconds())
}

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

// suiteNames are the names a run's messages may quote: the files of the
// suite's folders (a scenario, a stray fixture), with and without their
// extension.
func suiteNames(dirs ...string) []string {
	var names []string
	for _, dir := range dirs {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			names = append(names, e.Name(), strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())))
		}
	}
	return names
}

// textEscaper returns the one escaper (display.Escape) for a run's text
// output, which keeps its line breaks, with every name in names that
// holds a newline (a scenario's file name can) spelled as esc spells it:
// a name never breaks a line, so it can never start one of its own.
func textEscaper(names []string) func(string) string {
	var broken []string
	for _, n := range names {
		if strings.Contains(n, "\n") {
			broken = append(broken, n)
		}
	}
	if len(broken) == 0 {
		return display.Escape
	}
	// The longest first: of two names at one place, the whole one.
	sort.Slice(broken, func(i, j int) bool { return len(broken[i]) > len(broken[j]) })
	var pairs []string
	for _, n := range broken {
		pairs = append(pairs, n, esc(n))
	}
	r := strings.NewReplacer(pairs...)
	return func(s string) string { return display.Escape(r.Replace(s)) }
}

// printSummary prints the failures with their output, the inventory and
// the closing counts line. names are the suite's file names its text may
// quote (suiteNames); the scenarios' names are added.
func printSummary(w io.Writer, res *harness.Result, all bool, names []string) {
	for _, o := range res.Outcomes {
		names = append(names, o.Name)
	}
	text := textEscaper(names)
	for _, o := range res.Outcomes {
		if o.Status != "fail" {
			continue
		}
		fmt.Fprintf(w, "\n--- FAIL: %s (%.2fs)\n%s\n", esc(o.Name), o.Elapsed.Seconds(), indent(text(o.Output), "    "))
	}
	if res.Setup != "" {
		fmt.Fprintf(w, "\n--- FAIL: suite setup\n%s\n", indent(text(res.Setup), "    "))
	}
	if len(res.Inventory) > 0 {
		fmt.Fprintf(w, "\n--- FAIL: closed fixture inventory\n")
		for _, e := range res.Inventory {
			fmt.Fprintf(w, "%s\n", indent(text(e), "    "))
		}
	}
	pass, fail, skip := res.Counts()
	note := ""
	switch {
	case !all && len(res.Inventory) > 0:
		// What a partial run checks found problems: say what it left.
		note = "; a partial run: orphan and missing fixtures not checked"
	case !all:
		note = "; a partial run: fixture inventory not checked"
	}
	line := fmt.Sprintf("scenarios: %d passed, %d failed", pass, fail)
	if skip > 0 {
		line += fmt.Sprintf(", %d skipped", skip)
	}
	// The inventory and the setup are not scenarios: they are counted as
	// themselves.
	if n := len(res.Inventory); n > 0 {
		line += fmt.Sprintf("; fixture inventory: %s", words.Plural(n, "problem"))
	}
	if res.Setup != "" {
		line += "; suite setup failed"
	}
	fmt.Fprintf(w, "\n%s\n(%s%s)\n", line, res.Elapsed.Round(time.Millisecond), note)
}

// writeSummaryJSON writes the closing JSON line of run --json.
func writeSummaryJSON(w io.Writer, res *harness.Result) {
	pass, fail, skip := res.Counts()
	s := struct {
		Summary struct {
			Passed    int      `json:"passed"`
			Failed    int      `json:"failed"`
			Skipped   int      `json:"skipped"`
			Seconds   float64  `json:"seconds"`
			Inventory []string `json:"inventory"`
			Setup     string   `json:"setup,omitempty"`
			OK        bool     `json:"ok"`
		} `json:"summary"`
	}{}
	s.Summary.Passed, s.Summary.Failed, s.Summary.Skipped = pass, fail, skip
	s.Summary.Seconds = float64(res.Elapsed.Milliseconds()) / 1000
	s.Summary.Inventory = append([]string{}, res.Inventory...)
	s.Summary.Setup = res.Setup
	s.Summary.OK = !res.Failed()
	writeJSONLine(w, s)
}

// writeJSONLine writes v as one line of JSON through the escaper (a
// fixture's text in a diff is input too: no BiDi or C1 character raw).
func writeJSONLine(w io.Writer, v any) {
	b, err := encodeJSON(v, false)
	if err != nil {
		b = fmt.Appendf(nil, "{\"error\":%q}\n", err.Error())
	}
	_, _ = w.Write(b)
}

// selectScenarios returns the names of dir's scenarios that match pattern
// (an unanchored regular expression, as go test -run takes) and fall in
// shard (i/n, 1-based; "" for all), and whether that is all of them.
func selectScenarios(dir, pattern, shard string) (names []string, all bool, err error) {
	re, err := compilePattern(pattern)
	if err != nil {
		return nil, false, err
	}
	si, sn, ok := harness.ParseShard(shard)
	if !ok {
		return nil, false, usagef("--shard %q: want i/n with 1 ≤ i ≤ n, e.g. 2/4", shard)
	}
	return harness.SelectScenarios(dir, re, si, sn)
}

// compilePattern compiles a PATTERN argument (nil for "").
func compilePattern(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, usagef("pattern %q: %v", pattern, err)
	}
	return re, nil
}
