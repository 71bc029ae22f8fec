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
// (zstd -dc … | dshtest view - reads the same) and quits on q, a key it can
// only have read from the terminal, since standard input is the log, once
// it has ignored a control sequence of forty parameters.
func TestViewStdin(t *testing.T) {
	v := startViewStdin(t)
	// A control sequence of more parameters than the terminal library's
	// parser holds (x/ansi before v0.11.10 panicked on the 33rd) is
	// ignored, as any key view does not know.
	_, err := v.term.WriteString("\x1b[" + strings.Repeat("1;", 40) + "1m")
	must(t, err)
	_, err = v.term.WriteString("q")
	must(t, err)
	if code := v.exit(); code != 0 {
		t.Fatalf("view - exited with %d; screen:\n%s", code, v.em.String())
	}
}

// TestViewStdinSignals: SIGINT, SIGTERM and SIGHUP end view as q does, the
// terminal restored (the alternate screen left), with exit 130 and the copy
// of standard input removed. SIGHUP had ended the process where it stood,
// and SIGTERM exited 0.
func TestViewStdinSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			v := startViewStdin(t)
			must(t, v.cmd.Process.Signal(sig))
			if code := v.exit(); code != 130 {
				t.Fatalf("view - exited with %d after %v, want 130", code, sig)
			}
			if !strings.Contains(string(v.raw), "\x1b[?1049l") {
				t.Errorf("after %v the alternate screen was not left", sig)
			}
		})
	}
}

// viewStdin is "dshtest view -" running in a pseudo-terminal, its first
// screen drawn.
type viewStdin struct {
	t     *testing.T
	cmd   *exec.Cmd
	term  *os.File
	em    *vt.Emulator
	work  string
	out   chan []byte
	raw   []byte // every byte view wrote, once exit returns
	ended chan error
}

// startViewStdin starts view - on the log of the stdin_zstd script,
// compressed as the zstd command compresses a file, on standard input;
// standard output a pseudo-terminal that is the process's controlling
// terminal. It returns once the transcript is drawn (read from the
// terminal's decoded cells, never its bytes).
func startViewStdin(t *testing.T) *viewStdin {
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
	t.Cleanup(func() { log.Close() })

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
	t.Cleanup(func() { term.Close() })
	v := &viewStdin{t: t, cmd: cmd, term: term, em: vt.NewEmulator(80, 24), work: work, out: make(chan []byte, 256), ended: make(chan error, 1)}
	go func() { v.ended <- cmd.Wait() }()
	drained := make(chan struct{})
	go func() { io.Copy(io.Discard, v.em); close(drained) }() // the emulator's answers: view gets none
	t.Cleanup(func() {
		if pw, ok := v.em.InputPipe().(io.Closer); ok {
			pw.Close()
			<-drained
			v.em.Close()
		}
	})
	go func() {
		defer close(v.out)
		buf := make([]byte, 32<<10)
		for {
			n, err := term.Read(buf)
			if n > 0 {
				v.out <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.After(viewTimeout)
	for s := v.em.String(); !strings.Contains(s, "Hello there") || !strings.Contains(s, "Hi."); s = v.em.String() {
		select {
		case b, ok := <-v.out:
			if !ok {
				t.Fatalf("the terminal closed before the transcript; screen:\n%s", v.em.String())
			}
			v.raw = append(v.raw, b...)
			v.em.Write(b)
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("no transcript after %v; screen:\n%s", viewTimeout, v.em.String())
		}
	}
	return v
}

// viewTimeout bounds a hang on a loaded machine, not a speed.
const viewTimeout = 2 * time.Minute

// exit waits for view to end and returns its exit code, having checked
// that it left no copy of standard input behind.
func (v *viewStdin) exit() int {
	t := v.t
	t.Helper()
	collected := make(chan struct{})
	go func() { // until the terminal closes
		for b := range v.out {
			v.raw = append(v.raw, b...)
		}
		close(collected)
	}()
	code := 0
	select {
	case err := <-v.ended:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else {
			must(t, err)
		}
	case <-time.After(viewTimeout):
		v.cmd.Process.Kill()
		t.Fatalf("view - still running %v later", viewTimeout)
	}
	v.term.Close()
	<-collected
	if left, _ := filepath.Glob(filepath.Join(v.work, "dshtest-stdin-*")); len(left) > 0 {
		t.Errorf("the copy of standard input is left behind: %v", left)
	}
	return code
}
