package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dshtest/dshtest/sessionlog"
)

// A user's database is never opened by SQLite in place. Opened read-only, a
// WAL database still makes SQLite create its -wal and -shm files beside it
// (owned by the reader, so that the owner's next write fails), take locks
// in them, and fail outright in a directory the reader cannot write; a
// rollback database is locked while it is read. So the reader copies the
// database file and its WAL into a private directory, checks that the copy
// is of one committed state (nothing was committed or checkpointed while it
// was taken; else it is taken again), folds the WAL into the copy, opens the
// copy immutable (no lock, no file beside it) and removes the directory at
// once: the open descriptor keeps the file until the database is closed, so
// nothing is left behind on any exit, a signal or a crash included, save in
// the moments of the copy itself. The copy is a consistent snapshot however
// long the read takes, and the owner is never locked out.

// sqliteDSN is the DSN of a file, escaped for SQLite's URI form, with
// params. trusted_schema=OFF keeps a hostile schema from running functions
// with side effects; mmap stays off as upstream keeps it.
func sqliteDSN(path, params string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	r := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")
	return "file:" + r.Replace(filepath.ToSlash(abs)) + "?" + params +
		"&_pragma=trusted_schema(0)&_pragma=mmap_size(0)"
}

// fileState is what tells whether a database file changed while it was
// copied.
type fileState struct {
	size    int64
	mtime   time.Time
	counter [4]byte // the file change counter (header offset 24)
	wal     int64   // the WAL's size, -1 if there is none
	walSalt [8]byte // the WAL header's salts: new at every WAL restart
	journal int64   // the rollback journal's size, -1 if there is none
}

func stateOf(path string) (fileState, error) {
	st := fileState{wal: -1, journal: -1}
	f, err := os.Open(path)
	if err != nil {
		return st, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return st, err
	}
	if !fi.Mode().IsRegular() {
		return st, errors.New("not a regular file")
	}
	st.size, st.mtime = fi.Size(), fi.ModTime()
	f.ReadAt(st.counter[:], 24)
	if w, err := os.Open(path + "-wal"); err == nil {
		if wi, err := w.Stat(); err == nil && wi.Mode().IsRegular() {
			st.wal = wi.Size()
			w.ReadAt(st.walSalt[:], 16)
		}
		w.Close()
	}
	if ji, err := os.Stat(path + "-journal"); err == nil && ji.Mode().IsRegular() {
		st.journal = ji.Size()
	}
	return st, nil
}

// snapshotTries bounds how often a copy is taken again while the owner
// commits; snapshotWait is the pause between tries (about 5 s in all).
const (
	snapshotTries = 50
	snapshotWait  = 100 * time.Millisecond
)

// database is an open snapshot: one connection, kept for the whole read
// (the file it reads has no name any more, so it cannot be reopened).
type database struct {
	db *sql.DB
	c  *sql.Conn
}

func (d *database) Query(q string, args ...any) (*sql.Rows, error) {
	return d.c.QueryContext(context.Background(), q, args...)
}

func (d *database) QueryRow(q string, args ...any) *sql.Row {
	return d.c.QueryRowContext(context.Background(), q, args...)
}

func (d *database) Close() error {
	err := d.c.Close()
	if e := d.db.Close(); err == nil {
		err = e
	}
	return err
}

// snapshot opens a consistent copy of the database at path, refusing one
// (with its WAL) larger than limit bytes: no copy is larger than the text
// cap.
func snapshot(path string, limit int64) (*database, error) {
	at := sessionlog.Pos{Path: path, Seq: -1}
	st, err := stateOf(path)
	if err != nil {
		return nil, refuse(at, "cannot open the database: "+sessionlog.OSText(err), err)
	}
	if size := st.size + max(st.wal, 0) + max(st.journal, 0); size > limit {
		return nil, refuse(at, fmt.Sprintf("the database is %d bytes with its WAL or journal, over the %d-byte text limit", size, limit), sessionlog.ErrTextTooLong)
	}
	dir, err := os.MkdirTemp("", "dshtest-db-*")
	if err != nil {
		// The copy is made in the temporary directory: say which, and how
		// to choose another.
		return nil, refuse(at, fmt.Sprintf("cannot copy the database to the temporary directory %s (set TMPDIR to another): %s", os.TempDir(), sessionlog.OSText(err)), err)
	}
	defer os.RemoveAll(dir)
	copyPath := filepath.Join(dir, "db")
	for try := 0; ; try++ {
		err := copyState(path, copyPath, st)
		if err != nil {
			return nil, refuse(at, "cannot copy the database: "+sessionlog.OSText(err), err)
		}
		after, err := stateOf(path)
		if err != nil {
			return nil, refuse(at, "cannot open the database: "+sessionlog.OSText(err), err)
		}
		if same(st, after) {
			break
		}
		if try == snapshotTries {
			return nil, refuse(at, "the database kept changing while it was read: try again", nil)
		}
		time.Sleep(snapshotWait)
		st = after
	}
	if st.wal > 0 || st.journal > 0 {
		// Fold the WAL into the copy, or roll back the transaction its
		// journal holds (the owner's, under way or left by a crash), so
		// that the copy reads as one file of the last committed state.
		db, err := sql.Open("sqlite", sqliteDSN(copyPath, "_pragma=journal_mode(delete)"))
		if err == nil {
			_, err = db.Exec("PRAGMA user_version")
			db.Close()
		}
		if err != nil {
			return nil, refuse(at, "cannot read the database: "+err.Error(), err)
		}
	}
	db, err := sql.Open("sqlite", sqliteDSN(copyPath, "mode=ro&immutable=1&_pragma=query_only(1)"))
	if err != nil {
		return nil, refuse(at, "cannot open the database: "+err.Error(), err)
	}
	c, err := db.Conn(context.Background())
	if err == nil {
		_, err = c.ExecContext(context.Background(), "PRAGMA schema_version")
	}
	if err != nil {
		db.Close()
		return nil, refuse(at, "cannot read the database: "+err.Error(), err)
	}
	return &database{db: db, c: c}, nil
}

// same reports whether nothing was committed or checkpointed between two
// states: the main file unchanged (a rollback commit changes its change
// counter, a checkpoint its time), and the WAL, if any, not restarted
// (frames appended after the copy are only not read).
func same(a, b fileState) bool {
	return a.size == b.size && a.mtime.Equal(b.mtime) && a.counter == b.counter &&
		(a.wal < 0) == (b.wal < 0) && a.walSalt == b.walSalt && b.wal >= a.wal
}

// copyState copies the database file, the first st.wal bytes of its WAL and
// its rollback journal.
func copyState(path, to string, st fileState) error {
	if err := copyFile(path, to, st.size); err != nil {
		return err
	}
	copied("db")
	for _, side := range []struct {
		suffix string
		n      int64
	}{{"-wal", st.wal}, {"-journal", st.journal}} {
		os.Remove(to + side.suffix)
		if side.n > 0 {
			if err := copyFile(path+side.suffix, to+side.suffix, side.n); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		copied(side.suffix)
	}
	return nil
}

// copied is a test seam, told each step of a copy as it ends ("db",
// "-wal", "-journal"), so that a test can commit between the steps.
var copied = func(step string) {}

func copyFile(from, to string, n int64) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, io.LimitReader(src, n)); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
