package cli

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

	"github.com/dshtest/dshtest/harness"
)

// This file runs the scenario suite outside go test: it implements
// testscript.T so that harness.NewSuite's parameters run under testscript
// exactly as they do under TestScenarios, and collects one outcome per
// scenario.

// outcome is one scenario's verdict.
type outcome struct {
	Name    string        `json:"scenario"`
	Status  string        `json:"status"` // "pass", "fail" or "skip"
	Elapsed time.Duration `json:"-"`
	Seconds float64       `json:"seconds"`
	Output  string        `json:"output,omitempty"`
	// Mismatches are the scenario's snapshots that differed from their
	// fixtures (or had none).
	Mismatches []harness.Mismatch `json:"-"`
	// Failures are the scenario's failures, each with its file and line
	// (and fixture and diff for a snapshot), for CI reports.
	Failures []failure `json:"failures,omitempty"`
}

// suiteRun configures one run of the suite.
type suiteRun struct {
	cfg     harness.Config
	verbose bool
	// started is called before a scenario runs, finished after.
	started  func(name string, i, n int)
	finished func(o outcome, i, n int)
}

// suiteResult is a whole run.
type suiteResult struct {
	Outcomes  []outcome
	Inventory []string // closed-inventory errors (full runs only)
	Complete  bool     // every scenario ran and passed
	Setup     string   // a failure before any scenario ran
	Elapsed   time.Duration
	Recorded  []string // fixture names snapshotted
	// Invariants are the failed invariants steps.
	Invariants []harness.InvariantFailure
}

func (r *suiteResult) counts() (pass, fail, skip int) {
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

// failed reports whether the run failed: a scenario, the inventory, or
// the setup.
func (r *suiteResult) failed() bool {
	_, fail, _ := r.counts()
	return fail > 0 || len(r.Inventory) > 0 || r.Setup != ""
}

// selectScenarios returns the names of dir's scenarios that match pattern
// (an unanchored regular expression, as go test -run takes) and fall in
// shard (i/n, 1-based; "" for all), and whether that is all of them.
func selectScenarios(dir, pattern, shard string) (names []string, all bool, err error) {
	every, err := harness.ScenarioNames(dir)
	if err != nil {
		return nil, false, err
	}
	var re *regexp.Regexp
	if pattern != "" {
		if re, err = regexp.Compile(pattern); err != nil {
			return nil, false, usagef("pattern %q: %v", pattern, err)
		}
	}
	si, sn, err := parseShard(shard)
	if err != nil {
		return nil, false, err
	}
	for _, name := range every {
		if re != nil && !re.MatchString(name) {
			continue
		}
		if sn > 1 && shardOf(name, sn) != si {
			continue
		}
		names = append(names, name)
	}
	return names, len(names) == len(every), nil
}

// parseShard parses "i/n" with 1 ≤ i ≤ n; "" is 1/1.
func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err1 := strconv.Atoi(a)
		n, err2 := strconv.Atoi(b)
		if err1 == nil && err2 == nil && n >= 1 && i >= 1 && i <= n {
			return i, n, nil
		}
	}
	return 0, 0, usagef("--shard %q: want i/n with 1 ≤ i ≤ n, e.g. 2/4", s)
}

// shardOf is the 1-based shard of a scenario name among n: a hash of the
// name, so a scenario stays in its shard when others are added or removed.
func shardOf(name string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(n)) + 1
}

// runSuite runs cfg's scenarios under testscript with a scenarioT per
// scenario, sequentially, and then the closed-inventory check.
func runSuite(r suiteRun) *suiteResult {
	start := time.Now()
	res := &suiteResult{}
	s := harness.NewSuite(r.cfg)
	total := len(r.cfg.Scenarios)
	if total == 0 {
		if names, err := harness.ScenarioNames(r.cfg.ScenarioDir); err == nil {
			total = len(names)
		}
	}
	top := &suiteT{run: r, res: res, total: total, suite: s}
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
	return res
}

// suiteT is the top-level testscript.T: testscript calls its Run once per
// scenario.
type suiteT struct {
	suite *harness.Suite
	run   suiteRun
	res   *suiteResult
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
func (t *suiteT) Verbose() bool { return t.run.verbose }

// Run runs one scenario to completion in its own goroutine (so that
// FailNow can end it) and records its outcome.
func (t *suiteT) Run(name string, f func(testscript.T)) {
	if !scenarioMayStart() {
		return // an interrupt is ending the process
	}
	i := len(t.res.Outcomes) + 1
	if t.run.started != nil {
		t.run.started(name, i, t.total)
	}
	st := &scenarioT{verbose: t.run.verbose}
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
	o := outcome{Name: name, Status: "pass", Elapsed: time.Since(start)}
	o.Seconds = float64(o.Elapsed.Milliseconds()) / 1000
	st.mu.Lock()
	switch {
	case st.failed:
		o.Status = "fail"
		o.Output = strings.TrimRight(st.log.String(), "\n")
	case st.skipped:
		o.Status = "skip"
		o.Output = strings.TrimRight(st.log.String(), "\n")
	case t.run.verbose:
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
	if base := filepath.Dir(t.run.cfg.ScenarioDir); base != "." {
		o.Output = strings.ReplaceAll(o.Output, base+string(filepath.Separator), "")
	}
	if o.Status == "fail" {
		o.Failures = failuresOf(o)
	}
	t.res.Outcomes = append(t.res.Outcomes, o)
	if t.run.finished != nil {
		t.run.finished(o, i, t.total)
	}
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

// Failed reports whether the scenario has failed; the harness reads it in
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
