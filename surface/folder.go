package surface

import (
	"bytes"
	"fmt"

	"github.com/dshtest/dshtest/sessionlog"
)

// A Folder is Load for a reader that does not keep the log: it takes the
// stored events one at a time, runs the load-time checks on each and
// folds the surface, holding only the surface. Its verdict is Load's: the
// first event that fails the load-time checks, else the first the fold
// refuses (Load checks the whole log before it folds, so a check failure
// later in the log wins over an earlier fold failure).
//
// The surface keeps the payloads of its nodes. A Folder made to copy them
// keeps copies, so that a reader's buffers are free to go; one that does
// not shares the events' payloads, for a reader that keeps the events
// (Session).
type Folder struct {
	s        *Surface
	n        int64
	copy     bool
	syntax   bool // the events' JSON is known valid (TrustSyntax)
	checkErr error
	foldErr  error
}

// NewFolder returns a Folder of an empty log; copyData says whether the
// surface keeps copies of the payloads.
func NewFolder(copyData bool) *Folder { return &Folder{s: New(0), copy: copyData} }

// TrustSyntax tells f that the events it will take hold valid JSON in
// Data, SurfaceOp and SourceEventSeqs, as reader.Stream's do (the
// container checks every line whole), so Add does not scan them for it
// again; every other load-time check still runs, and so does the
// losslessness of Data's numbers.
func (f *Folder) TrustSyntax() { f.syntax = true }

// Add takes the next stored event.
func (f *Folder) Add(e *sessionlog.Event) {
	i := f.n
	f.n++
	if f.checkErr != nil {
		return
	}
	if err := validateStored(e, i, f.syntax); err != nil {
		f.checkErr = err
		return
	}
	if f.foldErr != nil {
		return
	}
	if f.copy && e.SurfaceOp != nil {
		c := *e
		c.Data = bytes.Clone(e.Data)
		e = &c
	}
	f.foldErr = f.s.Apply(e)
}

// Err returns what Load would have returned for the events added so far:
// nil, or an *sessionlog.Error.
func (f *Folder) Err() error {
	if f.checkErr != nil {
		return f.checkErr
	}
	return f.foldErr
}

// Surface returns the surface folded so far.
func (f *Folder) Surface() *Surface { return f.s }

// Session returns the session Load(events, clock) would: events must be
// the events added, in order, kept unchanged; the session keeps the slice.
// The error is Err's.
func (f *Folder) Session(events []sessionlog.Event, clock sessionlog.Clock) (*Session, error) {
	if err := f.Err(); err != nil {
		return nil, err
	}
	if int64(len(events)) != f.n {
		return nil, fmt.Errorf("surface: folder: %d events, %d added", len(events), f.n)
	}
	return &Session{clock: clock, surface: f.s, events: events[:len(events):len(events)]}, nil
}
