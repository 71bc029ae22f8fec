package surface

import (
	"bytes"

	"github.com/dshtest/dshtest/sessionlog"
)

// A Folder is Load for a reader that does not keep the log: it takes the
// stored events one at a time, runs the load-time checks on each and
// folds the surface, holding only the surface. Its verdict is Load's: the
// first event that fails the load-time checks, else the first the fold
// refuses (Load checks the whole log before it folds, so a check failure
// later in the log wins over an earlier fold failure).
//
// The surface keeps the payloads of its nodes; a Folder keeps copies of
// them, so that a reader's buffers are free to go.
type Folder struct {
	s        *Surface
	n        int64
	checkErr error
	foldErr  error
}

// NewFolder returns a Folder of an empty log.
func NewFolder() *Folder { return &Folder{s: New(0)} }

// Add takes the next stored event.
func (f *Folder) Add(e *sessionlog.Event) {
	i := f.n
	f.n++
	if f.checkErr != nil {
		return
	}
	if err := validateStored(e, i); err != nil {
		f.checkErr = err
		return
	}
	if f.foldErr != nil {
		return
	}
	if e.SurfaceOp != nil {
		c := *e
		c.Data = bytes.Clone(e.Data)
		e = &c
	}
	f.foldErr = f.s.Apply(e)
}

// Err returns what Load would have returned for the events added so far:
// nil, or an *EventError.
func (f *Folder) Err() error {
	if f.checkErr != nil {
		return f.checkErr
	}
	return f.foldErr
}

// Surface returns the surface folded so far.
func (f *Folder) Surface() *Surface { return f.s }
