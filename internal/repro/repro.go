// Package repro is dshtest repro's work on a user's session log: check it
// against the transcript invariants (package invariant) at a set of sizes,
// shrink it to a smaller log on which an invariant still fails (package
// minimize), and write it as a scenario (package emit).
//
// Check reads the log once or twice and returns a Run; Minimize and Emit
// continue from it. Where files go is checked by the caller first
// (safefile.Check), so that no work is done for a write that is refused.
package repro

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/repro/emit"
	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/internal/repro/minimize"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// DefaultSizes are the sizes to render at when none is given: upstream's
// compaction scenario sizes.
func DefaultSizes() []invariant.Size { return invariant.DefaultSizes() }

// Options configure Check.
type Options struct {
	Sizes []invariant.Size
	// Eager is upstream's eager step rule.
	Eager bool
	// Projection is the terminal's projection seam and ProjectionName how
	// the report names it.
	Projection     terminal.Projection
	ProjectionName string
	// MaxToolLines bounds a tool card's output lines.
	MaxToolLines int
	// Keep keeps the log's events, as Minimize and Emit need. Without it,
	// and with the file held (load.Options.Hold), the checker reads the log
	// as it needs it and keeps none of its events.
	Keep bool
	// Loaded, when set, is told of the log once it is read (to print its
	// warnings).
	Loaded func(*load.Log)
	// Refusal, when set, maps the reader's refusal of the log to the error
	// Check returns.
	Refusal func(error) error
}

// Report is the outcome of the checks; its JSON form is repro --json's.
type Report struct {
	File       string             `json:"file"`
	Events     int                `json:"events"`
	Sizes      []string           `json:"sizes"`
	Projection string             `json:"projection"`
	Eager      bool               `json:"eager"`
	Invariants []invariant.Result `json:"invariants"`
	OK         bool               `json:"ok"`
	Minimized  *Minimized         `json:"minimized,omitempty"`
	Emitted    string             `json:"emitted,omitempty"`
	// Warnings are the reader's warnings (a torn tail).
	Warnings []string `json:"warnings,omitempty"`
}

// Minimized is what Minimize wrote.
type Minimized struct {
	Invariant string   `json:"invariant"`
	Before    int      `json:"before"`
	After     int      `json:"after"`
	Path      string   `json:"path"`
	Events    []string `json:"events"`
	Detail    string   `json:"detail"`
}

// WriteError is a refused or failed write of a target.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// Run is a checked log, for Minimize and Emit to go on from.
type Run struct {
	Report  *Report
	opts    Options
	checker *invariant.Checker
	events  []sessionlog.Event // nil unless Options.Keep
}

// Check reads the log of lf and checks every invariant at every size. A
// refusal of the log (by the reader, its validation, or a change of the
// file between two reads) is the error; a failed invariant is not.
func Check(lf *load.File, o Options) (*Run, error) {
	refuse := o.Refusal
	if refuse == nil {
		refuse = func(err error) error { return err }
	}
	loadedLog := func(lg *load.Log) {
		if lg != nil && o.Loaded != nil {
			o.Loaded(lg)
		}
	}
	topts := transcript.Options{EagerSteps: o.Eager}
	var (
		lg               *load.Log
		c                *invariant.Checker
		n                int
		validated        func()
		loadErr, changed error
	)
	if !o.Keep && lf.Held() {
		// Nothing after the checks needs the events: the checker reads
		// the log as it needs it and keeps none of them. Its first read
		// is the validating one; a refusal there is the run's error.
		src := lf.Source(func(got *load.Log, read int, err error) {
			lg, n = got, read
			loadedLog(lg)
			if err != nil && err != load.ErrStopped { // stopped: the checker says why
				loadErr = refuse(err)
			}
		})
		read := func(yield func(*sessionlog.Event) bool) error {
			err := src(yield)
			if errors.Is(err, load.ErrChanged) {
				changed = err
			}
			return err
		}
		c = invariant.Read(read, o.Sizes, topts, o.Projection, func() string { return load.SessionID(lf.Header(), lf.Path()) })
		validated = func() {}
	} else {
		var err error
		lg, err = lf.Collect(false)
		loadedLog(lg)
		if err == nil {
			err = lf.Unchanged()
		}
		if err != nil {
			return nil, refuse(err)
		}
		// Validate the log while the checks run: their results are thrown
		// away if it is not valid.
		n = len(lg.Events)
		validated = ahead.Go(func() { loadErr = lg.Validate() })
		c = invariant.New(lg.Events, o.Sizes, topts, o.Projection, load.SessionID(lg.Header, lg.Path))
	}
	c.MaxToolOutputLines = o.MaxToolLines
	rep := &Report{File: lf.Path(), Projection: o.ProjectionName, Eager: o.Eager, OK: true}
	for _, sz := range o.Sizes {
		rep.Sizes = append(rep.Sizes, sz.String())
	}
	results := c.CheckAll()
	validated()
	rep.Events = n
	if changed == nil {
		changed = lf.Unchanged()
	}
	if changed != nil {
		return nil, changed
	}
	if loadErr != nil {
		return nil, loadErr
	}
	r := &Run{Report: rep, opts: o, checker: c}
	if lg != nil { // nil when the checker stopped the first read
		for _, w := range lg.Warnings {
			rep.Warnings = append(rep.Warnings, w.String())
		}
		r.events = lg.Events
	}
	for _, res := range results {
		rep.Invariants = append(rep.Invariants, res)
		rep.OK = rep.OK && res.OK
	}
	return r, nil
}

