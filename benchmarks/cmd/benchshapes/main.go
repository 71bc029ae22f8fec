// Command benchshapes measures dshtest's commands as processes on
// generated logs of every shape, size and form, and prints their table
// against the targets of benchmarks/internal/targets (make bench-shapes).
//
//	go run ./benchmarks/cmd/benchshapes
//	go run ./benchmarks/cmd/benchshapes -shapes small,tiny -sizes 10000,100000 -forms raw -keep bench/logs
//
// For every shape × size × form it generates the log with
// internal/testkit/sessiongen/cmd/gen -header (raw .jsonl, and .jsonl.zstd), then
// measures, one process at a time:
//
//   - the floor: cat FILE > /dev/null, and one decode pass of the reader
//     alone (benchshapes -decode FILE, which reads the log through
//     sessionlog/reader and prints its event count);
//   - dshtest check, render, history and repro, each under /usr/bin/time -v
//     with its output to /dev/null: wall time, peak RSS and exit status (a
//     repro exiting 1, an invariant failed, is "FAIL" and keeps its
//     figures; any other non-zero exit is an error of the cell);
//   - repro-one: dshtest repro --size 80x24, repro at one of its three
//     sizes, which splits repro's time into its fixed part and the cost of
//     each further size;
//   - dshtest view in an 80x24 pseudo-terminal (TERM=xterm-256color), under
//     /usr/bin/time -v: the time to its first screen, then the redraw of
//     each key (Ctrl+O, PgUp, End), then q. The output is decoded by a
//     terminal emulator (charmbracelet/x/vt): a screen is drawn when its
//     status row shows the text it must and the output has then been
//     quiet for -quiet; its time is that of its last byte.
//
// Wall time is the runner's own clock around the process (GNU time's is to
// the centisecond, too coarse for a 10k-event log). The runtime's knobs
// (GOGC, GOMEMLIMIT, GODEBUG) are removed from the commands' environment,
// so each runs with the defaults a user gets. Each figure is the median wall time and the
// largest peak RSS of a few runs: by default 15 on logs of up to 20k events
// (whose times are short and the most disturbed by a shared machine), 5 up
// to 200k, 3 above; -count N runs every process N times. The runs of one
// shape and size are made in rounds, each round every process once and the
// two forms of a process one after the other (in the other order every
// other round), so that zstd ÷ raw compares runs made side by side. For
// the same reason a round runs the decode pass between render and repro,
// whose ratios to it are targets, and repro-one right after repro.
//
// The Markdown table goes to standard output and to -o (bench/shapes.md):
// every cell, with its target next to it marked ok or MISSED, then the
// ratios (cost per event, each larger size ÷ the smallest; render ÷ decode
// pass; repro ÷ decode pass, and its split: one size ÷ decode pass, each
// further size ÷ decode pass; zstd ÷ raw). A ratio of two cells run side
// by side in each round (to the decode pass, zstd ÷ raw) is the median of
// the rounds' ratios (pairedRatio). A cell that failed stays in the table
// with its error, and the runner goes on. The exit status is 0 whether
// targets are missed or not, 1 if the runner itself could not run.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/dshtest/dshtest/benchmarks/internal/timev"
)

// The commands measured, in the table's order. cat and decode, the floor,
// are always measured. repro-one is repro at one size (reproOneSize), a
// diagnostic with no target of its own: beside repro it splits repro's time
// into what it spends once (the two reads, the projections, the history
// pages, one size's documents) and what each further size adds.
var allCommands = []string{"check", "render", "history", "repro", "repro-one", "view"}

// reproOneSize is the size repro-one renders at, the first of repro's
// default sizes; reproSizes is how many sizes repro renders at without
// --size (cli.defaultSizes).
const (
	reproOneSize = "80x24"
	reproSizes   = 3
)

// commandArgs is the dshtest command line of step on the log at path.
func commandArgs(step, path string) []string {
	if step == "repro-one" {
		return []string{"repro", "--size", reproOneSize, path}
	}
	return []string{step, path}
}

