package harness_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/dshtest/dshtest/harness"
)

// TestShardPartition: for every n, each name falls in exactly one shard,
// and a name's shard does not depend on the other names.
func TestShardPartition(t *testing.T) {
	var names []string
	for i := range 50 {
		names = append(names, fmt.Sprintf("scenario-%d", i))
	}
	for n := 1; n <= 7; n++ {
		counts := map[int]int{}
		for _, name := range names {
			s := harness.ShardOf(name, n)
			if s < 1 || s > n {
				t.Fatalf("harness.ShardOf(%q, %d) = %d", name, n, s)
			}
			counts[s]++
		}
		total := 0
		for _, c := range counts {
			total += c
		}
		if total != len(names) {
			t.Errorf("n=%d: %d names in shards, want %d", n, total, len(names))
		}
		if n > 1 && len(counts) < 2 {
			t.Errorf("n=%d: every name in one shard", n)
		}
	}
	// Pinned: a scenario keeps its shard across releases (FNV-1a).
	if got := harness.ShardOf("surface-compaction-live", 4); got != 4 {
		t.Errorf("harness.ShardOf(surface-compaction-live, 4) = %d, want 4", got)
	}
}

// TestRunSuite: RunSuite gives each scenario its verdict and located
// failures, tells Started and Finished of each in order, runs the closed
// inventory on a full run only, and starts no scenario once Stopping says
// so.
func TestRunSuite(t *testing.T) {
	scenarios := map[string]string{
		"good":    "user 'Hello'\nmount 30 6\nsnapshot good-a\n",
		"other":   "user 'Other'\nmount 30 6\n[!windows] snapshot other-a\n",
		"broken":  "user 'x'\n\nno-such-verb\n",
		"skipped": "skip 'not today'\n",
	}
	type verdicts map[string]string
	for _, tc := range []struct {
		name     string
		prepare  func(t *testing.T, scen, fix string) // after the fixtures are recorded
		only     []string
		stopping bool
		want     verdicts
		failures map[string][]harness.Failure
		// inventory is how many inventory errors; complete whether the
		// run was complete.
		inventory int
		complete  bool
	}{
		{
			name:     "as recorded",
			want:     verdicts{"broken": "fail", "good": "pass", "other": "pass", "skipped": "skip"},
			failures: map[string][]harness.Failure{"broken": {{File: "scenarios/broken.txtar", Line: 3, Message: "unknown command \"no-such-verb\""}}},
		},
		{
			name: "a changed screen under a condition",
			prepare: func(t *testing.T, scen, fix string) {
				writeFile(t, filepath.Join(scen, "other.txtar"), strings.Replace(scenarios["other"], "Other", "Changed", 1))
			},
			only: []string{"other"},
			want: verdicts{"other": "fail"},
			failures: map[string][]harness.Failure{"other": {{File: "scenarios/other.txtar", Line: 3, Fixture: "fixtures/other-a.screen",
				Message: "fixtures/other-a.screen: the screen differs from the recorded fixture; new screen in fixtures/other-a.screen.new; to decide: dshtest review other-a, dshtest accept other-a or dshtest reject other-a",
				Pending: "fixtures/other-a.screen.new"}}},
		},
		{
			name: "a missing fixture and an orphan",
			prepare: func(t *testing.T, scen, fix string) {
				if err := os.Rename(filepath.Join(fix, "good-a.screen"), filepath.Join(fix, "orphan.screen")); err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(filepath.Join(scen, "broken.txtar")); err != nil {
					t.Fatal(err)
				}
			},
			want: verdicts{"good": "fail", "other": "pass", "skipped": "skip"},
			failures: map[string][]harness.Failure{"good": {{File: "scenarios/good.txtar", Line: 3, Fixture: "fixtures/good-a.screen",
				Message: "fixtures/good-a.screen: missing; new screen in fixtures/good-a.screen.new; to decide: dshtest review good-a, dshtest accept good-a or dshtest reject good-a",
				Pending: "fixtures/good-a.screen.new"}}},
		},
		{
			name: "every scenario passes",
			prepare: func(t *testing.T, scen, fix string) {
				for _, n := range []string{"broken", "skipped"} {
					if err := os.Remove(filepath.Join(scen, n+".txtar")); err != nil {
						t.Fatal(err)
					}
				}
			},
			want:     verdicts{"good": "pass", "other": "pass"},
			complete: true,
		},
		{
			name: "an orphan on a complete run",
			prepare: func(t *testing.T, scen, fix string) {
				for _, n := range []string{"broken", "skipped"} {
					if err := os.Remove(filepath.Join(scen, n+".txtar")); err != nil {
						t.Fatal(err)
					}
				}
				writeFile(t, filepath.Join(fix, "orphan.screen"), "x\n")
			},
			want:      verdicts{"good": "pass", "other": "pass"},
			inventory: 1,
			complete:  true,
		},
		{
			name:     "stopping",
			stopping: true,
			want:     verdicts{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			scen, fix := filepath.Join(root, "scenarios"), filepath.Join(root, "fixtures")
			for n, src := range scenarios {
				writeFile(t, filepath.Join(scen, n+".txtar"), src)
			}
			rec := harness.RunSuite(harness.Config{ScenarioDir: scen, FixtureDir: fix, Update: true, Scenarios: []string{"good", "other"}})
			if rec.Failed() || len(rec.Recorded) != 2 {
				t.Fatalf("recording: %+v", rec)
			}
			if tc.prepare != nil {
				tc.prepare(t, scen, fix)
			}
			var started, finished []string
			cfg := harness.Config{ScenarioDir: scen, FixtureDir: fix, PendingDir: fix, Scenarios: tc.only,
				Started:  func(name string, i, n int) { started = append(started, fmt.Sprintf("%d/%d %s", i, n, name)) },
				Finished: func(o harness.Outcome, i, n int) { finished = append(finished, fmt.Sprintf("%d/%d %s", i, n, o.Name)) },
				Stopping: func() bool { return tc.stopping },
			}
			res := harness.RunSuite(cfg)
			got := verdicts{}
			failures := map[string][]harness.Failure{}
			for _, o := range res.Outcomes {
				got[o.Name] = o.Status
				for i := range o.Failures {
					o.Failures[i].Diff = "" // the line diff is the fixture store's
				}
				if o.Failures != nil {
					failures[o.Name] = o.Failures
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.failures, failures, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
			if len(res.Inventory) != tc.inventory || res.Complete != tc.complete {
				t.Errorf("inventory %q, complete %v; want %d errors, complete %v", res.Inventory, res.Complete, tc.inventory, tc.complete)
			}
			if diff := cmp.Diff(started, finished); diff != "" || len(started) != len(tc.want) {
				t.Errorf("started %q, finished %q", started, finished)
			}
			_, fail, _ := res.Counts()
			if res.Failed() != (fail > 0 || tc.inventory > 0) {
				t.Errorf("Failed() = %v with %d failed and %d inventory errors", res.Failed(), fail, len(res.Inventory))
			}
		})
	}
}

// TestSelectScenarios: a pattern and a shard select among the scenarios,
// and say whether that is all of them.
func TestSelectScenarios(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"alpha", "beta", "gamma"} {
		writeFile(t, filepath.Join(dir, n+".txtar"), "\n")
	}
	for _, tc := range []struct {
		pattern string
		i, n    int
		want    []string
		all     bool
	}{
		{"", 1, 1, []string{"alpha", "beta", "gamma"}, true},
		{"^[ag]", 1, 1, []string{"alpha", "gamma"}, false},
		{"^zz", 1, 1, nil, false},
	} {
		var re *regexp.Regexp
		if tc.pattern != "" {
			re = regexp.MustCompile(tc.pattern)
		}
		got, all, err := harness.SelectScenarios(dir, re, tc.i, tc.n)
		if err != nil || all != tc.all || !cmp.Equal(got, tc.want) {
			t.Errorf("SelectScenarios(%q, %d/%d) = %q, %v, %v; want %q, %v", tc.pattern, tc.i, tc.n, got, all, err, tc.want, tc.all)
		}
	}
	// The shards partition the scenarios.
	var union []string
	for i := 1; i <= 3; i++ {
		got, _, _ := harness.SelectScenarios(dir, nil, i, 3)
		union = append(union, got...)
	}
	sort.Strings(union)
	if !cmp.Equal(union, []string{"alpha", "beta", "gamma"}) {
		t.Errorf("shards of 3 hold %q", union)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"", 1, 1, true},
		{"1/1", 1, 1, true},
		{"2/4", 2, 4, true},
		{"0/4", 0, 0, false},
		{"5/4", 0, 0, false},
		{"1/0", 0, 0, false},
		{"x/2", 0, 0, false},
		{"2", 0, 0, false},
	}
	for _, tt := range tests {
		i, n, ok := harness.ParseShard(tt.in)
		if ok != tt.ok || i != tt.i || n != tt.n {
			t.Errorf("ParseShard(%q) = %d, %d, %v", tt.in, i, n, ok)
		}
	}
}
