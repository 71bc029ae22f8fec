package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
)

// TestViewStdin runs "dshtest view -" as a user pipes a log into it
// (zstd -dc … | dshtest view - reads the same): the log, compressed as the
// zstd command compresses a file, on standard input; standard output a
// pseudo-terminal that is the process's controlling terminal. view draws
// the transcript (read from the terminal's decoded cells, never its bytes)
// and quits on q, a key it can only have read from the terminal, since
// standard input is the log, once it has ignored a control sequence of
// forty parameters.
func TestViewStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs view in a pseudo-terminal")
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	tty.Close()
	ptmx.Close()

	// The log of the stdin_zstd script.
	ar, err := txtar.ParseFile(filepath.Join("testdata", "script", "stdin_zstd.txtar"))
	must(t, err)
	var plain []byte
	for _, f := range ar.Files {
		if f.Name == "s.jsonl" {
			plain = f.Data
		}
	}
	if plain == nil {
		t.Fatal("stdin_zstd.txtar has no s.jsonl")
	}
	work := t.TempDir()
	logPath := filepath.Join(work, "s.jsonl.zst")
	must(t, os.WriteFile(logPath, logforms.ZstdWhole(t, plain), 0o644))
	log, err := os.Open(logPath)
	must(t, err)
	defer log.Close()

	// The test binary is the command when called dshtest (TestMain).
	exe, err := os.Executable()
	must(t, err)
	dshtest := filepath.Join(work, "dshtest")
	must(t, os.Symlink(exe, dshtest))
	cmd := exec.Command(dshtest, "view", "-")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLUMNS=80", "LINES=24", "TMPDIR="+work)
	cmd.Stdin = log
	// Standard output and error are the terminal (fd 1 its controlling
	// terminal, so that /dev/tty opens it); standard input stays the log.
	term, err := pty.StartWithAttrs(cmd, &pty.Winsize{Cols: 80, Rows: 24}, &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1})
	must(t, err)
	defer term.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	em := vt.NewEmulator(80, 24)
	drained := make(chan struct{})
	go func() { io.Copy(io.Discard, em); close(drained) }() // the emulator's answers: view gets none
	defer func() {
		if pw, ok := em.InputPipe().(io.Closer); ok {
			pw.Close()
			<-drained
			em.Close()
		}
	}()
	out := make(chan []byte, 256)
	go func() {
		defer close(out)
		buf := make([]byte, 32<<10)
		for {
			n, err := term.Read(buf)
			if n > 0 {
				out <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	const timeout = 2 * time.Minute // a loaded machine: the bound of a hang, not a speed
	await := func(what string, shown func(string) bool) {
		t.Helper()
		deadline := time.After(timeout)
		for !shown(em.String()) {
			select {
			case b, ok := <-out:
				if !ok {
					t.Fatalf("the terminal closed before %s; screen:\n%s", what, em.String())
				}
				em.Write(b)
			case <-deadline:
				cmd.Process.Kill()
				t.Fatalf("no %s after %v; screen:\n%s", what, timeout, em.String())
			}
		}
	}
	await("transcript", func(s string) bool {
		return strings.Contains(s, "Hello there") && strings.Contains(s, "Hi.")
	})
	// A control sequence of more parameters than the terminal library's
	// parser holds (x/ansi before v0.11.10 panicked on the 33rd) is
	// ignored, as any key view does not know.
	_, err = term.WriteString("\x1b[" + strings.Repeat("1;", 40) + "1m")
	must(t, err)
	_, err = term.WriteString("q")
	must(t, err)
	go func() {
		for range out { // until the terminal closes
		}
	}()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("view - exited with %d; screen:\n%s", ee.ExitCode(), em.String())
		}
		must(t, err)
	case <-time.After(timeout):
		cmd.Process.Kill()
		t.Fatalf("view - still running %v after q", timeout)
	}
	if left, _ := filepath.Glob(filepath.Join(work, "dshtest-stdin-*")); len(left) > 0 {
		t.Errorf("the copy of standard input is left behind: %v", left)
	}
}