func main() {
	shapes := flag.String("shapes", "current,small,tiny,real,dense", "log shapes (internal/testkit/sessiongen)")
	sizes := flag.String("sizes", "10000,100000,1000000", "log sizes, in events")
	forms := flag.String("forms", "raw,zstd", "log forms: raw (.jsonl), zstd (.jsonl.zstd)")
	commands := flag.String("commands", strings.Join(allCommands, ","), "dshtest commands to measure")
	keep := flag.String("keep", "", "keep the generated logs in this directory, and reuse those already there")
	out := flag.String("o", "bench/shapes.md", "also write the table to this file (empty: don't)")
	seed := flag.Int64("seed", 1, "generator seed")
	quiet := flag.Duration("quiet", 100*time.Millisecond, "view: a screen is drawn once its output has been quiet this long")
	timeout := flag.Duration("timeout", 15*time.Minute, "the longest one process may run")
	count := flag.Int("count", 0, "run each process this many times, and take the median wall time and the largest peak RSS (0: 15 up to 20k events, 5 up to 200k, 3 above)")
	goCmd := flag.String("go", "go", "the go command that builds dshtest and gen")
	bin := flag.String("bin", "", "measure this dshtest binary instead of building the module's (for example one built from another commit)")
	decodeFile := flag.String("decode", "", "") // the decode pass, re-executed by the runner itself
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchshapes [-shapes S,…] [-sizes N,…] [-forms raw,zstd] [-commands C,…] [-keep DIR] [-o FILE]")
		flag.VisitAll(func(f *flag.Flag) {
			if f.Name != "decode" {
				fmt.Fprintf(os.Stderr, "  -%s\t%s (default %q)\n", f.Name, f.Usage, f.DefValue)
			}
		})
	}
	flag.Parse()
	if *decodeFile != "" {
		if err := decode(*decodeFile, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "benchshapes:", err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	p, err := parsePlan(*shapes, *sizes, *forms, *commands)
	if err == nil && *count < 0 {
		err = errors.New("-count must not be negative")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchshapes:", err)
		os.Exit(2)
	}
	b := &bench{plan: p, keep: *keep, seed: *seed, quiet: *quiet, timeout: *timeout, count: *count, goCmd: *goCmd, out: *out, bin: *bin}
	if err := b.run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchshapes:", err)
		os.Exit(1)
	}
}

// plan is what to measure.
type plan struct {
	shapes, forms, commands []string
	sizes                   []int
}

func parsePlan(shapes, sizes, forms, commands string) (plan, error) {
	var p plan
	p.shapes = splitList(shapes)
	for _, s := range splitList(sizes) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return p, fmt.Errorf("-sizes: bad size %q", s)
		}
		p.sizes = append(p.sizes, n)
	}
	slices.Sort(p.sizes)
	p.sizes = slices.Compact(p.sizes)
	p.forms = splitList(forms)
	for _, f := range p.forms {
		if f != "raw" && f != "zstd" {
			return p, fmt.Errorf("-forms: %q: want raw or zstd", f)
		}
	}
	// raw first: its size is the zstd form's RSS base.
	slices.SortFunc(p.forms, func(a, b string) int { return strings.Compare(a, b) })
	p.forms = slices.Compact(p.forms)
	p.commands = splitList(commands)
	for _, c := range p.commands {
		if !slices.Contains(allCommands, c) {
			return p, fmt.Errorf("-commands: %q: want some of %s", c, strings.Join(allCommands, ","))
		}
	}
	if len(p.shapes) == 0 || len(p.sizes) == 0 || len(p.forms) == 0 {
		return p, errors.New("nothing to measure")
	}
	return p, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// bench is one run of the runner.
type bench struct {
	plan
	keep, out, goCmd string
	bin              string // a prebuilt dshtest to measure; empty: build the module's
	seed             int64
	quiet, timeout   time.Duration
	count            int

	root         string // the module's root directory
	scratch      string // built binaries, time's reports, unkept logs
	dshtest, gen string
	self         string // this binary, for the decode pass
	results      []result
	started      time.Time
}

