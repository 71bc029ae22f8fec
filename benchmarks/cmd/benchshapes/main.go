// Command benchshapes measures dshtest's commands as processes on
// generated logs of every shape, size and form, and prints the table of
// issue 16's targets (make bench-shapes).
//
//	go run ./benchmarks/cmd/benchshapes
//	go run ./benchmarks/cmd/benchshapes -shapes small,tiny -sizes 10000,100000 -forms raw -keep bench/logs
//
// For every shape × size × form it generates the log with
// internal/sessiongen/cmd/gen -header (raw .jsonl, and .jsonl.zstd), then
// measures, one process at a time:
//
//   - the floor: cat FILE > /dev/null, and one decode pass of the reader
//     alone (benchshapes -decode FILE, which reads the log through
//     sessionlog/reader and prints its event count);
//   - dshtest check, render, history and repro, each under /usr/bin/time -v
//     with its output to /dev/null: wall time, peak RSS and exit status (a
//     repro exiting 1, an invariant failed, is "FAIL" and keeps its
//     figures; any other non-zero exit is an error of the cell);
//   - dshtest view in an 80x24 pseudo-terminal (TERM=xterm-256color), under
//     /usr/bin/time -v: the time to its first screen, then the redraw of
//     each key (Ctrl+O, PgUp, End), then q. A screen is drawn when the
//     output holds the text the screen must show and has then been quiet
//     for -quiet; its time is that of its last byte.
//
// Wall time is the runner's own clock around the process (GNU time's is to
// the centisecond, too coarse for a 10k-event log). The runtime's knobs
// (GOGC, GOMEMLIMIT, GODEBUG) are removed from the commands' environment,
// so each runs with the defaults a user gets. Each figure is the median wall time and the
// largest peak RSS of a few runs: by default 5 on logs of up to 20k events
// (whose times are short and the most disturbed by a shared machine), 3 up
// to 200k, 1 above; -count N runs every process N times.
//
// The Markdown table goes to standard output and to -o (bench/shapes.md):
// every cell, with its target next to it marked ok or MISSED, then the
// ratios (cost per event, largest ÷ smallest size; repro ÷ decode pass;
// zstd ÷ raw). A cell that failed stays in the table with its error, and
// the runner goes on. The exit status is 0 whether targets are missed or
// not, 1 if the runner itself could not run.
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
// are always measured.
var allCommands = []string{"check", "render", "history", "repro", "view"}

