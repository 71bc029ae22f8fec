package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/reader"
	_ "github.com/dshtest/dshtest/sessionlog/sqlite" // dshtest reads SQLite databases
	"github.com/dshtest/dshtest/sessionlog/store"
	"github.com/dshtest/dshtest/surface"
)

// logFile is a session log read through the one reading path
// (sessionlog/reader), decoded and validated.
type logFile struct {
	// Path is the log as the user named it (or the store's file for
	// --session); messages name it.
	Path string
	// Header is upstream's container header line, if the log has one.
	Header json.RawMessage
	Events []sessionlog.Event
	// Lines[i] is the line Events[i] was read from (a packed chunk row's
	// events share its line; 0 for a synthetic closer).
	Lines []int
	// Read is what the reader reported besides the events: the form, the
	// upgrades, the closers, the warnings, a zip's subagents.
	Read *reader.Log
	// Session is the loaded session (validation and surface fold done);
	// nil when the log was streamed (readOptions.each).
	Session *surface.Session
	// Surface is the folded surface, streamed or loaded.
	Surface *surface.Surface
	// errLines maps the seq of a streamed event that failed to its line.
	errLines map[int64]int

	open func() (*reader.Stream, error) // reads the log again
}

// lineLimit is the refusal of a line over --max-line-bytes, with how to
// raise the limit after it. Like every refusal of a log it exits with
// ExitUsage.
type lineLimit struct {
	err   *sessionlog.Error
	limit int
}

func (e *lineLimit) Error() string {
	return fmt.Sprintf("%v; --max-line-bytes %d is the limit; raise it to read the line", e.err, e.limit)
}

func (e *lineLimit) Unwrap() error { return e.err }

// logFlags are the reading flags every command that reads a log takes.
type logFlags struct {
	allowUnknown bool
	noRecover    bool
	session      string
	store        string
	subagent     string
	maxLine      int
}

func (f *logFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.allowUnknown, "allow-unknown", false, "read an unknown event type that is not marked ignorable as log-only")
	fs.BoolVar(&f.noRecover, "no-recover", false, "show a log that ends inside a turn as stored, without upstream's synthetic closers")
	fs.StringVar(&f.session, "session", "", "the session ID to read: from a SQLite database given as LOG, else from the store")
	fs.StringVar(&f.store, "store", "", "the session store for --session (default $DSH_HOME/sessions, else ~/.dsh/sessions)")
	fs.StringVar(&f.subagent, "subagent", "", "read the subagent ID's log of a web export zip")
	fs.IntVar(&f.maxLine, "max-line-bytes", container.DefaultMaxLine, "the longest line a log may hold, in bytes")
}

// readOptions say what a command leaves to itself.
type readOptions struct {
	// deferLoad leaves validation and the surface fold to the caller
	// (logFile.validate), which can run it alongside other work.
	deferLoad bool
	// budget is the command's memory budget, in times the log's text
	// (budget.go); 0 means readBudget.
	budget float64
	// spend has the collector wait for the budget's limit (spendBudget).
	spend bool
	// each, when set, streams the log: each event is handed to it (and
	// checked and folded, surface.Folder) as it is read, and none is kept
	// (logFile.Events stays nil, Session nil, Surface set).
	each func(*sessionlog.Event)
	// again says the log was read before and its warnings printed.
	again bool
}

// logArgs is the positional argument rule of a command that reads a log:
// LOG, or none with --session.
var logArgs = argsUsage(func(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("accepts 1 arg(s), received %d", len(args))
	}
	if len(args) == 0 {
		if s, _ := cmd.Flags().GetString("session"); s == "" {
			return errors.New("accepts 1 arg(s), received 0 (or --session ID to read from the store)")
		}
	}
	return nil
})

// logName is what messages call the log before it is read.
func logName(args []string, f *logFlags) string {
	if len(args) > 0 {
		return args[0]
	}
	return f.session
}

// readLog reads the log the arguments name through the reader, prints its
// warnings, and validates it. Every failure is a *sessionlog.Error naming the
// file and, where there is one, the line.
func (a *app) readLog(args []string, f *logFlags, opts readOptions) (*logFile, error) {
	lf, s, err := a.openLog(args, f)
	if err != nil {
		return nil, err
	}
	factor := opts.budget
	if factor == 0 {
		factor = readBudget
	}
	b := a.startBudget(factor)
	if opts.spend {
		a.spendBudget(b)
	}
	if opts.each != nil {
		each := opts.each
		lf, err := a.streamLog(lf, s, b, func(e *sessionlog.Event, _ int64) bool { each(e); return true }, f)
		if lf != nil {
			a.printWarnings(lf.Read)
		}
		if err != nil {
			return nil, err
		}
		return lf, nil
	}
	var fold *surface.Folder
	if !opts.deferLoad {
		fold = surface.NewFolder(false) // the load, done as the events arrive
		fold.TrustSyntax()
	}
	rl, err := collect(s, b, fold)
	if err != nil {
		return nil, a.inputErr(err, f)
	}
	lf.Read, lf.Header, lf.Events, lf.Lines = rl, rl.Header, rl.Events, rl.Lines
	rl.Events, rl.Lines = nil, nil // held once, by lf
	for _, w := range rl.Warnings {
		if !opts.again {
			a.warnf("%s", w)
		}
	}
	if opts.deferLoad {
		return lf, nil
	}
	sess, err := fold.Session(lf.Events, nil)
	if err != nil {
		return nil, lf.eventError(err)
	}
	lf.Session, lf.Surface = sess, sess.Surface()
	return lf, nil
}

