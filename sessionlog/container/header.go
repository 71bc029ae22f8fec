package container

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/klauspost/compress/zstd"
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
		return nil, NotAnExport(lg.name, o.Subagent, string(lg.Form()))
	}
	want := o.ID
	if want == "" && lg.Form() != FormSQLite && o.Subagent == "" {
		// With --subagent, --session names the export's own session, not
		// the subagent's log read.
		want = o.Session
	}
	if want != "" {
		lg.src = &identity{Lines: lg.src, want: want, name: lg.name}
	}
	return lg, nil
}

// NotAnExport is the refusal of --subagent for the log name, which is what
// (a form) and not a web export: the one wording for every reader.
func NotAnExport(name, subagent, what string) *sessionlog.Error {
	return refuse(sessionlog.Pos{Path: name, Seq: -1}, fmt.Sprintf("--subagent %q selects a subagent's log of a web export (a .zip); this log is %s", subagent, what), nil)
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

// headerMaxLine is the longest header line ReadHeaderLine reads: a
// session header is a few hundred bytes, and a listing reads one per
// session (a store of files whose first line ran to the line limit, 64 MiB
// of text each, took sessions 50 s and 600 MB).
const (
	headerMaxLine = 1 << 20
	headerMaxText = "1 MiB"
	// headerMaxWindow is the largest window of the frame ReadHeaderLine
	// decodes (a store of 1,000 files whose first frames declared 128 MiB
	// windows had taken sessions 50 s and 600 MB: a decoder allocates the
	// whole window).
	headerMaxWindow = 16 << 20
)

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
		// A decoder allocates its frame's whole window: a header frame is
		// small, and one declaring a window of megabytes (a log compressed
		// whole with a long window) is read as LOG, not for a listing.
		dec, err := newZstdDecoder(false, zstd.WithDecoderMaxWindow(headerMaxWindow))
		if err != nil {
			return nil, form, err
		}
		defer dec.Close()
		// The first line of the first frame: upstream's header frame, or
		// the start of a log compressed as one stream (FramingStream).
		h := lay.frames[0]
		b, _, err := firstLine(dec, io.NewSectionReader(f, h.start, h.end-h.start), headerMaxLine)
		if errors.Is(err, zstd.ErrWindowSizeExceeded) {
			return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "the first Zstandard frame's window is over the 16 MiB a header is read with: read the log as LOG", err)
		}
		if err != nil {
			return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "corrupt Zstandard session log: header frame failed validation", err)
		}
		if b == nil {
			return nil, form, refuse(sessionlog.Pos{Path: path, Seq: -1}, "corrupt Zstandard session log: the first frame holds no complete line in its first "+headerMaxText, nil)
		}
		if reason := headerProblem(b); reason != "" {
			return nil, form, refuse(sessionlog.Pos{Path: path, Line: 1, Seq: -1}, reason, nil)
		}
		return b, form, nil
	case FormJSONL:
		br := bufio.NewReader(io.LimitReader(f, headerMaxLine+1))
		b, err := br.ReadBytes('\n')
		if err != nil {
			if len(b) > headerMaxLine {
				return nil, form, refuse(sessionlog.Pos{Path: path, Line: 1, Seq: -1}, "corrupt session log: first line is not a session header (no newline in its first "+headerMaxText+")", nil)
			}
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
