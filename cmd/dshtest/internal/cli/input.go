package cli

import (
	"errors"
	"os"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
)

// heldInput is a log repro reads more than once: the file is held open from
// the start, and each later read first checks that it is still the file
// first read, unchanged (device and inode, through the path too; size and
// modification time). A log that changes under repro is bad input: its
// results would compare two different logs.
type heldInput struct {
	path string
	f    *os.File
	fi   os.FileInfo
}

// holdInput opens path (a session directory's log file, for a directory)
// and notes what it is. A file that cannot be opened is left for readLog
// to report.
func holdInput(path string) *heldInput {
	// A pipe or a device is not opened here: it reads once, and repro
	// then keeps its events rather than read it again.
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() {
		// A session directory: the reader reads its log file.
		if path, err = container.SessionFile(path); err != nil {
			return nil // the reader says why
		}
		fi, err = os.Stat(path)
	}
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	fi, err = f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil
	}
	return &heldInput{path: path, f: f, fi: fi}
}

// Close releases the file.
func (h *heldInput) Close() {
	if h != nil {
		h.f.Close()
	}
}

// errChanged is the reason a changed input is refused.
const errChanged = "the file changed while repro read it (device, inode, size or modification time differ); run repro on a copy that is not being written"

// unchanged reports, as a *sessionlog.Error, a file that is no longer the one
// first read.
func (h *heldInput) unchanged() error {
	if h == nil {
		return nil
	}
	now, err := h.f.Stat()
	same := err == nil && now.Size() == h.fi.Size() && now.ModTime().Equal(h.fi.ModTime())
	if same {
		byPath, err := os.Stat(h.path)
		same = err == nil && os.SameFile(byPath, h.fi)
	}
	if !same {
		return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: h.path, Seq: -1}, errChanged, nil)
	}
	return nil
}

// each runs reread (the reader's second pass over the log) once the held
// file is checked unchanged: the second pass reads what the first read.
func (h *heldInput) each(reread func() error) error {
	if err := h.unchanged(); err != nil {
		return err
	}
	return reread()
}

// changedInput returns err when it is the changed-input refusal.
func changedInput(err error) error {
	var ie *sessionlog.Error
	if errors.As(err, &ie) && ie.Reason == errChanged {
		return ie
	}
	return nil
}
