package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/terminal/viewer"
)

// ExitInterrupted is the exit code of a command stopped by SIGINT or
// SIGTERM (128 + SIGINT, as shells report it).
const ExitInterrupted = 130

// ExitBrokenPipe is the exit code of a command whose standard output's
// reader went away (dshtest render - | head -1): 128 + SIGPIPE, as the
// signal itself ends a process, and as shells report it.
const ExitBrokenPipe = 128 + int(syscall.SIGPIPE)

// scratchGrace is how long an interrupt waits for the running scenario to
// end before it removes the scratch directories under it.
const scratchGrace = 3 * time.Second

// onInterrupt runs exit (which ends the process) on the first SIGINT or
// SIGTERM (or one of more) that lands before stop is called: the one
// shape of the guards below.
func onInterrupt(exit func(os.Signal), more ...os.Signal) (stop func()) {
	sig, done := make(chan os.Signal, 1), make(chan struct{})
	signal.Notify(sig, append([]os.Signal{os.Interrupt, syscall.SIGTERM}, more...)...)
	go func() {
		select {
		case s := <-sig:
			exit(s)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

// batch writes record's files (suitedir.Writer) under an interrupt guard:
// on SIGINT or SIGTERM the write in progress finishes (each is atomic),
// none starts after it, the scratch directories are removed, what was
// written is said, and the process exits 130.
type batch struct {
	*suitedir.Writer
	stop func() // ends the guard
}

// guardInterrupts starts catching SIGINT and SIGTERM for record; stop ends
// it. Before any write, an interrupt removes the scratch directories and
// exits 130 with nothing written.
func (a *app) guardInterrupts(root string) *batch {
	b := &batch{Writer: suitedir.Dir{Root: root}.Writer()}
	b.stop = onInterrupt(func(s os.Signal) {
		said := b.Halt() // a write in progress ends first; none starts after
		unblock := suitedir.Interrupt(scratchGrace)
		fmt.Fprintf(a.stderr, "dshtest: record interrupted (%v): %s\n", s, said)
		unblock()
		os.Exit(ExitInterrupted)
	})
	return b
}

// guardStdin starts, once, before standard input is copied (LOG "-",
// load.Stdin), the guard that removes the copy on SIGINT, SIGTERM or
// SIGHUP and exits 130, and on SIGPIPE (the reader of the output went
// away, as in dshtest render - | head) exits 141 without a word, so that
// a command ended by a signal leaves no copy in the temporary directory;
// Run removes it on every other exit.
func (a *app) guardStdin() {
	if a.stdinGuard != nil {
		return
	}
	a.stdinGuard = onInterrupt(func(s os.Signal) {
		a.stdinLog.Close()
		if s == syscall.SIGPIPE {
			os.Exit(ExitBrokenPipe)
		}
		fmt.Fprintf(a.stderr, "dshtest: interrupted (%v); the copy of standard input is removed\n", s)
		os.Exit(ExitInterrupted)
	}, syscall.SIGHUP, syscall.SIGPIPE)
}

// releaseStdin ends the guard: at the end of Run, and before a
// full-screen program takes the terminal, which handles the signals
// itself and returns, so that Run removes the copy.
func (a *app) releaseStdin() {
	if a.stdinGuard != nil {
		a.stdinGuard()
		a.stdinGuard = nil
	}
}

// runViewer runs m full-screen (viewer.Run): a signal that ended it is
// exit 130, as for every other command, the terminal restored and, for
// LOG "-", the copy of standard input removed by Run.
func runViewer(m tea.Model, in io.Reader, out io.Writer) error {
	err := viewer.Run(m, in, out)
	var vi *viewer.Interrupted
	if errors.As(err, &vi) {
		return &exitError{code: ExitInterrupted, err: vi}
	}
	return err
}

// interrupted reports whether err is runViewer's for a signal.
func interrupted(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.code == ExitInterrupted
}