// openLog opens the log the arguments name for reading, as readLog reads
// it.
func (a *app) openLog(args []string, f *logFlags) (*logFile, *reader.Stream, error) {
	if f.maxLine < 1 {
		return nil, nil, usagef("--max-line-bytes %d: want a positive number of bytes", f.maxLine)
	}
	ro := reader.Options{Subagent: f.subagent, MaxLineBytes: f.maxLine, AllowUnknown: f.allowUnknown, NoRecover: f.noRecover}
	lf := &logFile{}
	switch {
	case len(args) > 0:
		lf.Path = args[0]
		ro.Session = f.session
		lf.open = func() (*reader.Stream, error) { return reader.Open(args[0], ro) }
	default:
		p, err := a.storeSession(f)
		if err != nil {
			return nil, nil, err
		}
		lf.Path = p
		ro.ID = f.session // the header must name it
		lf.open = func() (*reader.Stream, error) { return reader.Open(p, ro) }
	}
	s, err := lf.open()
	if err != nil {
		return nil, nil, a.inputErr(err, f)
	}
	return lf, s, nil
}

// storeSession finds the file of --session in the session store.
func (a *app) storeSession(f *logFlags) (string, error) {
	home, _ := os.UserHomeDir()
	dir, err := store.Dir(f.store, a.getenv, home)
	if err != nil {
		return "", sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: f.store, Seq: -1}, err.Error(), err)
	}
	p, err := store.Find(dir, f.session)
	if err != nil {
		return "", a.inputErr(err, f)
	}
	return p, nil
}

// printWarnings prints what the reader warned of.
func (a *app) printWarnings(rl *reader.Log) {
	for _, w := range rl.Warnings {
		a.warnf("%s", w)
	}
}

// readBatch is a batch of events read ahead, with their lines and the
// text read once they were.
type readBatch struct {
	events []sessionlog.Event
	lines  []int
	text   int64
}

// readAhead reads s on its own goroutine, a batch at a time, and hands
// each event to fn in order on this one, so that decoding the log and
// what the command does with its events proceed side by side; it returns
// s.Err(). fn's event is valid until fn returns; its payloads stay valid.
// When fn returns false the read stops there.
func readAhead(s *reader.Stream, fn func(e *sessionlog.Event, line int, text int64) bool) error {
	const batch = 512
	const ahead = 8
	batches := make(chan readBatch, ahead)
	// A batch fn is done with is read into again: fn keeps no event.
	free := make(chan readBatch, ahead+2)
	stop := make(chan struct{}) // closed when fn's side ends, even by a panic
	wait := invariant.Go(func() {
		defer close(batches)
		fresh := func() readBatch {
			select {
			case b := <-free:
				return readBatch{events: b.events[:0], lines: b.lines[:0]}
			default:
				return readBatch{events: make([]sessionlog.Event, 0, batch), lines: make([]int, 0, batch)}
			}
		}
		b := fresh()
		send := func() bool {
			b.text = s.TextBytes()
			select {
			case batches <- b:
			case <-stop:
				return false
			}
			b = fresh()
			return true
		}
		for s.Next() {
			b.events, b.lines = append(b.events, *s.Event()), append(b.lines, s.Line())
			if len(b.events) == batch && !send() {
				return
			}
		}
		if len(b.events) > 0 {
			send()
		}
	})
	stopped := false
	func() {
		defer close(stop)
		for b := range batches {
			for i := range b.events {
				if !fn(&b.events[i], b.lines[i], b.text) {
					stopped = true
					return
				}
			}
			select {
			case free <- b:
			default:
			}
		}
	}()
	wait()
	if stopped {
		return nil
	}
	return s.Err()
}

// errStopped is streamLog's error when its each stopped the read.
var errStopped = errors.New("the read was stopped")

// streamLog reads the log s opened for lf without keeping its events:
// each gets them one by one, with the text read by then, as a
// surface.Folder checks and folds them, until it returns false
// (errStopped). The warnings are left to the caller (lf.Read), which has
// them after a refusal of an event too.
func (a *app) streamLog(lf *logFile, s *reader.Stream, b *budget, each func(e *sessionlog.Event, text int64) bool, f *logFlags) (*logFile, error) {
	defer s.Close()
	fold := surface.NewFolder(true)
	fold.TrustSyntax()
	var failed error
	stopped := false
	err := readAhead(s, func(e *sessionlog.Event, line int, text int64) bool {
		if !each(e, text) {
			stopped = true
			return false
		}
		fold.Add(e)
		if err := fold.Err(); err != failed { // a first failure, or a check's after a fold's
			failed = err
			if lf.errLines == nil {
				lf.errLines = map[int64]int{}
			}
			lf.errLines[e.Seq] = line
		}
		b.read(text)
		return true
	})
	switch {
	case stopped:
		return nil, errStopped
	case err != nil:
		return nil, a.inputErr(err, f)
	}
	rl := reader.Summary(s, &reader.Log{})
	lf.Read, lf.Header, lf.Surface = rl, rl.Header, fold.Surface()
	if failed != nil {
		return lf, lf.eventError(failed)
	}
	return lf, nil
}

