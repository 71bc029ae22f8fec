package load

import (
	"io"
	"os"
)

// StdinName is the LOG that names standard input, and what refusals of
// a log read from it call the file.
const StdinName = "-"

// Stdin is standard input read as a log (LOG "-"), spooled to a
// temporary file the first time it is opened; Close removes the file.
// Standard input cannot be read twice, and a log is read more than once:
// repro's checker reads it again (held, and checked unchanged), history
// reads it again for its page, and SQLite, zip and Zstandard need random
// access. A file on disk serves them all and keeps the text out of
// memory, where a Budget would count it; refusals still call the log "-".
type Stdin struct {
	r    io.Reader // nil reads as empty
	path string    // the spool, once made
}

// NewStdin returns the standard input r holds, not yet read.
func NewStdin(r io.Reader) *Stdin { return &Stdin{r: r} }

// Open opens the log standard input holds, named StdinName, copying it
// to the spool on the first call; later calls open the spool again.
func (s *Stdin) Open(opts Options) (*File, error) {
	path, err := s.spool(opts)
	if err != nil {
		return nil, err
	}
	opts.Name = StdinName
	return Open(path, opts)
}

// spool copies standard input to a temporary file once (Spool: no longer
// than the text cap) and returns its path.
func (s *Stdin) spool(opts Options) (string, error) {
	if s.path != "" {
		return s.path, nil
	}
	in := s.r
	if in == nil {
		in = eofReader{}
	}
	path, err := Spool(in, StdinName, opts.Read)
	if err != nil {
		return "", err
	}
	s.path = path
	return path, nil
}

// Close removes the spool, if standard input was read.
func (s *Stdin) Close() error {
	if s.path == "" {
		return nil
	}
	return os.Remove(s.path)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
