package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/dshtest/dshtest/terminal/display"
)

// outWriter is standard output as the commands see it: it keeps the first
// write error, after which it writes nothing more, so that Run can exit 2
// with one line whichever command wrote (and whether or not it looked at
// the error). A command's output is of no use once part of it is lost.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = err
	}
	return n, err
}

// Unwrap returns the stream underneath, for isTTY and the full-screen views.
func (o *outWriter) Unwrap() io.Writer { return o.w }

// writeFailed is the one line Run prints when standard output failed.
func writeFailed(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		err = pe.Err
	}
	return fmt.Sprintf("dshtest: write standard output: %v", err)
}

// underlying returns the stream w wraps, or w.
func underlying(w io.Writer) io.Writer {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// esc is the one escaper (the terminal's) for a log-derived string or a
// user's path printed on one line of text.
func esc(s string) string { return display.EscapeInline(s) }

// encodeJSON encodes v, indented or as one line, with the one escaper's JSON
// form applied (DEL, C1, BiDi and tag characters as \u escapes).
func encodeJSON(v any, indent bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return display.EscapeJSON(b.Bytes()), nil
}