// collect is reader.Collect, raising the memory budget as the text is
// read.
//
// Appending to one slice would, at every growth, hold the old array and a
// new one a quarter larger: the most memory a read needs (a million
// events are 112 MB of Event values). So when the text's size is known (a
// raw file), the first page of events tells how many the text holds, and
// one slice of about that length is made; otherwise (or if the estimate
// falls short) the events are gathered in pages and copied into an exact
// slice at the end.
//
// fold, when not nil, is fed every event as it is gathered.
func collect(s *reader.Stream, b *budget, fold *surface.Folder) (*reader.Log, error) {
	defer s.Close()
	const page = 4096
	var pages [][]sessionlog.Event
	var lines [][]int
	cur := make([]sessionlog.Event, 0, page)
	curLines := make([]int, 0, page)
	sized := false // cur is the one slice, sized from the text's size
	n := 0
	err := readAhead(s, func(e *sessionlog.Event, line int, text int64) bool {
		if len(cur) == page && !sized {
			if size, read := s.TextSize(), text; size > 0 && read > 0 && len(pages) == 0 {
				est := int(float64(page)*float64(size)/float64(read)*1.02) + page
				cur = append(make([]sessionlog.Event, 0, est), cur...)
				curLines = append(make([]int, 0, est), curLines...)
				sized = true
			} else {
				pages, lines = append(pages, cur), append(lines, curLines)
				cur, curLines = make([]sessionlog.Event, 0, page), make([]int, 0, page)
			}
		}
		if sized && len(cur) == cap(cur) {
			// The estimate fell short: the sized slice is the first page.
			pages, lines = append(pages, cur), append(lines, curLines)
			cur, curLines = make([]sessionlog.Event, 0, page), make([]int, 0, page)
			sized = false
		}
		cur, curLines = append(cur, *e), append(curLines, line)
		if fold != nil {
			fold.Add(&cur[len(cur)-1])
		}
		n++
		b.read(text)
		return true
	})
	b.grow(s.TextBytes())
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return reader.Summary(s, &reader.Log{Events: cur, Lines: curLines}), nil
	}
	pages, lines = append(pages, cur), append(lines, curLines)
	lg := &reader.Log{Events: make([]sessionlog.Event, 0, n), Lines: make([]int, 0, n)}
	for i := range pages {
		lg.Events, lg.Lines = append(lg.Events, pages[i]...), append(lg.Lines, lines[i]...)
		pages[i], lines[i] = nil, nil
	}
	return reader.Summary(s, lg), nil
}

// inputErr is the refusal a command reports for a log it cannot read: a
// *sessionlog.Error, with the --max-line-bytes hint for a line over it.
func (a *app) inputErr(err error, f *logFlags) error {
	var e *sessionlog.Error
	if !errors.As(err, &e) {
		return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: logName(nil, f), Seq: -1}, err.Error(), err)
	}
	if errors.Is(e, sessionlog.ErrTooLong) {
		return &lineLimit{err: e, limit: f.maxLine}
	}
	return e
}

// validate runs the load-time checks and the surface fold on events
// (surface.Load) without keeping the session: it does not touch
// lf.Events, and may run while another goroutine sets it.
func (lf *logFile) validate(events []sessionlog.Event) (*surface.Session, error) {
	s, err := surface.Load(events, nil)
	if err != nil {
		return nil, lf.eventError(err)
	}
	return s, nil
}

// eventError places a validation or fold error at the offending event's
// line.
func (lf *logFile) eventError(err error) error {
	var e *sessionlog.Error
	if !errors.As(err, &e) {
		return sessionlog.Refuse(sessionlog.LayerSurface, sessionlog.Pos{Path: lf.Path, Seq: -1}, err.Error(), err)
	}
	return e.At(sessionlog.Pos{Path: lf.Path, Line: lf.line(e.Seq), Seq: e.Seq})
}

// line returns the line of the event with seq, or 0.
func (lf *logFile) line(seq int64) int {
	if seq >= 0 && seq < int64(len(lf.Lines)) {
		return lf.Lines[seq]
	}
	return lf.errLines[seq]
}

// eachEvent reads the first n events of the log again, as readLog read
// them (validation aside: readLog did it), and yields them in order until
// yield returns false. yield's event is valid until yield returns; its
// payloads stay valid.
func (lf *logFile) eachEvent(n int, yield func(*sessionlog.Event) bool) error {
	s, err := lf.open()
	if err != nil {
		return err
	}
	defer s.Close()
	var e sessionlog.Event // one variable for every event: yield may not keep it
	for i := 0; i < n && s.Next(); i++ {
		e = *s.Event()
		if !yield(&e) {
			return nil
		}
	}
	return s.Err()
}
