// Package load is the one path from a session log to a loaded session:
// every dshtest command and the scenario verb load read a log through it.
// It opens the log (a path, a store's session by id, or a reader), reads
// it through the one reader (sessionlog/reader) on a read-ahead goroutine
// (internal/ground/ahead), runs the load-time checks and the surface fold
// as the events arrive (surface.Folder), and places every refusal at its
// file and line: whatever layer refused, the error is a *sessionlog.Error
// printing "path:line: reason (seq N)".
//
// A log is read in one of two ways: Collect keeps its events (in one slice
// sized from the text when its size is known), Stream hands them one by
// one to a callback and keeps none. Source reads it as the invariant
// checker does, once validating and then again as often as needed, each
// later read of a held file first checking that it is still the one first
// read. A Budget, when set, is told of the text as it is read.
package load

import (
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/reader"
	"github.com/dshtest/dshtest/sessionlog/store"
	"github.com/dshtest/dshtest/surface"
)

// Options say what to read and how.
type Options struct {
	// Read is what the reader reads and tolerates.
	Read reader.Options
	// Hold holds the file from the start for a log read more than once
	// (Source): each later read first checks it unchanged.
	Hold bool
	// Clock is the loaded session's clock (Collect's Session).
	Clock sessionlog.Clock
	// Name, when set, is what refusals and warnings call the file in
	// place of its path: the scenario verb load names a file of its
	// archive as the scenario does.
	Name string
}

// Budget is what a memory budget that follows the text is told (the
// CLI's, which raises the runtime's memory limit with the text read).
type Budget interface {
	// Read is called as events arrive, with the text read by then.
	Read(text int64)
	// Grow is called once Collect has read the log, with all its text.
	Grow(text int64)
	// Window is called as a read opens, with the history its decoder
	// allocates whole and writes as the text is decoded
	// (reader.Stream.Window), if any, and how much text the decoder has
	// written by a call of decoded (from any goroutine).
	Window(bytes int64, decoded func() int64)
}

// Log is a log read: the reader's summary, the events when they are kept,
// their lines, and the folded surface.
type Log struct {
	// Path is the file as the caller named it (Options.Name, else its
	// path, or the store's file of a session); refusals of its events
	// name it.
	Path string
	// Summary is the reader's: what was read (Name), its form, header,
	// upgrades, synthetic closers, warnings and a zip's subagents.
	reader.Summary
	// Events are the events, the synthetic closers last; nil when the log
	// was streamed.
	Events []sessionlog.Event
	// Lines[i] is the plaintext line of Events[i] (a packed row's events
	// share it); 0 for a closer.
	Lines []int
	// Session is the loaded session, when Collect folded it.
	Session *surface.Session
	// Surface is the folded surface (Collect with fold, or StreamSurface,
	// whose Surface has no messages to derive: MessageCount counts them).
	Surface *surface.Surface

	errLines map[int64]int // a streamed event's line, for the seq that failed
}

// ErrStopped is Stream's error when its callback stopped the read.
var ErrStopped = errors.New("load: the read was stopped")

// File is a log opened for loading.
type File struct {
	path   string // what is read again; "" for a reader's log
	name   string // what refusals call it
	opts   Options
	s      *reader.Stream // the first read's, until a read takes it
	cur    *reader.Stream // the stream read last
	held   *held
	n      int    // the events Source's first read yielded
	budget Budget // told of the text read, when set
	// decoders keeps a Zstandard log's decoder from one read to the next
	// (made by Open when the options bring none).
	decoders *container.Decoders
	// noClosers: Source's first read found no closers to append, so a later
	// read does not look for them.
	noClosers bool
	// upgrades are the lines Source's first read upgraded, for a later
	// read to take instead of upgrading them again (reader.Upgrades).
	upgrades *reader.Upgrades
}

// SetBudget has the reads tell b how much of the text they have read.
func (f *File) SetBudget(b Budget) {
	f.budget = b
	f.window(f.cur)
}

// window tells the budget of s's decoder history.
func (f *File) window(s *reader.Stream) {
	if w := s.Window(); w > 0 && f.budget != nil {
		f.budget.Window(w, s.Decoded)
	}
}

