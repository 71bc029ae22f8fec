package container

import (
	"fmt"
	"io"

	"github.com/dshtest/dshtest/sessionlog"
)

// TextTooLong is the refusal of a log whose text is over the text limit,
// at pos: every form's reader refuses with it (cause
// sessionlog.ErrTextTooLong), whichever package reads the form.
func TextTooLong(pos sessionlog.Pos, limit int64) *sessionlog.Error {
	return refuse(pos, fmt.Sprintf("the log's text is longer than the %d-byte text limit", limit), sessionlog.ErrTextTooLong)
}

// TextCap passes at most a limit of text from a reader: a read past it
// fails with sessionlog.ErrTextTooLong and nothing more is read, so a form
// read by another decoder (a header-less log, a spool of standard input)
// stops at the cap as the container's own scanner does. Over says whether
// it did: the reader then refuses with TextTooLong at its own position.
type TextCap struct {
	r     io.Reader
	left  int64 // text still allowed
	limit int64
	over  bool
}

// NewTextCap caps r at limit bytes (Options.TextLimit).
func NewTextCap(r io.Reader, limit int64) *TextCap {
	return &TextCap{r: r, left: limit, limit: limit}
}

// Read reads up to one byte past the cap, to tell a text of exactly the
// limit from a longer one; that byte is never returned.
func (c *TextCap) Read(p []byte) (int, error) {
	if c.over {
		return 0, sessionlog.ErrTextTooLong
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	if int64(n) > c.left {
		c.over = true
		n, c.left = int(c.left), 0
		return n, sessionlog.ErrTextTooLong
	}
	c.left -= int64(n)
	return n, err
}

// Over reports whether the text went past the cap.
func (c *TextCap) Over() bool { return c.over }

// Limit is the cap.
func (c *TextCap) Limit() int64 { return c.limit }
