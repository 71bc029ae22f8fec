package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dshtest/dshtest/internal/ground/safefile"
)

// ExitInterrupted is the exit code of a command stopped by SIGINT or
// SIGTERM (128 + SIGINT, as shells report it).
const ExitInterrupted = 130

// scratch holds record's scratch directories while they exist, so that an
// interrupt can remove them. It is process-wide state because a signal is.
//
// An interrupt does not pull a directory from under the goroutines still
// writing into it (testscript makes missing parents, so a directory removed
// too early comes back): it stops new scenarios, lets the running one end
// and waits for every directory to be dropped by its owner, who then parks
// until the exit. Only past scratchGrace does it remove what is left itself.
var scratch = struct {
	sync.Mutex
	dirs     map[string]bool
	stopping bool          // an interrupt is ending the process
	idle     chan struct{} // closed when stopping and no directory is left
}{dirs: map[string]bool{}}

// scratchGrace is how long an interrupt waits for the running scenario to
// end before it removes the scratch directories under it.
const scratchGrace = 3 * time.Second

// newScratch makes a scratch directory that an interrupt removes. After an
// interrupt it makes none: it parks until the process exits.
func newScratch() (string, error) {
	scratch.Lock()
	if scratch.stopping {
		scratch.Unlock()
		select {}
	}
	defer scratch.Unlock()
	dir, err := os.MkdirTemp("", scratchPrefix())
	if err == nil {
		scratch.dirs[dir] = true
	}
	return dir, err
}

// dropScratch removes a scratch directory. After an interrupt, the last one
// dropped wakes the interrupt, and the caller parks until the process exits
// rather than go on with a record that is being ended.
func dropScratch(dir string) {
	scratch.Lock()
	os.RemoveAll(dir)
	delete(scratch.dirs, dir)
	if !scratch.stopping {
		scratch.Unlock()
		return
	}
	if len(scratch.dirs) == 0 && scratch.idle != nil {
		close(scratch.idle)
		scratch.idle = nil
	}
	scratch.Unlock()
	select {}
}

// scenarioMayStart reports whether a scenario may start: not after an
// interrupt.
func scenarioMayStart() bool {
	scratch.Lock()
	defer scratch.Unlock()
	return !scratch.stopping
}

// removeScratchForExit ends the use of every scratch directory, removes
// them, and keeps the lock so that none is made before the process exits.
// It waits up to grace for their owners to drop them (the running scenario
// ends, no other starts). Past it, each directory left is moved away and a
// plain file put in its place, so that no path of a goroutine still in it
// reaches it or makes it again; the returned function removes those
// placeholders, to be called just before the exit.
func removeScratchForExit(grace time.Duration) (unblock func()) {
	scratch.Lock()
	scratch.stopping = true
	if len(scratch.dirs) > 0 {
		idle := make(chan struct{})
		scratch.idle = idle
		scratch.Unlock()
		select {
		case <-idle:
		case <-time.After(grace):
		}
		scratch.Lock()
	}
	var blockers []string
	for d := range scratch.dirs {
		// A goroutine may make d again between a rename and the
		// placeholder: that one is moved away too.
		var gone []string
		for i := range 5 {
			g := d + ".interrupted" + strconv.Itoa(i)
			if os.Rename(d, g) != nil {
				break
			}
			gone = append(gone, g)
			if f, err := os.OpenFile(d, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
				f.Close()
				blockers = append(blockers, d)
				break
			}
		}
		if len(gone) == 0 {
			gone = []string{d}
		}
		for _, g := range gone {
			for range 5 {
				if os.RemoveAll(g) == nil {
					break
				}
			}
		}
	}
	return func() {
		for _, b := range blockers {
			os.Remove(b)
		}
	}
}

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
			unblock := removeScratchForExit(scratchGrace)
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
	if err := writeFileAtomic(filepath.Join(b.root, rel), data); err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return fmt.Errorf("write %s: %w", rel, err)
	}
	b.written = append(b.written, rel)
	return nil
}

// batchFiles lists a record's writes, relative to the root: new and changed
// fixtures, then re-recorded scenario archives.
func batchFiles(created, changed, scenarios []string) []string {
	var out []string
	for _, n := range append(append([]string{}, created...), changed...) {
		out = append(out, "fixtures/"+n)
	}
	for _, n := range scenarios {
		out = append(out, "scenarios/"+n)
	}
	return out
}
