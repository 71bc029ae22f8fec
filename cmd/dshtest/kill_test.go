package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/cli"
	"github.com/dshtest/dshtest/internal/ground/safefile"
)

// killScenarios are the scenarios the kill test records: several fixtures
// each, so that a kill can land between two writes.
var killScenarios = []string{"live-session", "tool-visibility-cycle", "reasoning-toggle-compaction", "context-cards"}

// TestRecordKilled kills "dshtest record" with SIGINT and with SIGKILL at
// seeded random points, 20 times, over a checkout whose fixtures are stale
// (some missing, some changed). After each kill every fixture is whole (the
// old or the new file, never a torn one), a SIGINT leaves no temporary file
// or scratch directory, and a second record finishes: the fixtures are the
// recorded ones and nothing of ours is left behind. A SIGINT record's guard
// caught exits 130 and says "record interrupted"; one that killed the
// process landed outside record (while the process started, or after the
// summary), and before it nothing may have been written.
func TestRecordKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the kill test runs record 40 times")
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("needs signals and /proc (Linux)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	tmp := filepath.Join(work, "tmp") // the children's TMPDIR
	bin := filepath.Join(work, "bin")
	for _, d := range []string{filepath.Join(repo, "scenarios"), filepath.Join(repo, "fixtures"), tmp, bin} {
		must(t, os.MkdirAll(d, 0o755))
	}
	// The test binary is the command when called dshtest (TestMain).
	exe, err := os.Executable()
	must(t, err)
	dshtest := filepath.Join(bin, "dshtest")
	must(t, os.Symlink(exe, dshtest))
	copyIn := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(root, rel))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(repo, rel), b, 0o644))
		return b
	}
	copyIn("go.mod")
	golden := map[string][]byte{}
	snap := regexp.MustCompile(`(?m)^snapshot\s+(\S+)`)
	for _, s := range killScenarios {
		b := copyIn(filepath.Join("scenarios", s+".txtar"))
		for _, m := range snap.FindAllSubmatch(b, -1) {
			name := string(m[1]) + ".screen"
			golden[name] = copyIn(filepath.Join("fixtures", name))
		}
	}
	record := func() *exec.Cmd {
		cmd := exec.Command(dshtest, "record")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "CI=")
		cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
		return cmd
	}
	// How long a record takes (the shortest of three, the first being
	// slow on a cold cache): the kills land anywhere in it.
	span := time.Hour
	for i := range 3 {
		staleFixtures(t, repo, golden, rand.New(rand.NewPCG(uint64(i), 0)))
		start := time.Now()
		if cmd := record(); cmd.Run() != nil {
			t.Fatalf("record: %s%s", cmd.Stdout, cmd.Stderr)
		}
		span = min(span, time.Since(start))
	}
	t.Logf("a record takes %v", span.Round(time.Millisecond))

	rng := rand.New(rand.NewPCG(15, 15))
	for i := range 20 {
		sig := syscall.SIGINT
		if i%2 == 1 {
			sig = syscall.SIGKILL
		}
		stale := staleFixtures(t, repo, golden, rng)
		// Anywhere in the run, or (every other pair) near its end, where
		// the fixtures are written.
		delay := time.Duration(rng.Int64N(int64(span) * 11 / 10))
		if i%4 >= 2 {
			delay = span*7/10 + time.Duration(rng.Int64N(int64(span)*35/100))
		}
		cmd := record()
		must(t, cmd.Start())
		time.Sleep(delay)
		_ = cmd.Process.Signal(sig)
		err := cmd.Wait()
		// An exit status (code) and a death by a signal's default action
		// (killedBy) are told apart: record's guard exits 130 itself, and
		// only a signal it did not catch kills the process.
		code, killedBy := 0, syscall.Signal(0)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
			if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
				code, killedBy = -1, st.Signal()
			}
		}
		stderr := strings.TrimSpace(cmd.Stderr.(*bytes.Buffer).String())
		t.Logf("run %d: %v after %v: exit %d, killed by %v: %s", i, sig, delay.Round(time.Millisecond), code, killedBy, stderr)
		switch {
		case killedBy == 0 && code == 0:
		case killedBy == 0 && code == cli.ExitInterrupted && sig == syscall.SIGINT:
			// The guard caught it: every interrupted record says so.
			if !strings.Contains(stderr, "record interrupted") {
				t.Errorf("run %d: SIGINT, exit 130 without saying so: %q", i, stderr)
			}
		case killedBy == syscall.SIGINT && sig == syscall.SIGINT:
			// No guard caught it: it landed before record began (the
			// process was starting) or after record had ended (its
			// summary printed). Before, nothing may have been written.
			finished := regexp.MustCompile(`(?m)^record: \d+ created, `).Match(cmd.Stdout.(*bytes.Buffer).Bytes())
			if !finished {
				checkUntouched(t, i, repo, golden, stale)
			}
		case killedBy == syscall.SIGKILL && sig == syscall.SIGKILL:
		default:
			t.Fatalf("run %d: %v: exit %d, killed by %v: %s%s", i, sig, code, killedBy, cmd.Stdout, cmd.Stderr)
		}
		checkWhole(t, i, repo, golden, stale)
		if sig == syscall.SIGINT {
			checkNoDebris(t, i, repo, tmp)
		}
		cmd = record()
		if err := cmd.Run(); err != nil {
			t.Fatalf("run %d: the second record failed: %v\n%s%s", i, err, cmd.Stdout, cmd.Stderr)
		}
		for name, want := range golden {
			if got, _ := os.ReadFile(filepath.Join(repo, "fixtures", name)); !bytes.Equal(got, want) {
				t.Fatalf("run %d: after the second record fixtures/%s is not the recorded one", i, name)
			}
		}
		checkNoDebris(t, i, repo, tmp)
	}
}

