package suitedir

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/terminal"
)

// This file holds the scratch copies record and accept render in, and the
// process-wide registry that lets an interrupt remove them.

// scratch holds the scratch directories while they exist, so that an
// interrupt can remove them. It is process-wide state because a signal is.
//
// An interrupt does not pull a directory from under the goroutines still
// writing into it (testscript makes missing parents, so a directory removed
// too early comes back): it stops new scenarios, lets the running one end
// and waits for every directory to be dropped by its owner, who then parks
// until the exit. Only past the grace does it remove what is left itself.
var scratch = struct {
	sync.Mutex
	dirs     map[string]bool
	stopping bool          // an interrupt is ending the process
	idle     chan struct{} // closed when stopping and no directory is left
}{dirs: map[string]bool{}}

// scratchPrefix names the scratch directories; the process id lets a later
// record tell a dead run's directory from a running one's.
func scratchPrefix() string { return "dshtest-record-" + strconv.Itoa(os.Getpid()) + "-" }

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

// stopping reports whether an interrupt is ending the process: no
// scenario starts after it (harness.Config.Stopping).
func stopping() bool {
	scratch.Lock()
	defer scratch.Unlock()
	return scratch.stopping
}

// Interrupt ends the use of every scratch directory, removes them, and
// keeps the registry locked so that none is made before the process exits.
// It waits up to grace for their owners to drop them (the running scenario
// ends, no other starts). Past it, each directory left is moved away and a
// plain file put in its place, so that no path of a goroutine still in it
// reaches it or makes it again; the returned function removes those
// placeholders, to be called just before the exit.
func Interrupt(grace time.Duration) (unblock func()) {
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

// SweepStale removes what an interrupted record left: temporary files of
// safefile's in the fixture and scenario directories and scratch
// directories in the temporary directory, of processes that no longer run.
// It returns what it removed, for the output.
func (d Dir) SweepStale() []string {
	var removed []string
	for _, dir := range []string{d.Fixtures(), d.Scenarios()} {
		names, _ := safefile.Sweep(dir)
		for _, n := range names {
			removed = append(removed, filepath.Join(filepath.Base(dir), n))
		}
	}
	tmp := os.TempDir()
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "dshtest-record-")
		if !ok || !e.IsDir() {
			continue
		}
		p, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(p)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || safefile.Running(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(tmp, e.Name())) == nil {
			removed = append(removed, filepath.Join(tmp, e.Name()))
		}
	}
	return removed
}

// Tree is the content of a flat directory of files by name.
type Tree map[string][]byte

// Render is the first render of a record (harness.Rerecord) of a folder:
// its result and what it left in the scratch copy.
type Render struct {
	Result    harness.Result
	Fixtures  Tree
	Scenarios Tree
}

// Check runs the scenarios (names, or all) as they are now on disk, in a
// scratch work directory, with pending screens beside the fixtures (so a
// passing snapshot removes its stale pending file): record's last step.
func (d Dir) Check(names []string, all bool, proj terminal.Projection) (harness.Result, error) {
	work, err := newScratch()
	if err != nil {
		return harness.Result{}, err
	}
	defer dropScratch(work)
	cfg := d.Config()
	cfg.PendingDir, cfg.WorkdirRoot, cfg.Stopping, cfg.Projection = d.Fixtures(), work, stopping, proj
	if !all {
		cfg.Scenarios = names
	}
	return harness.RunSuite(cfg), nil
}