func main() {
	shapes := flag.String("shapes", "current,small,tiny,real", "log shapes (internal/sessiongen)")
	sizes := flag.String("sizes", "10000,100000,1000000", "log sizes, in events")
	forms := flag.String("forms", "raw,zstd", "log forms: raw (.jsonl), zstd (.jsonl.zstd)")
	commands := flag.String("commands", strings.Join(allCommands, ","), "dshtest commands to measure")
	keep := flag.String("keep", "", "keep the generated logs in this directory, and reuse those already there")
	out := flag.String("o", "bench/shapes.md", "also write the table to this file (empty: don't)")
	seed := flag.Int64("seed", 1, "generator seed")
	quiet := flag.Duration("quiet", 100*time.Millisecond, "view: a screen is drawn once its output has been quiet this long")
	timeout := flag.Duration("timeout", 15*time.Minute, "the longest one process may run")
	count := flag.Int("count", 0, "run each process this many times, and take the median wall time and the largest peak RSS (0: 5 up to 20k events, 3 up to 200k, 1 above)")
	goCmd := flag.String("go", "go", "the go command that builds dshtest and gen")
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
	b := &bench{plan: p, keep: *keep, seed: *seed, quiet: *quiet, timeout: *timeout, count: *count, goCmd: *goCmd, out: *out}
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
			var raw int64
			for _, form := range b.forms {
				raw = b.measureLog(shape, size, form, raw)
				if b.out != "" {
					if err := b.write(); err != nil {
						return err
					}
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

// build builds dshtest and gen into a scratch directory where programs
// may run: TMPDIR's, or bench/ when TMPDIR is mounted noexec.
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
		err = b.goBuild(b.dshtest, "./cmd/dshtest")
		if err == nil {
			err = b.goBuild(b.gen, "./internal/sessiongen/cmd/gen")
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

// measureLog generates (or reuses) one log and measures every command on
// it. raw is the raw form's size if it was measured before (0: not yet);
// it returns the raw size it used.
func (b *bench) measureLog(shape string, size int, form string, raw int64) int64 {
	base := result{Shape: shape, Size: size, Form: form}
	path := b.logPath(shape, size, form)
	progress := func(r result) {
		b.results = append(b.results, r)
		fmt.Fprintf(os.Stderr, "%-8s %8d %-4s %-9s %10s %10s  %s\n", r.Shape, r.Size, r.Form, r.Command,
			formatDuration(r.Wall), formatBytes(r.RSS), r.Outcome)
	}
	if err := b.generate(shape, size, form, path); err != nil {
		r := base
		r.Command, r.Outcome = "gen", "error: "+oneLine(err.Error())
		progress(r)
		return raw
	}
	if b.keep == "" {
		defer os.Remove(path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		r := base
		r.Command, r.Outcome = "gen", "error: "+oneLine(err.Error())
		progress(r)
		return raw
	}
	base.File = fi.Size()
	switch {
	case form == "raw":
		raw = fi.Size()
	case raw == 0:
		if raw, err = decompressedSize(path); err != nil {
			r := base
			r.Command, r.Outcome = "gen", "error: "+oneLine(err.Error())
			progress(r)
			return raw
		}
	}
	base.Raw = raw

	// The floor.
	r := base
	r.Command = "cat"
	r.set(b.repeat(size, func() run { return b.process(exec.Command("cat", path), nil) }))
	catRow := len(b.results)
	progress(r)
	r = base
	r.Command = "decode"
	var count bytes.Buffer
	r.set(b.repeat(size, func() run {
		count.Reset()
		return b.process(exec.Command(b.self, "-decode", path), &count)
	}))
	if r.Outcome == "ok" {
		n, err := strconv.Atoi(strings.TrimSpace(count.String()))
		if err != nil {
			r.Outcome = fmt.Sprintf("error: decode printed %q", count.String())
		}
		base.Events = n
		r.Events = n
		b.results[catRow].Events = n
	}
	progress(r)

	for _, c := range b.commands {
		r := base
		r.Command = c
		if c == "view" {
			v, err := b.measureViewRepeat(size, path)
			r.Wall, r.RSS, r.Outcome = v.firstScreen, v.rep.MaxRSS, "ok"
			if v.read > 0 {
				r.Note = "whole log read at " + formatDuration(v.read)
			}
			if err != nil {
				r.Outcome = "error: " + oneLine(err.Error())
			}
			progress(r)
			k := base
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
			progress(k)
			continue
		}
		r.set(b.repeat(size, func() run { return b.process(exec.Command(b.dshtest, c, path), nil) }))
		progress(r)
	}
	return raw
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

// repeat runs measure -count times, and returns the median wall time and
// the largest peak RSS, or the first run that did not exit 0.
func (b *bench) repeat(size int, measure func() run) run {
	var runs []run
	for range runsFor(b.count, size) {
		r := measure()
		if r.err != "" || r.exit != 0 || r.signal != 0 {
			return r
		}
		runs = append(runs, r)
	}
	return summarize(runs)
}

// measureViewRepeat measures view -count times: the median of each time,
// the largest peak RSS, or the first error.
func (b *bench) measureViewRepeat(size int, log string) (viewResult, error) {
	var all []viewResult
	for range runsFor(b.count, size) {
		v, err := b.measureView(log)
		if err != nil {
			return v, err
		}
		all = append(all, v)
	}
	return summarizeView(all), nil
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
	fmt.Fprintf(&s, "bench-shapes at commit %s, %s, %d CPUs; %s; seed %d.\n\n",
		strings.TrimSpace(string(commit)), b.started.UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), runsPhrase(b.count), b.seed)
	s.WriteString(cellTable(b.results))
	s.WriteString("\n")
	s.WriteString(ratioTable(b.results))
	return s.String()
}
