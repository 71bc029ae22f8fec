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
// (LOG "-") that is interrupted or hung up on while the input is still
// being copied exits 130, says so, and leaves no copy in the temporary
// directory.
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
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
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

// TestStdinBrokenPipe: a command reading standard input whose output's
// reader goes away (dshtest render - | head -1) ends as SIGPIPE would end
// it, exit 141, and leaves no copy in the temporary directory.
func TestStdinBrokenPipe(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("needs signals and /proc (Linux)")
	}
	work := t.TempDir()
	tmp := filepath.Join(work, "tmp")
	must(t, os.MkdirAll(tmp, 0o755))
	exe, err := os.Executable()
	must(t, err)
	dshtest := filepath.Join(work, "dshtest")
	must(t, os.Symlink(exe, dshtest))
	log, err := os.ReadFile(filepath.Join("..", "..", "docs", "spec", "example-session.jsonl"))
	must(t, err)
	cmd := exec.Command(dshtest, "render", "-", "--format", "text")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.Stdin = bytes.NewReader(log)
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	out.Close() // the reader goes away before the first row is written
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 141 {
		t.Fatalf("%v, want exit 141", err)
	}
	if left := spools(t, tmp); len(left) != 0 {
		t.Errorf("left %v in TMPDIR", left)
	}
}
