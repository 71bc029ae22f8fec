package load

import (
	"errors"
	"io"
	"os"
	"sync"
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
//
// Close may be called from another goroutine while the copy runs (an
// interrupt handler): it removes the copy in progress too.
type Stdin struct {
	r      io.Reader // nil reads as empty
	mu     sync.Mutex
	path   string // the spool, from the moment the file exists
	done   bool   // the copy is complete
	closed bool   // Close was called: no spool is made after it
}

// errStdinClosed is the spool's error once Stdin was closed (interrupted).
var errStdinClosed = errors.New("the copy was stopped")

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
	s.mu.Lock()
	if s.done {
		defer s.mu.Unlock()
		return s.path, nil
	}
	s.mu.Unlock()
	in := s.r
	if in == nil {
		in = eofReader{}
	}
	path, err := spool(in, StdinName, opts.Read, func() (*os.File, error) {
		// Under the lock: a Close (an interrupt) either finds the path
		// or comes first and no file is made.
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed {
			return nil, errStdinClosed
		}
		f, err := createSpool()
		if err == nil {
			s.path = f.Name()
		}
		return f, err
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.path = "" // spool removed it
		return "", err
	}
	s.path, s.done = path, true
	return path, nil
}

// Close removes the spool, or the copy in progress, if standard input
// was read.
func (s *Stdin) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.path == "" {
		return nil
	}
	err := os.Remove(s.path)
	s.path = ""
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
