package container

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/dshtest/dshtest/sessionlog"
)

// checkID has lg refuse a header that does not name o.ID, when set, or
// o.Session, which selects a session of a SQLite database and of any
// other form names the one its header must hold. A subagent selected
// (o.Subagent) of a log that is not a web export is refused: read as it
// is, the log would not be the one asked for.
func (o Options) checkID(lg *Log, err error) (*Log, error) {
	if err != nil {
		return lg, err
	}
	if o.Subagent != "" && lg.Form() != FormZip {
		lg.Close()
		return nil, refuse(sessionlog.Pos{Path: lg.name, Seq: -1}, fmt.Sprintf("--subagent %q selects a subagent's log of a web export (a .zip); this log is %s", o.Subagent, lg.Form()), nil)
	}
	want := o.ID
	if want == "" && lg.Form() != FormSQLite {
		want = o.Session
	}
	if want != "" {
		lg.src = &identity{Lines: lg.src, want: want, name: lg.name}
	}
	return lg, nil
}

// identity refuses a header whose id is not the requested one.
type identity struct {
	Lines
	want, name string
	checked    bool
	err        error
}

func (c *identity) Next() bool {
	if c.err != nil {
		return false
	}
	ok := c.Lines.Next()
	if ok && !c.checked {
		c.checked = true
		if got := c.Lines.HeaderID(); got != c.want {
			c.err = refuse(sessionlog.Pos{Path: c.name, Line: 1, Seq: -1}, fmt.Sprintf("stored session identity mismatch: requested %q, header contains %q", c.want, got), nil)
			return false
		}
	}
	return ok
}

func (c *identity) Err() error {
	if c.err != nil {
		return c.err
	}
	return c.Lines.Err()
}

// ReadHeaderLine reads only a log file's header line: its first line, or
// the first line of the first Zstandard frame (upstream's listing reads the
// header frame, §3.8).
func ReadHeaderLine(path string) ([]byte, Form, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	var magic [16]byte
	n, _ := f.ReadAt(magic[:], 0)
	form := sniff(magic[:n])
	switch form {
	case FormZstd:
		lay, err := scanFrames(path, f, fi.Size(), 1)
		if err != nil {
			return nil, form, err
		}
		if len(lay.frames) == 0 {
			return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "empty or header-less Zstandard session log", nil)
		}
		dec, err := newZstdDecoder(false)
		if err != nil {
			return nil, form, err
		}
		defer dec.Close()
		// The first line of the first frame: upstream's header frame, or
		// the start of a log compressed as one stream (FramingStream).
		h := lay.frames[0]
		b, _, err := firstLine(dec, io.NewSectionReader(f, h.start, h.end-h.start), DefaultMaxLine)
		if err != nil {
			return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "corrupt Zstandard session log: header frame failed validation", err)
		}
		if b == nil {
			return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "corrupt Zstandard session log: the first frame holds no complete line", nil)
		}
		if reason := headerProblem(b); reason != "" {
			return nil, form, refuse(sessionlog.Pos{Path: path, Line: 1, Seq: -1}, reason, nil)
		}
		return b, form, nil
	case FormJSONL:
		br := bufio.NewReader(io.LimitReader(f, DefaultMaxLine+1))
		b, err := br.ReadBytes('\n')
		if err != nil {
			return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "empty or header-less session log", nil)
		}
		b = b[:len(b)-1]
		if reason := headerProblem(b); reason != "" {
			return nil, form, refuse(sessionlog.Pos{Path: path, Line: 1, Seq: -1}, reason, nil)
		}
		return b, form, nil
	}
	return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "a "+string(form)+" file where a session log belongs", nil)
}
