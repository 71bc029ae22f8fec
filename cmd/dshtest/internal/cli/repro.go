package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/repro"
	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/load/summary"
)

// parseSize parses --size (invariant.ParseSize) as a usage error.
func parseSize(s string) (invariant.Size, error) {
	sz, err := invariant.ParseSize(s)
	if err != nil {
		return sz, usagef("--size %v", err)
	}
	return sz, nil
}

type reproFlags struct {
	log      logFlags
	sizes    []string
	eager    bool
	emit     string
	scrub    bool
	minimize string
	out      string
	force    bool
	asJSON   bool
	maxLines int
}

func (a *app) reproCommand() *cobra.Command {
	var f reproFlags
	var names []string
	for _, inv := range invariant.All() {
		names = append(names, hangingIndent(fmt.Sprintf("  %-16s ", inv.Name), inv.Doc, 78))
	}
	cmd := &cobra.Command{
		Use:   "repro [LOG | --session ID]",
		Short: "Check a user's session log against the transcript invariants",
		Long: `repro takes a session log as a user reported it, in either vocabulary, with or
without upstream's {"type":"session",…} header line and packed chunk rows. It
validates the log (a bad line is reported as file:line; a truncated last line
is a warning and the valid prefix is used), renders it through the real
terminal renderer twice at every --size (replay: mounted on the stored log;
live: fed the events one by one) and checks the invariants:

` + strings.Join(names, "\n") + `

It prints one line per invariant, ok or FAIL with a detail, and exits 0 only
if every invariant held.

--emit writes a scenario that embeds the log, asserts every invariant on it
at every size (the invariants step) and snapshots it there, ready for
"dshtest record", which refuses it while an invariant fails; --scrub
anonymises the texts first.
--minimize INVARIANT shrinks the log while that invariant still fails and
writes the smaller log next to the input (NAME.min.jsonl) or to --out.

Memory: repro keeps its memory within about twice the log's text, as check,
history, render and view do (the Go runtime's soft memory limit, at least 64
MiB), and within 3 times it on a log of texts of megabytes each, so that a CI
runner can plan for it; GOMEMLIMIT, when set, decides instead. Without
--minimize and --emit it keeps none of the log's events, nor either
transcript whole: it reads the log twice (once to validate it and derive what
the transcript must show, once for the replay, the live path and the history
pages, compared item by item as they go), and a third time where live and
replay part, to say where.

Self-test: with DSHTEST_PROJECTOR=surface the terminal's projection is swapped
for one that draws the transcript from the model surface (the bug the design
note fixed). The invariants must then fail on any log with a compaction.`,
		Example: `  dshtest repro user.jsonl
  dshtest repro user.jsonl --size 80x24 --size 44x18 --eager
  dshtest repro user.jsonl --emit scenarios/user-report.txtar --scrub
  dshtest repro user.jsonl --minimize no-lost-message --out /tmp/small.jsonl
  DSHTEST_PROJECTOR=surface dshtest repro session.jsonl --minimize no-lost-message`,
		Args: logArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.repro(args, &f)
		}),
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.sizes, "size", nil, "terminal size COLSxROWS to render at (repeatable; default 80x24, 44x18, 104x30)")
	fl.BoolVar(&f.eager, "eager", false, "upstream's eager step rule (for upstream-era logs and fixtures)")
	fl.StringVar(&f.emit, "emit", "", "write a scenario embedding the log to this path (e.g. scenarios/NAME.txtar)")
	fl.BoolVar(&f.scrub, "scrub", false, "with --emit: anonymise the log's texts")
	fl.StringVar(&f.minimize, "minimize", "", "shrink the log while this invariant still fails ("+strings.Join(invariant.Names(), ", ")+")")
	fl.StringVar(&f.out, "out", "", "with --minimize: where to write the minimized log (default NAME.min.jsonl next to the input; standard input needs one)")
	fl.BoolVar(&f.force, "force", false, "with --out or --emit: replace an existing file (never the input)")
	fl.BoolVar(&f.asJSON, "json", false, "print the report as one JSON object")
	registerMaxToolLines(fl, &f.maxLines)
	f.log.register(fl)
	_ = cmd.RegisterFlagCompletionFunc("minimize", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return invariant.Names(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func (a *app) repro(args []string, f *reproFlags) error {
	path := logName(args, &f.log)
	if err := checkMaxToolLines(f.maxLines); err != nil {
		return err
	}
	sizes := repro.DefaultSizes()
	if len(f.sizes) > 0 {
		sizes = nil
		for _, s := range f.sizes {
			sz, err := parseSize(s)
			if err != nil {
				return err
			}
			sizes = append(sizes, sz)
		}
	}
	if f.minimize != "" && !slices.Contains(invariant.Names(), f.minimize) {
		return usagef("--minimize %q: want one of %s", f.minimize, strings.Join(invariant.Names(), ", "))
	}
	if f.out != "" && f.minimize == "" {
		return usagef("--out is for --minimize")
	}
	if f.minimize != "" && f.out == "" && path == load.StdinName {
		// Beside the input would be a file named "-.min.jsonl".
		return usagef("--minimize of standard input needs --out FILE, where the minimized log goes")
	}
	if f.scrub && f.emit == "" {
		return usagef("--scrub is for --emit")
	}
	if f.force && f.out == "" && f.emit == "" && f.minimize == "" {
		return usagef("--force is for --out and --emit")
	}
	// Check where the files go before any work is done.
	var outT, emitT *safefile.Target
	if f.emit != "" {
		t, err := checkEmitPath(f.emit, path, f.force)
		if err != nil {
			return err
		}
		emitT = t
	}
	// A refused write of the minimized log names the flag that asked for
	// it: --out, or --minimize when it writes beside the input.
	outFlag := "--out"
	if f.out == "" {
		outFlag = "--minimize writes"
	}
	if f.minimize != "" {
		t, err := checkTarget(outFlag, minimizedPath(path, f.out), path, f.force)
		if err != nil {
			return err
		}
		outT = t
	}
	proj, projName, err := a.projectionFor()
	if err != nil {
		return err
	}
	// fail is a refusal of the log, also as JSON with --json.
	fail := func(err error) error {
		if f.asJSON {
			writeJSONError(a.stdout, path, err)
		}
		return err
	}
	// The log is read more than once: the file is held, and must not change.
	lf, err := a.openLog(args, &f.log, reproBudget, true, true)
	if err != nil {
		return fail(err)
	}
	defer lf.Close()
	run, err := repro.Check(lf, repro.Options{Sizes: sizes, Eager: f.eager, Projection: proj, ProjectionName: projName,
		MaxToolLines: f.maxLines, Keep: f.minimize != "" || f.emit != "",
		Loaded: a.printWarnings, Refusal: func(err error) error { return a.inputErr(err, &f.log) }})
	if err != nil {
		return fail(err)
	}
	path = lf.Path()
	rep := run.Report
	if !f.asJSON {
		a.printReport(rep)
	}
	if f.minimize != "" {
		m, err := run.Minimize(f.minimize, outT, summary.Describe)
		if err != nil {
			return targetErr(outFlag, outT.Path(), err)
		}
		if !f.asJSON {
			if m == nil {
				fmt.Fprintf(a.stdout, "nothing to minimize: %s holds\n", f.minimize)
			} else {
				fmt.Fprintf(a.stdout, "minimized %s: %d → %d events, %s still fails: %s\n",
					f.minimize, m.Before, m.After, f.minimize, m.Detail)
				for _, d := range m.Events {
					fmt.Fprintf(a.stdout, "  %s\n", d)
				}
				fmt.Fprintf(a.stdout, "wrote %s\n", esc(m.Path))
			}
		}
	}
	if f.emit != "" {
		if rep.Events == 0 {
			return targetError("--emit", emitT.Path(), errors.New("the log has no events: there is nothing to pin"))
		}
		if err := run.Emit(emitT, path, f.scrub); err != nil {
			return targetErr("--emit", emitT.Path(), err)
		}
		rep.Emitted = f.emit
		if !f.asJSON {
			fmt.Fprintf(a.stdout, "wrote %s (record it: dshtest record %s)\n", esc(f.emit),
				strings.TrimSuffix(filepath.Base(f.emit), ".txtar"))
		}
	}
	if f.asJSON {
		if err := writeJSON(a.stdout, rep); err != nil {
			return err
		}
	}
	if !rep.OK {
		return errFailed
	}
	return nil
}

// targetErr is err, a refused write of the flag's file as targetError
// says it.
func targetErr(flag, path string, err error) error {
	var we *repro.WriteError
	if errors.As(err, &we) {
		return targetError(flag, path, we.Err)
	}
	return err
}

func (a *app) printReport(rep *repro.Report) {
	steps := "lazy steps"
	if rep.Eager {
		steps = "eager steps"
	}
	fmt.Fprintf(a.stdout, "repro %s: %d events; sizes %s; %s; %s projection\n",
		esc(rep.File), rep.Events, strings.Join(rep.Sizes, " "), steps, rep.Projection)
	for _, r := range rep.Invariants {
		fmt.Fprintln(a.stdout, r.Line())
	}
}

// checkEmitPath checks a scenario path before any work is done: its name
// makes valid fixture names, and safefile's rule allows the write.
func checkEmitPath(path, input string, force bool) (*safefile.Target, error) {
	name, ok := strings.CutSuffix(filepath.Base(path), ".txtar")
	if !ok {
		return nil, usagef("--emit %s: a scenario file ends in .txtar", path)
	}
	if name == "" || name[0] == '-' || !harness.ValidFixtureName(name) { // its fixtures are NAME-COLSxROWS
		return nil, usagef("--emit %s: name the scenario with lower-case letters, digits and '-' (its fixtures are NAME-COLSxROWS)", path)
	}
	return checkTarget("--emit", path, input, force)
}

// minimizedPath is where --minimize writes: --out, or NAME.min.jsonl next
// to the input.
func minimizedPath(input, out string) string {
	if out != "" {
		return out
	}
	return strings.TrimSuffix(input, filepath.Ext(input)) + ".min.jsonl"
}

// checkTarget checks a file the command will write (safefile's rule: never
// the input, no link or non-regular file, no existing file without
// --force, a directory that takes it). The error names the flag and path.
func checkTarget(flag, path, input string, force bool) (*safefile.Target, error) {
	t, err := safefile.Check(path, safefile.Options{Force: force, Inputs: []string{input}})
	if err != nil {
		return nil, targetError(flag, path, err)
	}
	return t, nil
}

// targetError is a refused or failed write as one line: "FLAG PATH: reason",
// bad input (exit 2) that needs no pointer to --help.
func targetError(flag, path string, err error) error {
	var se *safefile.Error
	if errors.As(err, &se) {
		err = se.Err
	}
	return &exitError{code: ExitUsage, err: fmt.Errorf("%s %s: %w", flag, path, err)}
}

// hangingIndent writes prefix and then text wrapped at width columns, its
// continuation lines indented to line up after prefix.
func hangingIndent(prefix, text string, width int) string {
	indent := len([]rune(prefix))
	var b strings.Builder
	b.WriteString(prefix)
	col := indent
	for i, w := range strings.Fields(text) {
		n := len([]rune(w))
		switch {
		case i == 0:
		case col+1+n > width:
			b.WriteString("\n" + strings.Repeat(" ", indent))
			col = indent
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
	return b.String()
}
