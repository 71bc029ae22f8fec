package load

import (
	"errors"
	"os"
	"time"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// ErrChanged is the cause of the refusal of a held file that changed
// between two reads (errors.Is): its results would compare two different
// logs.
var ErrChanged = errors.New("the file changed while it was read")

// changedReason is what the refusal says: repro is the command that reads
// a log more than once.
const changedReason = "the file changed while repro read it (device, inode, size or modification time differ, its or its SQLite journal's); run repro on a copy that is not being written"

// held is a file read more than once: held open from the start, and each
// later read first checks that it is still the file first read, unchanged
// (device and inode, through the path too; size and modification time).
type held struct {
	path  string
	f     *os.File
	fi    os.FileInfo
	sides sidecars
}

// sidecars are the states of a SQLite database's write-ahead log and
// rollback journal beside it: a database written to in WAL mode changes
// only its -wal file until a checkpoint.
type sidecars [2]sidecar

type sidecar struct {
	there bool
	size  int64
	mtime time.Time
}

// sidecarsOf reads the states of path's -wal and -journal files.
func sidecarsOf(path string) sidecars {
	var s sidecars
	for i, suffix := range []string{"-wal", "-journal"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			s[i] = sidecar{true, fi.Size(), fi.ModTime()}
		}
	}
	return s
}

func (a sidecars) equal(b sidecars) bool {
	for i := range a {
		if a[i].there != b[i].there || a[i].size != b[i].size || !a[i].mtime.Equal(b[i].mtime) {
			return false
		}
	}
	return true
}

// hold opens path (a session directory's log file, for a directory) and
// notes what it is; nil for what cannot be read twice as it was (a pipe, a
// device) or cannot be opened (the reader says why).
func hold(path string) *held {
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() {
		if path, err = container.SessionFile(path); err != nil {
			return nil
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
	return &held{path: path, f: f, fi: fi, sides: sidecarsOf(path)}
}

func (h *held) close() {
	if h != nil {
		h.f.Close()
	}
}

// unchanged refuses a file that is no longer the one first read.
func (h *held) unchanged() error {
	if h == nil {
		return nil
	}
	now, err := h.f.Stat()
	same := err == nil && now.Size() == h.fi.Size() && now.ModTime().Equal(h.fi.ModTime())
	if same {
		byPath, err := os.Stat(h.path)
		same = err == nil && os.SameFile(byPath, h.fi) && sidecarsOf(h.path).equal(h.sides)
	}
	if !same {
		return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: h.path, Seq: -1}, changedReason, ErrChanged)
	}
	return nil
}

// Held reports whether the file is held (Options.Hold, a regular file):
// one that can be read again as it was.
func (f *File) Held() bool { return f.held != nil }

// HeldPath is the file held, or "".
func (f *File) HeldPath() string {
	if f.held == nil {
		return ""
	}
	return f.held.path
}

// Unchanged refuses a held file that is no longer the one first read
// (its cause ErrChanged); nil for an unchanged or unheld file.
func (f *File) Unchanged() error { return f.named(f.held.unchanged()) }

// Source returns the log as the invariant checker reads it (the shape of
// invariant.Source): its first call streams the log (Stream, handing the
// events to yield) and reports the Log, the events yielded and the verdict
// to first; each later call reads the first n events again, the n the
// first read yielded, once the held file is checked unchanged (a file not
// held is read again unchecked: see Held). A later read's events are not
// checked again: the first read did it; nor, when the first read found the
// log ended outside a turn, is it followed for the closers recovery would
// append (reader.Options.NoRecover): there are none to yield; nor are its
// lines upgraded again: the first read's upgrades are taken
// (reader.Upgrades).
func (f *File) Source(first func(lg *Log, n int, err error)) func(yield func(*sessionlog.Event) bool) error {
	done := false
	f.upgrades = &reader.Upgrades{}
	return func(yield func(*sessionlog.Event) bool) error {
		if done {
			if err := f.Unchanged(); err != nil {
				return err
			}
			// What follows a later read (repro renders) needs no decoder,
			// and its window is resident: a read after it makes its own.
			defer f.closeDecoders()
			return f.again(f.n, yield)
		}
		done = true
		lg, err := f.Stream(func(e *sessionlog.Event, _ int64) bool { f.n++; return yield(e) })
		f.noClosers = err == nil && lg != nil && len(lg.Summary.Closers) == 0
		if err == nil {
			f.upgrades.Complete()
		}
		first(lg, f.n, err)
		return err
	}
}

// again reads the first n events of the log again and yields them in
// order until yield returns false.
func (f *File) again(n int, yield func(*sessionlog.Event) bool) error {
	s, err := f.take()
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
	return f.named(s.Err())
}