// Open opens the log at path (a file of any form, or a session directory).
func Open(path string, opts Options) (*File, error) {
	f := &File{path: path, name: path, opts: opts}
	if opts.Name != "" {
		f.name = opts.Name
	}
	if opts.Hold {
		f.held = hold(path)
	}
	if opts.Read.Decoders == nil {
		f.decoders = &container.Decoders{}
		f.opts.Read.Decoders = f.decoders
	}
	s, err := reader.Open(path, f.opts.Read)
	if err != nil {
		f.held.close()
		f.closeDecoders()
		return nil, f.named(err)
	}
	f.s, f.cur = s, s
	return f, nil
}

// OpenSession finds the session id in the store at dir and opens it, its
// header held to the id (upstream's stored-identity check).
func OpenSession(dir, id string, opts Options) (*File, error) {
	p, err := store.Find(dir, id)
	if err != nil {
		return nil, err
	}
	opts.Read.ID = id
	return Open(p, opts)
}

// OpenReader opens the log r holds, called name (reader.OpenReader: any
// form but a session directory and SQLite, which need a path). It is read
// once; r is not closed.
func OpenReader(r io.Reader, name string, opts Options) (*File, error) {
	if opts.Name != "" {
		name = opts.Name
	}
	s, err := reader.OpenReader(r, name, opts.Read)
	if err != nil {
		return nil, err
	}
	return &File{name: name, opts: opts, s: s, cur: s}, nil
}

// Read reads the whole log at path and folds it (Open, then Collect).
func Read(path string, opts Options) (*Log, error) {
	f, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Collect(true)
}

// Path is the file as refusals name it (Options.Name, else its path).
func (f *File) Path() string { return f.name }

// Header is the session header line read so far (after the first event
// was read, the log's), or nil.
func (f *File) Header() json.RawMessage { return f.cur.Header() }

// TextSize is the size of the log's text when known before it is read
// (reader.Stream.TextSize), else -1.
func (f *File) TextSize() int64 { return f.cur.TextSize() }

// Close releases the file.
func (f *File) Close() error {
	f.held.close()
	defer f.closeDecoders()
	if f.s != nil {
		return f.s.Close()
	}
	return nil
}

// closeDecoders releases the decoder the file's reads kept, and tells the
// budget its window is gone.
func (f *File) closeDecoders() {
	if f.decoders != nil {
		f.decoders.Close()
		if f.budget != nil {
			f.budget.Window(0, nil)
		}
	}
}

// summary fills lg's report of the stream s read to its end.
func (f *File) summary(s *reader.Stream, lg *Log) *Log {
	lg.Path, lg.Summary = f.name, s.Summary()
	if f.renames() {
		lg.Name = f.rename(lg.Name)
		lg.Warnings = slices.Clone(lg.Warnings)
		for i := range lg.Warnings {
			lg.Warnings[i].Path = f.rename(lg.Warnings[i].Path)
		}
	}
	return lg
}

// renames reports whether the reader's names of the file are put as
// Options.Name says.
func (f *File) renames() bool { return f.name != f.path && f.path != "" }

// rename puts the file's name for its path in what the reader calls
// something of it ("path", "path!member").
func (f *File) rename(p string) string {
	if rest, ok := strings.CutPrefix(p, f.path); ok && f.renames() {
		return f.name + rest
	}
	return p
}

// named is err with the file renamed where it names it.
func (f *File) named(err error) error {
	var e *sessionlog.Error
	if !f.renames() || !errors.As(err, &e) {
		return err
	}
	if p := f.rename(e.Path); p != e.Path {
		return e.At(sessionlog.Pos{Path: p, Line: e.Line, Seq: e.Seq})
	}
	return err
}

// Validate runs the load-time checks and the surface fold (surface.Load)
// on the events of a log collected without folding, without keeping the
// session, and places a refusal at its line. It reads lg.Events and
// lg.Lines only, so it may run beside other readers of them.
func (lg *Log) Validate() error {
	if _, err := surface.Load(lg.Events, nil); err != nil {
		return lg.place(err)
	}
	return nil
}

// place puts a refusal of an event (the surface layer's) at its line.
func (lg *Log) place(err error) error {
	var e *sessionlog.Error
	if !errors.As(err, &e) {
		return sessionlog.Refuse(sessionlog.LayerSurface, sessionlog.Pos{Path: lg.Path, Seq: -1}, err.Error(), err)
	}
	return e.At(sessionlog.Pos{Path: lg.Path, Line: lg.line(e.Seq), Seq: e.Seq})
}

// line returns the line of the event with seq, or 0.
func (lg *Log) line(seq int64) int {
	if seq >= 0 && seq < int64(len(lg.Lines)) {
		return lg.Lines[seq]
	}
	return lg.errLines[seq]
}