// Minimize shrinks the log while the invariant name still fails, writes
// the smaller log as JSONL to target and records it in the report; describe
// says each event that is left in a line. It returns nil when the
// invariant held. A refused write is a *WriteError.
func (r *Run) Minimize(name string, target *safefile.Target, describe func(*sessionlog.Event) string) (*Minimized, error) {
	for _, res := range r.Report.Invariants {
		if res.Name == name && res.OK {
			return nil, nil
		}
	}
	fails := func(events []sessionlog.Event) bool {
		ch := r.checker.WithEvents(events)
		ch.Quick = true
		return !ch.Check(name).OK
	}
	small := minimize.Minimize(r.events, fails)
	var b bytes.Buffer
	if err := jsonl.WriteLog(&b, small); err != nil {
		return nil, err
	}
	// A written log is a file a person opens: its text goes through the
	// one escaper, as every JSON output does.
	if err := target.Write(display.EscapeJSON(b.Bytes())); err != nil {
		return nil, &WriteError{err}
	}
	final := r.checker.WithEvents(small).Check(name)
	m := &Minimized{Invariant: name, Before: len(r.events), After: len(small), Path: target.Path(), Detail: final.Detail}
	for i := range small {
		m.Events = append(m.Events, describe(&small[i]))
	}
	r.Report.Minimized = m
	r.events = small
	return m, nil
}

// Emit writes to target a scenario embedding the log (the minimized one
// after Minimize), its invariants asserted and snapshotted at every size
// (so it fails while the bug is present), with the verdicts in its
// header; input names the reported log, and scrub anonymises its texts. A
// refused write is a *WriteError. The caller sets Report.Emitted, naming
// the file as its user did.
func (r *Run) Emit(target *safefile.Target, input string, scrub bool) error {
	rep := r.Report
	path := target.Path()
	name := strings.TrimSuffix(filepath.Base(path), ".txtar")
	var verdicts []string
	for _, res := range rep.Invariants {
		v := "ok"
		if !res.OK {
			v = "FAIL"
		}
		verdicts = append(verdicts, v+" "+res.Name)
	}
	comment := "dshtest repro verdicts on the reported log: " + strings.Join(verdicts, ", ") + "."
	if rep.Minimized != nil {
		comment += fmt.Sprintf("\nMinimized on %s from %d to %d events.", rep.Minimized.Invariant, rep.Minimized.Before, rep.Minimized.After)
	}
	opts := emit.Options{
		Source:  "dshtest repro " + filepath.Base(input),
		Comment: comment,
		Scrub:   scrub,
		Eager:   r.opts.Eager,
		Now:     terminal.FrozenNow(r.events),
		// Every check, asserted before the snapshots: the scenario fails
		// while the bug is present instead of pinning its screens.
		Invariants: invariant.Names(),
	}
	if r.opts.MaxToolLines != cards.DefaultMaxToolOutputLines {
		opts.MaxToolLines = r.opts.MaxToolLines
	}
	for _, sz := range r.opts.Sizes {
		opts.Sizes = append(opts.Sizes, emit.Size{W: sz.W, H: sz.H})
	}
	data, err := emit.Scenario(name, r.events, opts)
	if err != nil {
		return err
	}
	if err := target.Write(data); err != nil {
		return &WriteError{err}
	}
	return nil
}