func (b *bench) run() error {
	if err := timev.Available(); err != nil {
		return err
	}
	b.started = time.Now()
	var err error
	if b.self, err = os.Executable(); err != nil {
		return err
	}
	gomod, err := exec.Command(b.goCmd, "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(gomod)) == "" || strings.TrimSpace(string(gomod)) == os.DevNull {
		return fmt.Errorf("run me inside the dshtest module (go env GOMOD: %v)", err)
	}
	b.root = filepath.Dir(strings.TrimSpace(string(gomod)))
	if err := b.build(); err != nil {
		return err
	}
	defer os.RemoveAll(b.scratch)
	if b.keep != "" {
		if err := os.MkdirAll(b.keep, 0o755); err != nil {
			return err
		}
	}
	for _, shape := range b.shapes {
		for _, size := range b.sizes {
			b.measureSize(shape, size)
			if b.out != "" {
				if err := b.write(); err != nil {
					return err
				}
			}
		}
	}
	fmt.Print(b.document())
	if b.out != "" {
		fmt.Fprintln(os.Stderr, "benchshapes: wrote", b.out)
	}
	return nil
}

// build builds dshtest (unless -bin names one) and gen into a scratch
// directory where programs may run: TMPDIR's, or bench/ when TMPDIR is
// mounted noexec.
func (b *bench) build() error {
	var errs []error
	for _, parent := range []string{os.TempDir(), "bench"} {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		dir, err := os.MkdirTemp(parent, "benchshapes-")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if dir, err = filepath.Abs(dir); err != nil {
			return err
		}
		b.scratch = dir
		b.dshtest = filepath.Join(dir, "dshtest")
		b.gen = filepath.Join(dir, "gen")
		if b.bin != "" {
			b.dshtest = b.bin
		} else {
			err = b.goBuild(b.dshtest, "./cmd/dshtest")
		}
		if err == nil {
			err = b.goBuild(b.gen, "./internal/testkit/sessiongen/cmd/gen")
		}
		if err == nil {
			// Can programs run here?
			err = exec.Command(b.dshtest, "--help").Run()
			if err != nil {
				err = fmt.Errorf("%s: cannot run programs built in %s: %w", b.dshtest, parent, err)
			}
		}
		if err == nil {
			return nil
		}
		os.RemoveAll(dir)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (b *bench) goBuild(out, pkg string) error {
	cmd := exec.Command(b.goCmd, "build", "-o", out, pkg)
	cmd.Dir = b.root
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	return nil
}

// env is the commands' environment (timev.Environ), without the
// terminal's (view sets its own).
func (b *bench) env() []string {
	var env []string
	for _, kv := range timev.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TERM", "COLUMNS", "LINES":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// logPath is where the log of shape, size and form lives.
func (b *bench) logPath(shape string, size int, form string) string {
	dir := b.scratch
	if b.keep != "" {
		dir = b.keep
	}
	name := fmt.Sprintf("%s-%d-seed%d.jsonl", shape, size, b.seed)
	if form == "zstd" {
		name += ".zstd"
	}
	return filepath.Join(dir, name)
}

// measureSize measures every form of one shape and size, in rounds: a
// round runs each step (cat, then each command, the decode pass between
// render and repro: runOrder) on each form in turn, the forms in the other
// order every other round, and -count rounds give each cell its runs. So
// a cell's runs are spread over the whole measurement, and the two forms
// of a command, which zstd ÷ raw compares, run side by side: on a shared
// machine, runs made minutes apart differ by more than that ratio's
// margin.
func (b *bench) measureSize(shape string, size int) {
	progress := func(r result) {
		fmt.Fprintf(os.Stderr, "%-8s %8d %-4s %-9s %10s %10s  %s\n", r.Shape, r.Size, r.Form, r.Command,
			formatDuration(r.Wall), formatBytes(r.RSS), r.Outcome)
	}
	type formLog struct {
		base  result
		path  string
		cells map[string]*cell
		gen   *result // set when the log could not be made
	}
	var logs []*formLog
	var raw int64
	for _, form := range b.forms {
		l := &formLog{cells: map[string]*cell{}}
		l.base, l.path, raw, l.gen = b.prepare(shape, size, form, raw)
		if l.gen != nil {
			progress(*l.gen)
		} else if b.keep == "" {
			defer os.Remove(l.path)
		}
		logs = append(logs, l)
	}
	steps := append([]string{"cat", "decode"}, b.commands...)
	rounds := runsFor(b.count, size)
	order := runOrder(steps)
	var count bytes.Buffer
	for round := range rounds {
		// Every other round takes the forms in the other order, so that
		// neither form always runs first (on a cold cache, or second in a
		// burst of the machine's other load).
		forms := slices.Clone(logs)
		if round%2 == 1 {
			slices.Reverse(forms)
		}
		for _, step := range order {
			for _, l := range forms {
				c := l.cells[step]
				if c == nil {
					c = &cell{}
					l.cells[step] = c
				}
				if l.gen != nil || c.failed != nil || c.viewErr != nil {
					continue
				}
				if step == "view" {
					v, err := b.measureView(l.path)
					c.views = append(c.views, v)
					c.viewErr = err
					continue
				}
				var r run
				switch step {
				case "cat":
					r = b.process(exec.Command("cat", l.path), nil)
				case "decode":
					count.Reset()
					r = b.process(exec.Command(b.self, "-decode", l.path), &count)
					if n, err := strconv.Atoi(strings.TrimSpace(count.String())); err == nil {
						l.base.Events = n
					} else if r.err == "" && r.exit == 0 {
						r.err = fmt.Sprintf("decode printed %q", count.String())
					}
				default:
					r = b.process(exec.Command(b.dshtest, commandArgs(step, l.path)...), nil)
				}
				if r.err != "" || r.exit != 0 || r.signal != 0 {
					c.failed = &r
				} else {
					c.runs = append(c.runs, r)
				}
				if round == rounds-1 || c.failed != nil {
					row := l.base
					row.Command = step
					row.set(c.summary())
					progress(row)
				}
			}
		}
	}
	for _, l := range logs {
		if l.gen != nil {
			b.results = append(b.results, *l.gen)
			continue
		}
		for _, step := range steps {
			c := l.cells[step]
			r := l.base
			r.Command = step
			if step != "view" {
				r.set(c.summary())
				r.Walls = c.walls()
				b.results = append(b.results, r)
				continue
			}
			v := c.views[len(c.views)-1] // the failed run, if one failed
			if c.viewErr == nil {
				v = summarizeView(c.views)
			}
			r.Wall, r.RSS, r.Outcome = v.firstScreen, v.rep.MaxRSS, "ok"
			if v.read > 0 {
				r.Note = "whole log read at " + formatDuration(v.read)
			}
			if c.viewErr != nil {
				r.Outcome = "error: " + oneLine(c.viewErr.Error())
			}
			b.results = append(b.results, r)
			progress(r)
			k := l.base
			k.Command = "view keys"
			k.Outcome = r.Outcome
			var notes []string
			for i, d := range v.keys {
				k.Wall = max(k.Wall, d)
				notes = append(notes, viewKeys[i].name+" "+formatDuration(d))
			}
			k.Note = strings.Join(notes, ", ")
			if len(v.keys) < len(viewKeys) && r.Outcome == "ok" {
				k.Outcome = "error: not every key was timed"
			}
			b.results = append(b.results, k)
			progress(k)
		}
	}
}

// runOrder is the order a round runs steps in: the table's, but for the
// decode pass and the commands whose ratios to it are reported (render's
// and repro's are targets), which run side by side where the first of
// those commands would: render right before the decode pass, repro and
// repro-one right after it. On a shared machine, runs made half a minute
// apart (check, render and history of a 1M-event log) differ by more than
// a ratio's margin.
func runOrder(steps []string) []string {
	before, after := []string{"render"}, []string{"repro", "repro-one"}
	ratio := func(s string) bool { return slices.Contains(before, s) || slices.Contains(after, s) }
	if !slices.ContainsFunc(steps, ratio) {
		return steps
	}
	var block []string
	for _, group := range [][]string{before, {"decode"}, after} {
		for _, s := range group {
			if slices.Contains(steps, s) {
				block = append(block, s)
			}
		}
	}
	var order []string
	for _, s := range steps {
		switch {
		case s == "decode":
		case ratio(s):
			if block != nil {
				order, block = append(order, block...), nil
			}
		default:
			order = append(order, s)
		}
	}
	return order
}

// cell is the runs of one step on one form.
type cell struct {
	runs    []run
	views   []viewResult
	failed  *run // the first run that did not exit 0
	viewErr error
}

// summary is a cell's figures: its first failed run, or the median wall
// time and largest peak RSS of its runs.
func (c *cell) summary() run {
	if c.failed != nil {
		return *c.failed
	}
	return summarize(c.runs)
}

// walls are the wall times of c's runs, one a round, or nil if a run
// failed.
func (c *cell) walls() []time.Duration {
	if c.failed != nil {
		return nil
	}
	ws := make([]time.Duration, len(c.runs))
	for i, r := range c.runs {
		ws[i] = r.wall
	}
	return ws
}

// prepare makes the log of one form (or finds it in -keep) and returns its
// cell's base: the file's size and the raw size the RSS budgets are of.
// raw is the raw form's size if it was measured before (0: not yet). gen
// is the row saying why the log could not be made, or nil.
func (b *bench) prepare(shape string, size int, form string, raw int64) (base result, path string, rawOut int64, gen *result) {
	base = result{Shape: shape, Size: size, Form: form}
	path = b.logPath(shape, size, form)
	failed := func(err error) (result, string, int64, *result) {
		r := base
		r.Command, r.Outcome = "gen", "error: "+oneLine(err.Error())
		return base, path, raw, &r
	}
	if err := b.generate(shape, size, form, path); err != nil {
		return failed(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return failed(err)
	}
	base.File = fi.Size()
	switch {
	case form == "raw":
		raw = fi.Size()
	case raw == 0:
		if raw, err = decompressedSize(path); err != nil {
			return failed(err)
		}
	}
	base.Raw = raw
	return base, path, raw, nil
}

// generate writes the log with gen, unless -keep has it already.
func (b *bench) generate(shape string, size int, form, path string) error {
	if b.keep != "" {
		if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
			return nil
		}
	}
	tmp := path + ".tmp"
	args := []string{"-shape", shape, "-n", strconv.Itoa(size), "-seed", strconv.FormatInt(b.seed, 10), "-header", "-o", tmp}
	if form == "zstd" {
		args = append(args, "-zstd")
	}
	cmd := exec.Command(b.gen, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(msg) // gen's own "gen: …"
		}
		return fmt.Errorf("gen: %w", err)
	}
	return os.Rename(tmp, path)
}

// process runs cmd under /usr/bin/time -v, its standard output to stdout
// (nil: /dev/null), and returns its figures, its wall time by the
// runner's clock.
func (b *bench) process(cmd *exec.Cmd, stdout io.Writer) run {
	report := filepath.Join(b.scratch, "time.report")
	os.Remove(report)
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	wrapped := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	timev.Wrap(wrapped, report)
	wrapped.Env = b.env()
	wrapped.Stdout = stdout
	var stderr bytes.Buffer
	wrapped.Stderr = &stderr
	runtime.GC()
	start := time.Now()
	err := wrapped.Run()
	r := run{wall: time.Since(start), stderr: firstLine(stderr.String())}
	if ctx.Err() != nil {
		r.err = fmt.Sprintf("killed after %v", b.timeout)
		return r
	}
	rep, rerr := timev.ReadReport(report)
	var exit *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exit):
		r.err = err.Error()
	case rerr != nil:
		r.err = rerr.Error()
	}
	r.rss, r.exit, r.signal = rep.MaxRSS, rep.ExitStatus, rep.Signal
	return r
}

// decompressedSize is the size of a .jsonl.zstd log's raw form: its
// frames' content, which is the raw file gen writes.
func decompressedSize(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	d, err := zstd.NewReader(f)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	return io.Copy(io.Discard, d)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return oneLine(s)
}

// oneLine keeps an error to one short line of a table cell.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "|", "\\|")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// write writes the document so far to -o.
func (b *bench) write() error {
	if dir := filepath.Dir(b.out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(b.out, []byte(b.document()), 0o644)
}

// document is the Markdown the runner prints: a heading line saying what
// was measured, the cells, the ratios.
func (b *bench) document() string {
	commit, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	var s strings.Builder
	what := "at commit " + strings.TrimSpace(string(commit))
	if b.bin != "" {
		what = "of " + b.bin + " (logs by commit " + strings.TrimSpace(string(commit)) + ")"
	}
	fmt.Fprintf(&s, "bench-shapes %s, %s, %d CPUs; %s; a ratio to a decode pass and zstd ÷ raw the median of the rounds' ratios; seed %d.\n\n",
		what, b.started.UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), runsPhrase(b.count), b.seed)
	s.WriteString(cellTable(b.results))
	s.WriteString("\n")
	s.WriteString(ratioTable(b.results))
	return s.String()
}
