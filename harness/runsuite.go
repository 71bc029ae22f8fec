package harness

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// This file runs the suite outside go test: RunSuite implements
// testscript.T, so that the suite's parameters run under testscript exactly
// as they do under Run, and collects one outcome per scenario.

// Outcome is one scenario's verdict in a RunSuite run; its JSON form is a
// line of dshtest run --json.
type Outcome struct {
	Name    string        `json:"scenario"`
	Status  string        `json:"status"` // "pass", "fail" or "skip"
	Elapsed time.Duration `json:"-"`
	Seconds float64       `json:"seconds"`
	Output  string        `json:"output,omitempty"`
	// Mismatches are the scenario's snapshots that differed from their
	// fixtures (or had none).
	Mismatches []Mismatch `json:"-"`
	// Failures are the scenario's failures, each with its file and line
	// (and fixture and diff for a snapshot), for CI reports.
	Failures []Failure `json:"failures,omitempty"`
}

// Failure is one failure of a scenario, located.
type Failure struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Fixture string `json:"fixture,omitempty"`
	Message string `json:"message"`
	Diff    string `json:"diff,omitempty"`
	Pending string `json:"pending,omitempty"`
}

// Result is a whole RunSuite run.
type Result struct {
	Outcomes  []Outcome
	Inventory []string // closed-inventory errors
	Complete  bool     // every scenario ran and passed
	Setup     string   // a failure before any scenario ran
	Elapsed   time.Duration
	Recorded  []string // fixture names snapshotted
	// Invariants are the failed invariants steps.
	Invariants []InvariantFailure
}

// Counts counts the outcomes by status.
func (r *Result) Counts() (pass, fail, skip int) {
	for _, o := range r.Outcomes {
		switch o.Status {
		case "pass":
			pass++
		case "fail":
			fail++
		default:
			skip++
		}
	}
	return
}

// Failed reports whether the run failed: a scenario, the inventory, or
// the setup.
func (r *Result) Failed() bool {
	_, fail, _ := r.Counts()
	return fail > 0 || len(r.Inventory) > 0 || r.Setup != ""
}

// FailedScenarios names the scenarios that failed, and "setup" when the
// setup did.
func (r *Result) FailedScenarios() []string {
	var out []string
	for _, o := range r.Outcomes {
		if o.Status == "fail" {
			out = append(out, o.Name)
		}
	}
	if r.Setup != "" {
		out = append(out, "setup")
	}
	return out
}

// SelectScenarios returns the names of dir's scenarios that pattern
// matches (nil for all) and that fall in shard i of n (1-based, ShardOf),
// and whether that is all of them.
func SelectScenarios(dir string, pattern *regexp.Regexp, i, n int) (names []string, all bool, err error) {
	every, err := ScenarioNames(dir)
	if err != nil {
		return nil, false, err
	}
	for _, name := range every {
		if pattern != nil && !pattern.MatchString(name) {
			continue
		}
		if n > 1 && ShardOf(name, n) != i {
			continue
		}
		names = append(names, name)
	}
	return names, len(names) == len(every), nil
}

// ParseShard parses a shard "i/n", 1 ≤ i ≤ n; "" is 1/1.
func ParseShard(s string) (i, n int, ok bool) {
	if s == "" {
		return 1, 1, true
	}
	a, b, _ := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, false
	}
	return i, n, true
}

// ShardOf is the 1-based shard of a scenario name among n: a hash of the
// name, so a scenario stays in its shard when others are added or removed.
func ShardOf(name string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(n)) + 1
}

// RunSuite runs cfg's scenarios under testscript, one after another, and
// then the closed-inventory check. Config.Started and Config.Finished are
// told of each scenario; Config.Stopping ends the run between scenarios.
func RunSuite(cfg Config) Result {
	start := time.Now()
	res := &Result{}
	s := NewSuite(cfg)
	total := len(cfg.Scenarios)
	if total == 0 {
		if names, err := ScenarioNames(cfg.ScenarioDir); err == nil {
			total = len(names)
		}
	}
	top := &suiteT{cfg: cfg, res: res, total: total, suite: s}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				res.Setup = fmt.Sprintf("panic: %v", p)
			}
		}()
		testscript.RunT(top, s.Params())
	}()
	<-done
	if top.fatal != "" {
		res.Setup = top.fatal
	}
	for _, err := range s.Inventory() {
		res.Inventory = append(res.Inventory, err.Error())
	}
	res.Complete = s.Complete()
	res.Recorded = s.Recorded()
	res.Invariants = s.InvariantFailures()
	res.Elapsed = time.Since(start)
	return *res
}

// suiteT is the top-level testscript.T: testscript calls its Run once per
// scenario.
type suiteT struct {
	suite *Suite
	cfg   Config
	res   *Result
	total int
	mu    sync.Mutex
	logs  bytes.Buffer
	fatal string
}

func (t *suiteT) Skip(args ...any)  { t.Log(args...); runtime.Goexit() }
func (t *suiteT) Fatal(args ...any) { t.fatal = fmt.Sprint(args...); runtime.Goexit() }
func (t *suiteT) Parallel()         {}
func (t *suiteT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.logs, args...)
}
func (t *suiteT) FailNow()      { t.fatal = "failed"; runtime.Goexit() }
func (t *suiteT) Verbose() bool { return t.cfg.Verbose }

