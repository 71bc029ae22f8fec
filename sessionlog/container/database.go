package container

import (
	"io"
	"sync/atomic"

	"github.com/dshtest/dshtest/sessionlog"
)

// SQLite reads upstream's schema-17 SQLite session databases (§9). Package
// sessionlog/sqlite is the one; importing it registers it. The engine is
// large, so a program links it only by that import: a database met without
// it is refused with the import line (NoSQLite).
type SQLite interface {
	// Open opens a session of the database at path (opts.Session, or its
	// only one) as a Log of FormSQLite.
	Open(path string, opts Options) (*Log, error)
	// Sessions lists the database's sessions.
	Sessions(path string) ([]DBSession, error)
}

// DBSession is one session of a SQLite database, as a listing reads it.
type DBSession struct {
	ID string
	// Header is the session's header line, as a read of it starts.
	Header []byte
	// Size is the bytes of its rows' data column.
	Size int64
}

// The registered SQLite reader, set once by RegisterSQLite.
var sqliteReader atomic.Pointer[SQLite]

// RegisterSQLite makes r the reader of SQLite databases. It is called from
// package sessionlog/sqlite's init; a second registration panics, as
// database/sql's Register does.
func RegisterSQLite(r SQLite) {
	if r == nil || !sqliteReader.CompareAndSwap(nil, &r) {
		panic("container: RegisterSQLite called twice or with nil")
	}
}

// NoSQLite is the reason a SQLite database is refused by a program that
// registered no reader for it.
const NoSQLite = `a SQLite session database, and this program reads none: ` +
	`import _ "github.com/dshtest/dshtest/sessionlog/sqlite" to read it`

// registeredSQLite returns the reader, or the refusal of path without one.
func registeredSQLite(path string) (SQLite, error) {
	if r := sqliteReader.Load(); r != nil {
		return *r, nil
	}
	return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, NoSQLite, nil)
}

// openSQLite opens a database through the registered reader.
func openSQLite(path string, opts Options) (*Log, error) {
	r, err := registeredSQLite(path)
	if err != nil {
		return nil, err
	}
	return r.Open(path, opts)
}

// ListSQLite lists the sessions of the SQLite database at path through the
// registered reader.
func ListSQLite(path string) ([]DBSession, error) {
	r, err := registeredSQLite(path)
	if err != nil {
		return nil, err
	}
	return r.Sessions(path)
}

// NewLog is the Log of a form another package reads (the SQLite reader):
// src yields its lines, close releases what it holds.
func NewLog(name string, form Form, src Lines, close func() error) *Log {
	return &Log{name: name, form: form, src: src, closers: []io.Closer{closerFunc(close)}}
}
