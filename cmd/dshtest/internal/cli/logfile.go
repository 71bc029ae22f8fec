package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
)

// logFile is a session log read from disk, decoded and validated.
type logFile struct {
	// Path is the path as the user gave it; errors name it.
	Path string
	// Header is upstream's container header line, if the file has one.
	Header json.RawMessage
	Events []sessionlog.Event
	// Lines[i] is the file line Events[i] was read from (a packed chunk
	// row's events share its line).
	Lines []int
	// Torn is the torn last line that was skipped, when tolerated.
	Torn *jsonl.DecodeError
	// Session is the loaded session (validation and surface fold done).
	Session *surface.Session
}

// inputError is bad input: a log that cannot be read, decoded or loaded.
// It prints as "path:line: reason (seq N)" and exits with ExitUsage.
type inputError struct {
	Path   string
	Line   int // 0 when no line applies
	Seq    int64
	Reason string
	Hint   string // what to do, after the position
}

func (e *inputError) Error() string {
	s := e.Path
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
	}
	s += ": " + e.Reason
	if e.Seq >= 0 {
		s += fmt.Sprintf(" (seq %d)", e.Seq)
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// readOptions say what a command tolerates in a log.
type readOptions struct {
	// allowTorn keeps the valid prefix of a log whose last line is a torn
	// write, with a warning, instead of refusing the log.
	allowTorn bool
	// deferLoad leaves validation and the surface fold to the caller
	// (logFile.load), which can run it alongside other work.
	deferLoad bool
}

// readLog reads, decodes and loads the log at path. Every failure is an
// *inputError naming the file and, where there is one, the line.
func (a *app) readLog(path string, opts readOptions) (*logFile, error) {
	lf, err := a.readLogQuietly(path, opts)
	if err != nil {
		return nil, err
	}
	if lf.Torn != nil {
		a.warnf("%s", tornWarning(path, lf.Torn.Line, len(lf.Events)))
	}
	return lf, nil
}

// tornWarning is the warning for a log read without its torn last line.
func tornWarning(path string, line, events int) string {
	return fmt.Sprintf("%s:%d: truncated last line (a torn write): using the %d events before it",
		path, line, events)
}

// readLogQuietly is readLog without the torn-write warning.
func (a *app) readLogQuietly(path string, opts readOptions) (*logFile, error) {
	f, err := os.Open(path)
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil && fi.IsDir() {
			err = &fs.PathError{Op: "read", Path: path, Err: errors.New("is a directory")}
		}
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, &inputError{Path: path, Seq: -1, Reason: pe.Err.Error()}
		}
		return nil, &inputError{Path: path, Seq: -1, Reason: err.Error()}
	}
	defer f.Close()
	// The log is decoded as it is read, line by line: a long log is not
	// held in memory twice, as bytes and as events.
	return parseLog(f, path, opts)
}

// parseLog is readLog over the file's contents.
func parseLog(r io.Reader, path string, opts readOptions) (*logFile, error) {
	lf := &logFile{Path: path}
	dec := jsonl.NewDecoder(r, path)
	for {
		ev, err := dec.Next()
		lf.Header = dec.Header()
		if err == io.EOF {
			break
		}
		if err != nil {
			var de *jsonl.DecodeError
			if !errors.As(err, &de) {
				return nil, &inputError{Path: path, Line: dec.Line(), Seq: -1, Reason: err.Error()}
			}
			if de.Truncated && opts.allowTorn && len(lf.Events) > 0 {
				lf.Torn = de
				break
			}
			seq := de.Seq
			if seq < 0 && de.Reason != "invalid session header" {
				// A line that could not be decoded would have held the
				// next seq; say which, so the reader can find it.
				seq = int64(len(lf.Events))
			}
			ie := &inputError{Path: path, Line: de.Line, Seq: seq, Reason: de.Reason}
			if de.Truncated && !opts.allowTorn {
				ie.Hint = "dshtest repro reads the valid prefix of a torn log"
			}
			return nil, ie
		}
		lf.Events = append(lf.Events, ev)
		lf.Lines = append(lf.Lines, dec.Line())
	}
	if len(lf.Events) == 0 {
		line := 1 // a log of blank lines
		if lf.Header != nil {
			line = max(dec.Line(), 1)
		}
		return nil, &inputError{Path: path, Line: line, Seq: -1, Reason: "empty log: no events"}
	}
	if opts.deferLoad {
		return lf, nil
	}
	if err := lf.load(); err != nil {
		return nil, err
	}
	return lf, nil
}

// load validates the events and folds the surface (surface.Load),
// setting Session. An error is an *inputError at the offending event's line.
func (lf *logFile) load() error {
	s, err := lf.validate(lf.Events)
	lf.Session = s
	return err
}

// validate is load of events without keeping the session: it does not
// touch lf.Events, and may run while another goroutine sets it.
func (lf *logFile) validate(events []sessionlog.Event) (*surface.Session, error) {
	s, err := surface.Load(events, nil)
	if err != nil {
		return nil, lf.eventError(err)
	}
	return s, nil
}

// eventError turns a validation or fold error into an inputError at the
// offending event's line.
func (lf *logFile) eventError(err error) error {
	var ee *surface.EventError
	if !errors.As(err, &ee) {
		return &inputError{Path: lf.Path, Seq: -1, Reason: err.Error()}
	}
	return &inputError{Path: lf.Path, Line: lf.line(ee.Seq), Seq: ee.Seq, Reason: ee.Reason}
}

// line returns the file line of the event with seq, or 0.
func (lf *logFile) line(seq int64) int {
	if seq >= 0 && seq < int64(len(lf.Lines)) {
		return lf.Lines[seq]
	}
	return 0
}
