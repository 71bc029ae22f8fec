package memory

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshtest/dshtest/benchmarks/internal/targets"
	"github.com/dshtest/dshtest/benchmarks/internal/timev"
)

// events is the logs' size, in events.
const events = 100000

// shapes are the shapes TestMemory measures: small, and dense, whose
// transcript items per event (and so the heap a projection holds) are
// the highest of the generated shapes.
var shapes = []string{"small", "dense"}

// TestMemory builds dshtest and gen, generates a log of 100k events (with
// upstream's header) of each of shapes, runs check, render, history and
// repro on it, one at a time, as processes under /usr/bin/time -v, and
// fails when a peak RSS is over its budget (targets.RSSBudget: max(2× the
// file, 64 MiB)). It logs every figure, pass or fail.
//
// It is a benchmark, not a unit test: it runs only with DSHTEST_MEMORY=1,
// as make bench-shapes runs it (go test ./benchmarks/memory -run
// TestMemory -count=1 -v), and never with -short. CI's go test ./... skips
// it, so that the suite is neither slowed by a 100k-event repro nor failed
// by a shared machine's figures. It skips without /usr/bin/time.
func TestMemory(t *testing.T) {
	benchmarkOnly(t)
	dir := t.TempDir()
	dshtest := build(t, dir, "dshtest", "github.com/dshtest/dshtest/cmd/dshtest")
	gen := build(t, dir, "gen", "github.com/dshtest/dshtest/internal/testkit/sessiongen/cmd/gen")
	for _, shape := range shapes {
		t.Run(shape, func(t *testing.T) { measure(t, dir, dshtest, gen, shape) })
	}
}

// measure generates the 100k-event log of shape and checks every
// command's peak RSS against its budget.
func measure(t *testing.T, dir, dshtest, gen, shape string) {
	log := filepath.Join(dir, shape+"-100k.jsonl")
	if out, err := exec.Command(gen, "-shape", shape, "-n", strconv.Itoa(events), "-seed", "1", "-header", "-o", log).CombinedOutput(); err != nil {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	fi, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("log: %s shape, about %d events, %.1f MiB", shape, events, mib(fi.Size()))
	for _, command := range []string{"check", "render", "history", "repro"} {
		t.Run(command, func(t *testing.T) {
			budget, _ := targets.RSSBudget(command, fi.Size())
			within(t, dir, dshtest, command, log, budget, fi.Size())
		})
	}
}

// within runs dshtest command on log as a process under /usr/bin/time -v
// and fails when its peak RSS is over budget (or it failed or was killed);
// it logs the figures, with the peak in times base (the raw file, or the
// text).
func within(t *testing.T, dir, dshtest, command, log string, budget, base int64) {
	t.Helper()
	report := filepath.Join(dir, filepath.Base(log)+"-"+command+".time")
	cmd := exec.Command(dshtest, command, log)
	timev.Wrap(cmd, report)
	cmd.Env = timev.Environ()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	rep, rerr := timev.ReadReport(report)
	if rerr != nil {
		t.Fatal(rerr)
	}
	t.Logf("%s: wall %.2f s, peak RSS %.1f MiB (%.2f× %.1f MiB), budget %.1f MiB, exit status %d",
		command, wall.Seconds(), mib(rep.MaxRSS), float64(rep.MaxRSS)/float64(base), mib(base), mib(budget), rep.ExitStatus)
	switch {
	case rep.Signal != 0:
		t.Errorf("%s was killed by signal %d", command, rep.Signal)
	case rep.ExitStatus == 1 && command == "repro":
		// An invariant failed: a verdict on the log, not on its memory.
		t.Logf("repro exit status 1 (an invariant failed): %s", firstLine(stderr.String()))
	case rep.ExitStatus != 0:
		t.Errorf("%s: exit status %d: %s", command, rep.ExitStatus, firstLine(stderr.String()))
	}
	if rep.MaxRSS > budget {
		t.Errorf("%s: peak RSS %.1f MiB is over its budget of %.1f MiB (%.2f× %.1f MiB)",
			command, mib(rep.MaxRSS), mib(budget), float64(rep.MaxRSS)/float64(base), mib(base))
	}
}

// benchmarkOnly skips a memory benchmark unless DSHTEST_MEMORY=1, in
// -short mode, and without /usr/bin/time.
func benchmarkOnly(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a benchmark: not in -short mode")
	}
	if os.Getenv("DSHTEST_MEMORY") != "1" {
		t.Skip("a benchmark: set DSHTEST_MEMORY=1 to run it (make bench-shapes does)")
	}
	if err := timev.Available(); err != nil {
		t.Skipf("no GNU time to read peak RSS with: %v", err)
	}
}

// build builds pkg into dir.
func build(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
