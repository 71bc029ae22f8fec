package container

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"

	"github.com/dshtest/dshtest/sessionlog"
)

// spooled is a test seam: it is told how many bytes each spool wrote,
// whether the spool was kept or refused.
var spooled = func(int64) {}

// spool copies a stream that needs random access (Zstandard or zip read
// from a pipe or a zip's deflated member) to a temporary file (disk, not
// memory), returning the file and its size. The file is unlinked at once,
// so that no exit leaves it behind (a signal or a crash included: the open
// descriptor holds it until the log is closed). The copy stops at the text
// cap (compressed bytes are fewer than the text they hold), and a
// Zstandard stream is decoded as it is copied, so that one whose text
// passes the line cap or the text cap is refused then, with the refusal
// its reader would give, having spooled little more than the cap it
// passed, not the whole stream.
func spool(name string, r io.Reader, form Form, opts Options) (*os.File, int64, error) {
	tmp, err := os.CreateTemp("", "dshtest-log-*")
	if err != nil {
		return nil, 0, refuse(sessionlog.Pos{Path: name, Seq: -1}, "cannot spool the stream: "+err.Error(), err)
	}
	os.Remove(tmp.Name())
	limit := opts.TextLimit()
	src := io.LimitReader(r, limit+1)
	if form == FormZstd {
		err = watchZstd(name, io.TeeReader(src, tmp), opts)
	}
	if err == nil {
		_, err = io.Copy(tmp, src)
	}
	size, _ := tmp.Seek(0, io.SeekCurrent) // the bytes written
	if err == nil || !isRefusal(err) {
		if err != nil {
			err = refuse(sessionlog.Pos{Path: name, Seq: -1}, "read failed: "+err.Error(), err)
		} else if size > limit {
			err = refuse(sessionlog.Pos{Path: name, Seq: -1}, fmt.Sprintf("the stream is longer than the %d-byte text limit", limit), sessionlog.ErrTextTooLong)
		}
	}
	spooled(size)
	if err != nil {
		tmp.Close()
		return nil, 0, err
	}
	return tmp, size, nil
}

// watchZstd decodes the Zstandard stream r, discarding the text, and
// refuses it the moment a line passes the line cap or the text the text
// cap, as the scanner will (lineTooLong, TextTooLong, at the same line), or
// a frame declares more than the text cap. Any other decoding error (a
// corrupt or torn frame, a skippable one) is left to the reader, which
// locates frames structurally first: watchZstd then returns nil and the
// rest of the stream is copied unwatched.
func watchZstd(name string, r io.Reader, opts Options) error {
	dec, err := newZstdDecoder(false, zstd.WithDecoderMaxMemory(uint64(opts.TextLimit())))
	if err != nil {
		return err
	}
	defer dec.Close()
	if err := dec.Reset(r); err != nil {
		return nil
	}
	tw := &textWatch{name: name, maxLine: int64(opts.LineLimit()), maxText: opts.TextLimit()}
	_, err = io.Copy(tw, dec)
	switch {
	case tw.err != nil:
		return tw.err
	case errors.Is(err, zstd.ErrDecoderSizeExceeded):
		return TextTooLong(sessionlog.Pos{Path: name, Line: tw.lines + 1, Seq: -1}, tw.maxText)
	}
	return nil
}

// textWatch follows a log's text as the scanner reads it: its length, its
// lines and the length of the line in progress, refusing past the caps.
type textWatch struct {
	name    string
	maxLine int64
	maxText int64
	text    int64 // text seen
	lines   int   // complete lines seen
	line    int64 // bytes of the line in progress
	err     error
}

func (t *textWatch) Write(p []byte) (int, error) {
	for q := p; len(q) > 0; {
		if t.text == t.maxText { // a byte more than the cap
			t.err = TextTooLong(sessionlog.Pos{Path: t.name, Line: t.lines + 1, Seq: -1}, t.maxText)
			return 0, t.err
		}
		chunk := q[:min(int64(len(q)), t.maxText-t.text)]
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			t.line += int64(len(chunk))
			t.text += int64(len(chunk))
			q = q[len(chunk):]
		} else {
			t.line += int64(i)
			t.text += int64(i + 1)
			q = q[i+1:]
		}
		if t.line > t.maxLine {
			t.err = lineTooLong(sessionlog.Pos{Path: t.name, Line: t.lines + 1, Seq: -1}, int(t.maxLine))
			return 0, t.err
		}
		if i >= 0 {
			t.lines++
			t.line = 0
		}
	}
	return len(p), nil
}

// isRefusal reports whether err is already a refusal (the watch's).
func isRefusal(err error) bool {
	var e *sessionlog.Error
	return errors.As(err, &e)
}
