package suitedir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/terminal"
)

// This file is record's work on a folder: harness.Rerecord's two renders
// in scratch copies and its reproducibility check, and the classification
// of what changed.

// Recording is what record would write: the two renders agreed, and every
// fixture is classified against what is on disk.
type Recording struct {
	Names []string // the scenarios rendered
	All   bool     // every scenario of the folder: orphans are known

	// OldFixtures and OldScenarios are the folder's files before; Render
	// the first render (the second one agreed with it).
	OldFixtures, OldScenarios Tree
	Render                    *Render

	// Fixture file names: new, changed, unchanged (snapshotted, same
	// bytes), orphaned (on disk, no snapshot took it; known when All).
	Created, Changed, Unchanged, Orphaned []string
	// ScenariosChanged are the scenario files whose archive a cmp step
	// re-recorded.
	ScenariosChanged []string
}

// RenderFailed is a record refused because a scenario failed for a reason
// other than a changed screen.
type RenderFailed struct {
	Result harness.Result // the first render's
	Failed []string       // FailedScenarios
}

func (e *RenderFailed) Error() string {
	return "a scenario failed for a reason other than a changed screen"
}

// InvariantsFailed is a record refused because an invariants step failed:
// the screens would pin a bug as expected.
type InvariantsFailed struct {
	Result   harness.Result // the first render's
	Failures []harness.InvariantFailure
}

func (e *InvariantsFailed) Error() string { return "invariants fail: the screens would pin the bug" }

// Unreproducible is a record refused because two renders differ; each
// file is named as messages name it ("fixtures/NAME.screen").
type Unreproducible struct{ Files []harness.FileDiff }

func (e *Unreproducible) Error() string { return "not reproducible (two renders differ)" }

// Preflight is what record does before it renders the scenarios names: it
// refuses a fixture name another snapshot step takes too, and sweeps what
// an interrupted record left (SweepStale), returning what it removed.
func (d Dir) Preflight(names []string) (removed []string, err error) {
	index, err := d.Index()
	if err != nil {
		return nil, err
	}
	if cl := clashes(index, names); len(cl) > 0 {
		return nil, refusef("record: %s; a fixture has one owner: rename the snapshot; nothing written", strings.Join(cl, "; "))
	}
	return d.SweepStale(), nil
}

// Record renders the scenarios names (all of the folder's when all) twice
// in scratch copies, through harness.Rerecord (screens and the archive
// files of cmp steps), with the projection proj (the zero value is the
// real one), and classifies what the first render would change. A failed
// invariants step is an *InvariantsFailed, another failing scenario a
// *RenderFailed, two renders that differ an *Unreproducible. It writes
// nothing.
func (d Dir) Record(names []string, all bool, proj terminal.Projection) (*Recording, error) {
	first, err := d.rerecord(names, all, proj)
	if err != nil {
		return nil, err
	}
	r := &Recording{Names: names, All: all, OldFixtures: first.oldFix, OldScenarios: first.oldScen, Render: first.Render}
	recorded := map[string]bool{}
	for _, n := range first.Result.Recorded {
		recorded[n+harness.FixtureSuffix] = true
	}
	for name, b := range first.Fixtures {
		old, ok := r.OldFixtures[name]
		switch {
		case !ok:
			r.Created = append(r.Created, name)
		case !bytes.Equal(old, b):
			r.Changed = append(r.Changed, name)
		case recorded[name]:
			r.Unchanged = append(r.Unchanged, name)
		}
		if ok && !recorded[name] && all {
			r.Orphaned = append(r.Orphaned, name)
		}
	}
	for name, b := range first.Scenarios {
		if !bytes.Equal(r.OldScenarios[name], b) {
			r.ScenariosChanged = append(r.ScenariosChanged, name)
		}
	}
	for _, s := range [][]string{r.Created, r.Changed, r.Unchanged, r.Orphaned, r.ScenariosChanged} {
		sort.Strings(s)
	}
	return r, nil
}

// rerendered is a harness.Rerecording of the folder split into its two
// directories' trees.
type rerendered struct {
	*Render
	oldScen, oldFix Tree
}

