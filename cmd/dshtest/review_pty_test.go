package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// ptyTimeout is the longest the pty test waits for a screen: a screen that
// never comes is the failure, reported with what the terminal shows.
const ptyTimeout = 30 * time.Second

// ptyScreen is a terminal the command draws on: its output decoded by a
// terminal emulator, read as cells, never as raw bytes (Bubble Tea draws
// only what changed since its last frame). The emulator's answers to the
// program's queries go back to the program, as a terminal's do.
type ptyScreen struct {
	t        *testing.T
	tty      *os.File
	em       *vt.Emulator
	out      chan []byte   // what the program wrote, read from the pty
	answered chan struct{} // closed once the answers' copier is done
	eof      bool
}

func startPTY(t *testing.T, cmd *exec.Cmd, cols, rows int) *ptyScreen {
	t.Helper()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		t.Fatal(err)
	}
	s := &ptyScreen{t: t, tty: tty, em: vt.NewEmulator(cols, rows), out: make(chan []byte, 1024), answered: make(chan struct{})}
	go func() {
		defer close(s.out)
		buf := make([]byte, 64<<10)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				s.out <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		io.Copy(tty, s.em)
		close(s.answered)
	}()
	t.Cleanup(func() {
		// The emulator's Close and Read share a flag without a lock:
		// end the copier first (closing the answers' pipe), then close.
		s.em.InputPipe().(io.Closer).Close()
		<-s.answered
		s.em.Close()
		tty.Close()
	})
	return s
}

// text is the decoded screen, one line a row.
func (s *ptyScreen) text() string { return s.em.String() }

// shows is the decoded screen for a failure message.
func (s *ptyScreen) shows() string {
	if strings.TrimSpace(s.text()) == "" {
		return "(a blank screen)"
	}
	return s.text()
}

// await feeds the program's output to the emulator until the screen
// satisfies ok, and fails the test with the screen shown if it does not
// within ptyTimeout or the program closes the terminal first.
func (s *ptyScreen) await(what string, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.After(ptyTimeout)
	for {
		if scr := s.text(); ok(scr) {
			return scr
		}
		if s.eof {
			s.t.Fatalf("the terminal closed before %s; it shows:\n%s", what, s.shows())
		}
		select {
		case b, open := <-s.out:
			if !open {
				s.eof = true
				continue
			}
			s.em.Write(b)
		case <-deadline:
			s.t.Fatalf("no %s after %v; the terminal shows:\n%s", what, ptyTimeout, s.shows())
		}
	}
}

// drain feeds the rest of the output to the emulator until the program
// closes the terminal.
func (s *ptyScreen) drain() {
	s.t.Helper()
	deadline := time.After(ptyTimeout)
	for !s.eof {
		select {
		case b, open := <-s.out:
			if !open {
				s.eof = true
				continue
			}
			s.em.Write(b)
		case <-deadline:
			s.t.Fatalf("the program did not exit within %v; the terminal shows:\n%s", ptyTimeout, s.shows())
		}
	}
}

func (s *ptyScreen) press(key string) {
	s.t.Helper()
	if _, err := s.tty.WriteString(key); err != nil {
		s.t.Fatal(err)
	}
}

// reviewSuite lays out a team's scenario folder with one recorded
// scenario whose text then changed, and runs it so that each of its two
// snapshots has a pending screen. It returns the folder and the path of
// the command.
func reviewSuite(t *testing.T) (dir, dshtest string) {
	t.Helper()
	work := t.TempDir()
	dir = filepath.Join(work, "suite")
	for _, d := range []string{filepath.Join(dir, "scenarios"), filepath.Join(dir, "fixtures"), filepath.Join(work, "bin")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	// The test binary is the command when called dshtest (TestMain).
	exe, err := os.Executable()
	must(t, err)
	dshtest = filepath.Join(work, "bin", "dshtest")
	must(t, os.Symlink(exe, dshtest))
	const scenario = `# One prompt and its answer at two widths.
turn 1
user 'Hello there'
assistant 'Hi! How can I help?'
mount 60 10
snapshot greet-wide
resize 30 12
snapshot greet-narrow
`
	path := filepath.Join(dir, "scenarios", "greet.txtar")
	must(t, os.WriteFile(path, []byte(scenario), 0o644))
	run := func(want int, args ...string) {
		t.Helper()
		cmd := exec.Command(dshtest, args...)
		cmd.Dir, cmd.Env = dir, ptyEnv()
		out, err := cmd.CombinedOutput()
		if got := cmd.ProcessState.ExitCode(); got != want {
			t.Fatalf("dshtest %s: exit %d (%v), want %d:\n%s", strings.Join(args, " "), got, err, want, out)
		}
	}
	run(0, "record")
	must(t, os.WriteFile(path, []byte(strings.Replace(scenario, "Hello there", "Hello world", 1)), 0o644))
	run(1, "run")
	return dir, dshtest
}

// ptyEnv is the command's environment: not CI, a colour terminal.
func ptyEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CI", "DSHTEST_PENDING_DIR", "TERM", "COLUMNS", "LINES", "NO_COLOR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TERM=xterm-256color")
}

// TestReviewPTY runs dshtest review in a pseudo-terminal, as a person
// does: for each pending screen it must draw the recorded and the new
// screen side by side, and a accepts what was shown. Both fixtures are
// then the screens shown as new, nothing is pending, and the terminal
// shows what was decided.
func TestReviewPTY(t *testing.T) {
	dir, dshtest := reviewSuite(t)
	names := []string{"greet-narrow", "greet-wide"}
	pending := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, "fixtures", n+".screen.new"))
		must(t, err)
		pending[n] = b
	}

	cmd := exec.Command(dshtest, "review")
	cmd.Dir, cmd.Env = dir, ptyEnv()
	scr := startPTY(t, cmd, 130, 40)
	for _, n := range names {
		// Both screens, side by side: a row holds the recorded prompt on
		// the left of the rule and the new one on its right.
		scr.await("screen of "+n+" with the recorded prompt beside the new one", func(s string) bool {
			if !strings.Contains(s, "fixtures/"+n+".screen") {
				return false
			}
			for _, row := range strings.Split(s, "\n") {
				if l, r, ok := strings.Cut(row, "│"); ok && strings.Contains(l, "Hello there") && strings.Contains(r, "Hello world") {
					return true
				}
			}
			return false
		})
		scr.press("a")
	}
	scr.drain()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("dshtest review: %v; the terminal shows:\n%s", err, scr.shows())
	}
	// Back on the main screen, it says what was decided.
	for _, want := range []string{"accepted  fixtures/greet-narrow.screen", "accepted  fixtures/greet-wide.screen", "review: 2 accepted, 0 rejected, 0 skipped"} {
		if !strings.Contains(scr.text(), want) {
			t.Errorf("after exit the terminal does not show %q; it shows:\n%s", want, scr.shows())
		}
	}
	for _, n := range names {
		got, err := os.ReadFile(filepath.Join(dir, "fixtures", n+".screen"))
		must(t, err)
		if !bytes.Equal(got, pending[n]) {
			t.Errorf("fixtures/%s.screen is not the screen shown as new:\n%s", n, got)
		}
		if _, err := os.Stat(filepath.Join(dir, "fixtures", n+".screen.new")); err == nil {
			t.Errorf("fixtures/%s.screen.new is still pending", n)
		}
	}
}
