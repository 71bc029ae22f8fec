package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStdinInterrupted: a command reading its log from standard input
// (LOG "-") that is interrupted while the input is still being copied
// exits 130, says so, and leaves no copy in the temporary directory.
func TestStdinInterrupted(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("needs signals and /proc (Linux)")
	}
	work := t.TempDir()
	tmp := filepath.Join(work, "tmp") // the child's TMPDIR
	must(t, os.MkdirAll(tmp, 0o755))
	exe, err := os.Executable()
	must(t, err)
	dshtest := filepath.Join(work, "dshtest") // the test binary is the command when called dshtest
	must(t, os.Symlink(exe, dshtest))
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(dshtest, "check", "-")
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		stdin, err := cmd.StdinPipe()
		must(t, err)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		must(t, cmd.Start())
		// The input stays open: the copy is in progress until the spool
		// appears and the signal lands.
		if _, err := stdin.Write([]byte(strings.Repeat("a", 4096))); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for len(spools(t, tmp)) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%v: no copy of standard input appeared in %s", sig, tmp)
			}
			time.Sleep(5 * time.Millisecond) // waiting on another process's file; no event to wait on
		}
		must(t, cmd.Process.Signal(sig))
		err = cmd.Wait()
		stdin.Close()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 130 {
			t.Fatalf("%v: %v (stderr %q), want exit 130", sig, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "the copy of standard input is removed") {
			t.Errorf("%v: stderr %q does not say the copy was removed", sig, stderr.String())
		}
		if left := spools(t, tmp); len(left) != 0 {
			t.Errorf("%v: left %v in TMPDIR", sig, left)
		}
	}
}

func spools(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	must(t, err)
	var names []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "dshtest-stdin-") {
			names = append(names, e.Name())
		}
	}
	return names
}