// rerecord renders the scenarios names (all when all) as record does
// (harness.Rerecord, in scratch directories an interrupt removes, starting
// no scenario after one) and returns the first render, or the refusal
// (with the first render too when the renders differ).
func (d Dir) rerecord(names []string, all bool, proj terminal.Projection) (*rerendered, error) {
	cfg := d.Config()
	cfg.Projection, cfg.Stopping = proj, stopping
	if !all {
		cfg.Scenarios = names
	}
	rec, err := harness.Rerecord(cfg, harness.RerecordOptions{Scratch: func() (string, func(), error) {
		dir, err := newScratch()
		return dir, func() { dropScratch(dir) }, err
	}})
	if err != nil {
		return nil, err
	}
	res := rec.Result
	if len(res.Invariants) > 0 {
		return nil, &InvariantsFailed{Result: res, Failures: res.Invariants}
	}
	if failed := res.FailedScenarios(); len(failed) > 0 {
		return nil, &RenderFailed{Result: res, Failed: failed}
	}
	r := &rerendered{Render: &Render{Result: res}}
	r.oldScen, r.oldFix = split(rec.Old)
	r.Scenarios, r.Fixtures = split(rec.New)
	if len(rec.Unreproducible) > 0 {
		return r, &Unreproducible{Files: rec.Unreproducible}
	}
	return r, nil
}

// split splits a recording's files ("scenarios/NAME", "fixtures/NAME", as
// harness names them after the folder's two directories) into two trees.
func split(files map[string][]byte) (scenarios, fixtures Tree) {
	scenarios, fixtures = Tree{}, Tree{}
	for name, b := range files {
		if n, ok := strings.CutPrefix(name, InFixtures("")); ok {
			fixtures[n] = b
		} else if n, ok := strings.CutPrefix(name, InScenarios("")); ok {
			scenarios[n] = b
		}
	}
	return scenarios, fixtures
}

// Writes lists the recording's writes, relative to the folder: new and
// changed fixtures, then re-recorded scenario files.
func (r *Recording) Writes() []string {
	var out []string
	for _, n := range append(append([]string{}, r.Created...), r.Changed...) {
		out = append(out, InFixtures(n))
	}
	for _, n := range r.ScenariosChanged {
		out = append(out, InScenarios(n))
	}
	return out
}

// Data is the new content of one of Writes.
func (r *Recording) Data(rel string) []byte {
	_, name := filepath.Split(filepath.ToSlash(rel))
	if rel == InFixtures(name) {
		return r.Render.Fixtures[name]
	}
	return r.Render.Scenarios[name]
}

// Prune deletes the orphaned fixtures.
func (d Dir) Prune(r *Recording) error {
	for _, n := range r.Orphaned {
		if err := os.Remove(filepath.Join(d.Fixtures(), n)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// Writer writes a recording's files into the folder one at a time, each
// atomically (safefile), and can say what it wrote: Halt waits for the
// write in progress and lets none start after it, so that an interrupted
// record tells the truth. A record run again after any interruption (a
// kill -9 too) compares with what is on disk and writes the rest.
type Writer struct {
	d       Dir
	mu      sync.Mutex // held by a write and by Halt
	written []string
	total   int
}

// Writer returns a writer into the folder.
func (d Dir) Writer() *Writer { return &Writer{d: d} }

// WriteAll writes the recording's files (Writes) in order.
func (w *Writer) WriteAll(r *Recording) error {
	files := r.Writes()
	w.mu.Lock()
	w.total = len(files)
	w.mu.Unlock()
	for _, rel := range files {
		if err := w.write(rel, r.Data(rel)); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) write(rel string, data []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := safefile.WriteFile(filepath.Join(w.d.Root, rel), data, safefile.Options{Force: true}); err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return fmt.Errorf("write %s: %w", rel, err)
	}
	w.written = append(w.written, rel)
	return nil
}

// Halt ends the writer's work: the write in progress finishes, none starts
// after it, and it says what was written.
func (w *Writer) Halt() string {
	w.mu.Lock() // never unlocked: the process is ending
	if w.total == 0 {
		return "nothing written"
	}
	s := fmt.Sprintf("%d of %d files written", len(w.written), w.total)
	if len(w.written) > 0 {
		s += " (" + strings.Join(w.written, ", ") + ")"
	}
	return s + "; run dshtest record again to finish"
}