// staleFixtures makes some fixtures stale (removed or changed) and returns
// the stale contents (nil: removed).
func staleFixtures(t *testing.T, repo string, golden map[string][]byte, rng *rand.Rand) map[string][]byte {
	stale := map[string][]byte{}
	for name, b := range golden {
		path := filepath.Join(repo, "fixtures", name)
		switch rng.IntN(3) {
		case 0:
			must(t, os.WriteFile(path, b, 0o644))
		case 1:
			os.Remove(path)
			stale[name] = nil
		case 2:
			old := append(append([]byte{}, b...), "stale\n"...)
			must(t, os.WriteFile(path, old, 0o644))
			stale[name] = old
		}
	}
	return stale
}

// checkWhole: every fixture is the recorded file or its stale state.
func checkWhole(t *testing.T, run int, repo string, golden, stale map[string][]byte) {
	t.Helper()
	for name, want := range golden {
		got, err := os.ReadFile(filepath.Join(repo, "fixtures", name))
		old, wasStale := stale[name]
		switch {
		case err != nil && wasStale && old == nil:
		case err != nil:
			t.Fatalf("run %d: fixtures/%s: %v", run, name, err)
		case bytes.Equal(got, want), wasStale && bytes.Equal(got, old):
		default:
			t.Fatalf("run %d: fixtures/%s is torn (%d bytes)", run, name, len(got))
		}
	}
}

// checkUntouched: every fixture is as staleFixtures left it.
func checkUntouched(t *testing.T, run int, repo string, golden, stale map[string][]byte) {
	t.Helper()
	for name, fresh := range golden {
		got, err := os.ReadFile(filepath.Join(repo, "fixtures", name))
		want, wasStale := stale[name]
		if !wasStale {
			want = fresh
		}
		switch {
		case err != nil && wasStale && want == nil:
		case err != nil:
			t.Fatalf("run %d: fixtures/%s: %v", run, name, err)
		case want == nil:
			t.Fatalf("run %d: fixtures/%s was written by a record killed before it began", run, name)
		case !bytes.Equal(got, want):
			t.Fatalf("run %d: fixtures/%s changed under a record killed before it began", run, name)
		}
	}
}

// checkNoDebris: no temporary file of ours in the checkout, no scratch
// directory in TMPDIR.
func checkNoDebris(t *testing.T, run int, repo, tmp string) {
	t.Helper()
	for _, d := range []string{"fixtures", "scenarios"} {
		entries, _ := os.ReadDir(filepath.Join(repo, d))
		for _, e := range entries {
			if _, ok := safefile.TempOwner(e.Name()); ok {
				t.Fatalf("run %d: left behind: %s/%s", run, d, e.Name())
			}
		}
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		t.Fatalf("run %d: left behind in TMPDIR: %s", run, e.Name())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
