package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/safefile"
)

// ExitInterrupted is the exit code of a command stopped by SIGINT or
// SIGTERM (128 + SIGINT, as shells report it).
const ExitInterrupted = 130

// scratchGrace is how long an interrupt waits for the running scenario to
// end before it removes the scratch directories under it.
const scratchGrace = 3 * time.Second

// batch writes record's files one at a time under an interrupt guard: on
// SIGINT or SIGTERM the write in progress finishes (each is atomic), none
// starts after it, the scratch directories are removed, what was written
// is said, and the process exits 130. A record run again after any
// interruption (a kill -9 too) compares with what is on disk and writes
// the rest.
type batch struct {
	a       *app
	root    string
	mu      sync.Mutex // held by a write and by the interrupt
	written []string
	total   int
	sig     chan os.Signal
	done    chan struct{}
}

// guardInterrupts starts catching SIGINT and SIGTERM for record; stop ends
// it. Before any write, an interrupt removes the scratch directories and
// exits 130 with nothing written.
func (a *app) guardInterrupts(root string) *batch {
	b := &batch{a: a, root: root, sig: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(b.sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-b.sig:
			b.mu.Lock() // a write in progress ends first; none starts after
			unblock := suitedir.Interrupt(scratchGrace)
			fmt.Fprintf(a.stderr, "dshtest: record interrupted (%v): %s\n", s, b.said())
			unblock()
			os.Exit(ExitInterrupted)
		case <-b.done:
		}
	}()
	return b
}

// stop ends the guard.
func (b *batch) stop() {
	signal.Stop(b.sig)
	close(b.done)
}

// said is what an interrupted record tells.
func (b *batch) said() string {
	if b.total == 0 {
		return "nothing written"
	}
	s := fmt.Sprintf("%d of %d files written", len(b.written), b.total)
	if len(b.written) > 0 {
		s += " (" + strings.Join(b.written, ", ") + ")"
	}
	return s + "; run dshtest record again to finish"
}

// writeAll writes files (paths relative to root) in order.
func (b *batch) writeAll(files []string, data func(rel string) []byte) error {
	b.mu.Lock()
	b.total = len(files)
	b.mu.Unlock()
	for _, rel := range files {
		if err := b.write(rel, data(rel)); err != nil {
			return err
		}
	}
	return nil
}

func (b *batch) write(rel string, data []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := safefile.WriteFile(filepath.Join(b.root, rel), data, safefile.Options{Force: true}); err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return fmt.Errorf("write %s: %w", rel, err)
	}
	b.written = append(b.written, rel)
	return nil
}