// Run runs one scenario to completion in its own goroutine (so that
// FailNow can end it) and records its outcome.
func (t *suiteT) Run(name string, f func(testscript.T)) {
	if t.cfg.Stopping != nil && t.cfg.Stopping() {
		return // the run is being ended
	}
	i := len(t.res.Outcomes) + 1
	if t.cfg.Started != nil {
		t.cfg.Started(name, i, t.total)
	}
	st := &scenarioT{verbose: t.cfg.Verbose}
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				st.mu.Lock()
				st.failed = true
				fmt.Fprintf(&st.log, "panic: %v\n", p)
				st.mu.Unlock()
			}
		}()
		f(st)
	}()
	<-done
	o := Outcome{Name: name, Status: "pass", Elapsed: time.Since(start)}
	o.Seconds = float64(o.Elapsed.Milliseconds()) / 1000
	st.mu.Lock()
	switch {
	case st.failed:
		o.Status = "fail"
		o.Output = strings.TrimRight(st.log.String(), "\n")
	case st.skipped:
		o.Status = "skip"
		o.Output = strings.TrimRight(st.log.String(), "\n")
	case t.cfg.Verbose:
		o.Output = strings.TrimRight(st.log.String(), "\n")
	}
	st.mu.Unlock()
	for _, m := range t.suite.Mismatches() {
		if m.Scenario == name {
			o.Mismatches = append(o.Mismatches, m)
		}
	}
	if o.Status == "fail" && len(o.Mismatches) > 0 && strings.HasSuffix(o.Output, "\nPASS") {
		// Nothing failed but the snapshots: their messages are the whole
		// story, without the script's passing log.
		var msgs []string
		for _, m := range o.Mismatches {
			msgs = append(msgs, "FAIL: "+m.Message())
		}
		o.Output = strings.Join(msgs, "\n")
	}
	// Name the user's files relative to the folder, never by a scratch
	// or absolute path.
	if base := filepath.Dir(t.cfg.ScenarioDir); base != "." {
		o.Output = strings.ReplaceAll(o.Output, base+string(filepath.Separator), "")
	}
	if o.Status == "fail" {
		o.Failures = failuresOf(o, t.suite.scenarioFile(name))
	}
	t.res.Outcomes = append(t.res.Outcomes, o)
	if t.cfg.Finished != nil {
		t.cfg.Finished(o, i, t.total)
	}
}

// failLine is testscript's failure line: "FAIL: FILE:LINE: MESSAGE".
var failLine = regexp.MustCompile(`(?m)^FAIL: ([^:\n]+\.txtar):(\d+): (.*)$`)

// failuresOf locates an outcome's failures: one per snapshot mismatch, and
// one per other failing step of its log; file names the scenario when no
// step is named.
func failuresOf(o Outcome, file string) []Failure {
	var out []Failure
	for _, m := range o.Mismatches {
		msg := m.Fixture + ": the screen differs from the recorded fixture"
		if m.Missing {
			msg = m.Fixture + ": missing"
		}
		out = append(out, Failure{File: m.File, Line: m.Line, Fixture: m.Fixture,
			Message: msg + "; " + m.Hint(), Diff: m.Diff, Pending: m.Pending})
	}
	for _, sm := range failLine.FindAllStringSubmatch(o.Output, -1) {
		if isMismatchLine(sm[3], o) {
			continue
		}
		n, _ := strconv.Atoi(sm[2])
		out = append(out, Failure{File: sm[1], Line: n, Message: sm[3]})
	}
	if len(out) == 0 {
		msg, _, _ := strings.Cut(strings.TrimSpace(o.Output), "\n")
		if msg == "" {
			msg = "failed"
		}
		out = append(out, Failure{File: file, Message: msg})
	}
	return out
}

func isMismatchLine(msg string, o Outcome) bool {
	for _, m := range o.Mismatches {
		if strings.HasPrefix(msg, m.Fixture+": ") {
			return true
		}
	}
	return false
}

// scenarioT is one scenario's testscript.T.
type scenarioT struct {
	verbose bool
	mu      sync.Mutex
	log     bytes.Buffer
	failed  bool
	skipped bool
}

func (t *scenarioT) Skip(args ...any) {
	t.Log(args...)
	t.mu.Lock()
	t.skipped = true
	t.mu.Unlock()
	runtime.Goexit()
}

func (t *scenarioT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}

func (t *scenarioT) Parallel() {}

func (t *scenarioT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.log, args...)
}

func (t *scenarioT) FailNow() {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
	runtime.Goexit()
}

func (t *scenarioT) Verbose() bool { return t.verbose }

// Failed reports whether the scenario has failed; the suite reads it in
// its deferred bookkeeping.
func (t *scenarioT) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

// Run runs a nested test inline; testscript does not nest, but the
// interface asks for it.
func (t *scenarioT) Run(name string, f func(testscript.T)) {
	sub := &scenarioT{verbose: t.verbose}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(sub)
	}()
	<-done
	t.mu.Lock()
	defer t.mu.Unlock()
	t.log.Write(sub.log.Bytes())
	if sub.failed {
		t.failed = true
	}
}
