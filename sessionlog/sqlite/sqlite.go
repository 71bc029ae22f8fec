// Package sqlite reads upstream's schema-17 SQLite session databases
// (containers.md §9) for the container package: importing it, as the
// dshtest command does, registers the reader, and a .db file then reads as
// any other form.
//
//	import _ "github.com/dshtest/dshtest/sessionlog/sqlite"
//
// It is a package of its own so that only a program that reads SQLite
// links the SQLite engine (modernc.org/sqlite, pure Go and large): the
// harness library does not, and refuses a database with the import line
// above. The database is read from a consistent snapshot (snapshot.go):
// nothing is created, changed or locked beside it, and the owner may be
// writing it.
package sqlite

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
)

func init() { container.RegisterSQLite(reader{}) }

// reader is the registered container.SQLite.
type reader struct{}

func (reader) Open(path string, opts container.Options) (*container.Log, error) {
	return open(path, opts)
}

func (reader) Sessions(path string) ([]container.DBSession, error) { return sessions(path) }

// The SQLite store, schema 17 (containers.md §9).
const (
	sqliteApplicationID = 0x44534850 // "DSHP"
	sqliteUserVersion   = 17
	maxPackedData       = 1 << 20
	sqlitePage          = 512 // rows per read transaction
)

// openDB opens a snapshot of a session database (snapshot) and checks its
// identity.
func openDB(path string, limit int64) (*database, error) {
	db, err := snapshot(path, limit)
	if err != nil {
		return nil, err
	}
	fail := func(reason string, err error) (*database, error) {
		db.Close()
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, reason, err)
	}
	var version, appID int64
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return fail("cannot read the database: "+err.Error(), err)
	}
	if err := db.QueryRow("PRAGMA application_id").Scan(&appID); err != nil {
		return fail("cannot read the database: "+err.Error(), err)
	}
	// Upstream checks the schema version first, then the application id.
	if version != sqliteUserVersion {
		return fail(fmt.Sprintf("session database has schema version %d (user_version), incompatible with this reader (%d)", version, sqliteUserVersion), nil)
	}
	if appID != sqliteApplicationID {
		return fail(fmt.Sprintf("session database has application id %d, expected %d (\"DSHP\"): not a dsh session database", appID, sqliteApplicationID), nil)
	}
	if reason := checkSchema(db); reason != "" {
		return fail(reason, nil)
	}
	return db, nil
}

// schemaColumns are the columns of schema 17's tables the reader reads.
var schemaColumns = map[string][]string{
	"sessions": {"id", "version", "created_at", "cwd", "parent_session", "seed_length", "origin", "delegation_depth", "agent_preset"},
	"events":   {"session_id", "seq", "type", "time", "data", "source_event_seqs", "surface_op", "ignorable"},
}

// schemaKeys are the primary keys of schema 17's tables, in order: the
// reader's queries page through events by it (a table without it made
// each page scan and sort the whole table: 400,000 rows took check 40 s).
var schemaKeys = map[string][]string{
	"sessions": {"id"},
	"events":   {"session_id", "seq"},
}

// pkColumn is a column of a table's primary key, at place pk (from 1).
type pkColumn struct {
	pk   int
	name string
}

// checkSchema returns why the database's events and sessions are not
// schema 17's STRICT tables with the columns read, or "". A view or a
// generated column in their place could make a read compute without end
// (a recursive view) or allocate at will (zeroblob): what is read must be
// stored rows.
func checkSchema(db *database) string {
	for _, table := range []string{"sessions", "events"} {
		var typ string
		var strict int
		err := db.QueryRow(`SELECT type, strict FROM pragma_table_list WHERE schema = 'main' AND name = ?`, table).Scan(&typ, &strict)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Sprintf("session database has no %s table (schema 17)", table)
		case err != nil:
			return "cannot read the database schema: " + err.Error()
		case typ != "table":
			return fmt.Sprintf("session database's %s is a %s, not a table (schema 17)", table, typ)
		case strict != 1:
			return fmt.Sprintf("session database's %s table is not STRICT (schema 17)", table)
		}
		rows, err := db.Query(`SELECT name, hidden, pk FROM pragma_table_xinfo(?)`, table)
		if err != nil {
			return "cannot read the database schema: " + err.Error()
		}
		have := map[string]bool{}
		var key []pkColumn
		generated := ""
		for rows.Next() {
			var name string
			var hidden, pk int
			if rows.Scan(&name, &hidden, &pk) == nil {
				have[name] = true
				if hidden != 0 && generated == "" {
					generated = name
				}
				if pk > 0 {
					key = append(key, pkColumn{pk, name})
				}
			}
		}
		rows.Close()
		if generated != "" {
			return fmt.Sprintf("session database's %s table has a generated or hidden column %q (schema 17 has none)", table, generated)
		}
		for _, c := range schemaColumns[table] {
			if !have[c] {
				return fmt.Sprintf("session database's %s table has no %s column (schema 17)", table, c)
			}
		}
		slices.SortFunc(key, func(a, b pkColumn) int { return a.pk - b.pk })
		names := make([]string, len(key))
		for i, k := range key {
			names[i] = k.name
		}
		if want := schemaKeys[table]; !slices.Equal(names, want) {
			return fmt.Sprintf("session database's %s table's primary key is not (%s) (schema 17)", table, strings.Join(want, ", "))
		}
	}
	return ""
}

func open(path string, opts container.Options) (*container.Log, error) {
	db, err := openDB(path, opts.TextLimit())
	if err != nil {
		return nil, err
	}
	fail := func(e *sessionlog.Error) (*container.Log, error) { db.Close(); return nil, e }
	id := opts.Session
	if id == "" {
		rows, err := db.Query("SELECT id FROM sessions ORDER BY id LIMIT 2")
		if err != nil {
			return fail(refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot read sessions: "+err.Error(), err))
		}
		var ids []string
		for rows.Next() {
			var s string
			if rows.Scan(&s) == nil {
				ids = append(ids, s)
			}
		}
		rows.Close()
		if len(ids) != 1 {
			reason := "the database holds no session"
			if len(ids) > 1 {
				reason = "the database holds several sessions: choose one by id (dshtest sessions FILE.db lists them)"
			}
			return fail(refuse(sessionlog.Pos{Path: path, Seq: -1}, reason, nil))
		}
		id = ids[0]
	}
	name := path + "!" + id
	var row sessionRow
	err = db.QueryRow(`SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id).Scan(row.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return fail(refuse(sessionlog.Pos{Path: path, Seq: -1}, fmt.Sprintf("the database has no session %q", id), nil))
	}
	if err != nil {
		return fail(refuse(sessionlog.Pos{Path: name, Seq: -1}, "malformed session row: "+err.Error(), err))
	}
	h := row.header()

	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(container.MaxWindow), zstd.WithDecoderMaxMemory(uint64(opts.LineLimit())+1))
	if err != nil {
		return fail(refuse(sessionlog.Pos{Path: name, Seq: -1}, err.Error(), err))
	}
	r := &sqliteRows{db: db, dec: dec, name: name, session: id, maxLine: opts.LineLimit(), maxText: opts.TextLimit(), header: h, after: math.MinInt64}
	if err := r.findLastTurnEnd(); err != nil {
		dec.Close()
		return fail(refuse(sessionlog.Pos{Path: name, Seq: -1}, "cannot read events: "+err.Error(), err))
	}
	return container.NewLog(name, container.FormSQLite, r, func() error { dec.Close(); return db.Close() }), nil
}

// eventRow is one physical row of the events table.
type eventRow struct {
	seq, time int64
	typ       string
	data      any
	long      bool // data is over the line cap as stored, and not fetched
	seqs      any
	surfaceOp sql.NullString
	ignorable sql.NullInt64
}

// sqliteRows streams a session's rows in seq order, a page per short read
// transaction so that a rollback-journal owner is never locked out for
// long, and applies upstream's scanRows rule: a malformed row or a seq gap
// at or before the last decodable turn/end is corruption, later it starts
// a torn tail.
type sqliteRows struct {
	db            *database
	dec           *zstd.Decoder
	name, session string
	maxLine       int
	maxText       int64 // the cap on the text, the rows' rebuilt lines
	text          int64
	overText      bool // the row's data is more than the text left under maxText
	header        []byte

	lastTurnEnd int64 // seq of the last decodable turn/end row, or MinInt64
	after       int64 // keyset cursor
	page        []eventRow
	ordinal     int
	expected    int64
	kept        int64
	started     bool
	done        bool
	line        container.Line
	buf         []byte
	inflated    bytes.Buffer // a BLOB's text, reused
	tooLong     bool         // the last row decode refused was over the line cap
	err         error
	warnings    []container.Warning
}

func (r *sqliteRows) Line() container.Line          { return r.line }
func (r *sqliteRows) Err() error                    { return r.err }
func (r *sqliteRows) Warnings() []container.Warning { return r.warnings }
func (r *sqliteRows) HeaderID() string              { return r.session }

// selectRows reads rows; a data column longer than the first parameter
// (in bytes, as stored) is not fetched but marked too long: no row is held
// before the line cap is applied to it.
const selectRows = `SELECT seq, type, time, CASE WHEN octet_length(data) > ?1 THEN NULL ELSE data END,
	octet_length(data) > ?1, source_event_seqs, surface_op, ignorable FROM events `

func scanRow(sc interface{ Scan(...any) error }) (eventRow, error) {
	var e eventRow
	err := sc.Scan(&e.seq, &e.typ, &e.time, &e.data, &e.long, &e.seqs, &e.surfaceOp, &e.ignorable)
	return e, err
}

// storedLimit is the stored size over which a data column is too long: the
// line cap, and for a BLOB the few bytes a Zstandard frame adds to text it
// cannot compress.
func (r *sqliteRows) storedLimit() int64 {
	return int64(r.maxLine) + int64(r.maxLine>>10) + 64
}

// pageBytes bounds the data a page of rows holds.
const pageBytes = 4 << 20

func (r *sqliteRows) findLastTurnEnd() error {
	r.lastTurnEnd = math.MinInt64
	rows, err := r.db.Query(selectRows+`WHERE session_id = ?2 AND type = 'turn/end' ORDER BY seq DESC`, r.storedLimit(), r.session)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanRow(rows)
		if err != nil {
			continue
		}
		if _, _, ok := r.decode(e, nil); ok {
			r.lastTurnEnd = e.seq
			return nil
		}
	}
	return rows.Err()
}

func (r *sqliteRows) fetch() error {
	rows, err := r.db.Query(selectRows+`WHERE session_id = ?2 AND seq > ?3 ORDER BY seq LIMIT ?4`, r.storedLimit(), r.session, r.after, sqlitePage)
	if err != nil {
		return err
	}
	defer rows.Close()
	r.page = r.page[:0]
	held := 0
	for held < pageBytes && rows.Next() {
		e, err := scanRow(rows)
		if err != nil {
			return err
		}
		r.page = append(r.page, e)
		switch d := e.data.(type) {
		case string:
			held += len(d)
		case []byte:
			held += len(d)
		}
	}
	return rows.Err()
}

// room is how much text is left under the cap, at most a line's worth
// (an int, as a row's data is held).
func (r *sqliteRows) room() int {
	return int(min(max(r.maxText-r.text, 0), int64(r.maxLine)))
}

func (r *sqliteRows) Next() bool {
	if r.done {
		return false
	}
	if !r.started {
		r.started = true
		r.line = container.Line{Data: r.header, Pos: sessionlog.Pos{Path: r.name, Line: 1, Seq: -1}}
		return true
	}
	if len(r.page) == 0 {
		if err := r.fetch(); err != nil {
			r.done = true
			r.err = refuse(sessionlog.Pos{Path: r.name, Line: r.ordinal + 2, Seq: -1}, "cannot read events: "+err.Error(), err)
			return false
		}
		if len(r.page) == 0 {
			r.done = true
			return false
		}
	}
	e := r.page[0]
	r.page = r.page[1:]
	r.after = e.seq
	r.ordinal++
	r.tooLong, r.overText = false, false
	line, n, ok := r.decode(e, r.buf[:0])
	if r.overText {
		// A row's data is not inflated past the text left under the cap.
		r.done = true
		r.err = container.TextTooLong(sessionlog.Pos{Path: r.name, Line: r.ordinal + 1, Seq: e.seq}, r.maxText)
		return false
	}
	r.buf = line
	r.tooLong = r.tooLong || e.long
	if ok && len(line) > r.maxLine {
		ok, r.tooLong = false, true
	}
	if r.tooLong {
		// As a JSONL line over the limit is, wherever the row is.
		r.done = true
		r.err = refuse(sessionlog.Pos{Path: r.name, Line: r.ordinal + 1, Seq: e.seq}, fmt.Sprintf("row is longer than the %d-byte line limit", r.maxLine), sessionlog.ErrTooLong)
		return false
	}
	if ok && e.seq != r.expected {
		ok = false
	}
	if !ok {
		r.done = true
		if e.seq <= r.lastTurnEnd {
			r.err = refuse(sessionlog.Pos{Path: r.name, Line: r.ordinal + 1, Seq: -1}, fmt.Sprintf("corrupt session log: invalid committed physical row at seq %d", e.seq), nil)
			return false
		}
		var rest int
		_ = r.db.QueryRow(`SELECT count(*) FROM events WHERE session_id = ? AND seq >= ?`, r.session, e.seq).Scan(&rest)
		r.warnings = append(r.warnings, container.Warning{Pos: sessionlog.Pos{Path: r.name, Line: r.ordinal + 1, Seq: -1}, Dropped: rest, Unit: "row", Kept: r.kept,
			Reason: fmt.Sprintf("an invalid or out-of-sequence row at seq %d (expected %d)", e.seq, r.expected)})
		return false
	}
	if r.text += int64(len(line)) + 1; r.text > r.maxText {
		r.done = true
		r.err = container.TextTooLong(sessionlog.Pos{Path: r.name, Line: r.ordinal + 1, Seq: e.seq}, r.maxText)
		return false
	}
	r.expected += n
	r.kept += n
	r.line = container.Line{Data: line, Pos: sessionlog.Pos{Path: r.name, Line: r.ordinal + 1, Seq: e.seq}}
	return true
}

// decode rebuilds the JSONL record of a row (upstream's decodeRow, then the
// JSONL writer's form): a packed row as {type, seq0, time0, data}, a scalar
// row as {type, seq, time, data, sourceEventSeqs?, surfaceOp?, ignorable?}.
// It returns the line, the number of events it holds, and false for a
// malformed row.
func (r *sqliteRows) decode(e eventRow, b []byte) ([]byte, int64, bool) {
	if e.ignorable.Valid && e.ignorable.Int64 == 0 {
		if !container.IsPackedRow(e.typ) || e.seqs != nil || e.surfaceOp.Valid {
			return b, 0, false
		}
		limit := min(maxPackedData, r.maxLine)
		data, ok, long := r.data(e.data, min(limit, r.room()))
		if !ok || !json.Valid(data) {
			r.overText = long && r.room() < limit
			r.tooLong = long && !r.overText && limit == r.maxLine
			return b, 0, false
		}
		data = oneLine(bytes.TrimLeft(data, " \t\n\r"))
		if len(data) == 0 || e.seq < 0 || !safeInt(float64(e.seq)) || !safeInt(float64(e.time)) {
			return b, 0, false
		}
		n, ok := container.PackedRowMembers(e.typ, data, float64(e.time), maxPackedData)
		if !ok || !safeInt(float64(e.seq)+float64(n)-1) {
			return b, 0, false
		}
		b = append(b, `{"type":`...)
		b = appendQuoted(b, e.typ)
		b = append(b, `,"seq0":`...)
		b = strconv.AppendInt(b, e.seq, 10)
		b = append(b, `,"time0":`...)
		b = strconv.AppendInt(b, e.time, 10)
		b = append(b, `,"data":`...)
		b = append(b, data...)
		return append(b, '}'), n, true
	}
	if e.ignorable.Valid && e.ignorable.Int64 != 1 {
		return b, 0, false
	}
	data, ok, long := r.data(e.data, min(r.maxLine, r.room()))
	if !ok || !json.Valid(data) {
		r.overText = long && r.room() < r.maxLine
		r.tooLong = long && !r.overText
		return b, 0, false
	}
	data = oneLine(data)
	b = append(b, `{"type":`...)
	b = appendQuoted(b, e.typ)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, e.seq, 10)
	b = append(b, `,"time":`...)
	b = strconv.AppendInt(b, e.time, 10)
	b = append(b, `,"data":`...)
	b = append(b, bytes.TrimLeft(data, " \t\n\r")...)
	if e.seqs != nil {
		blob, isBlob := e.seqs.([]byte)
		if !isBlob {
			return b, 0, false
		}
		seqs, ok := decodeSourceEventSeqs(blob)
		if !ok {
			return b, 0, false
		}
		b = append(b, `,"sourceEventSeqs":[`...)
		for i, s := range seqs {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(b, s, 10)
		}
		b = append(b, ']')
	}
	if e.surfaceOp.Valid {
		if !json.Valid([]byte(e.surfaceOp.String)) {
			return b, 0, false
		}
		b = append(b, `,"surfaceOp":`...)
		b = append(b, oneLine([]byte(strings.TrimSpace(e.surfaceOp.String)))...)
	}
	if e.ignorable.Valid {
		b = append(b, `,"ignorable":true`...)
	}
	return append(b, '}'), 1, true
}

// oneLine compacts valid JSON that spans lines (JSON.stringify never
// writes a newline, but a hand-edited column may hold one), so that a
// rebuilt record stays one JSONL line.
func oneLine(v []byte) []byte {
	if bytes.IndexByte(v, '\n') < 0 && bytes.IndexByte(v, '\r') < 0 {
		return v
	}
	var c bytes.Buffer
	if json.Compact(&c, v) != nil {
		return v
	}
	return c.Bytes()
}

// data returns a data column's JSON text: TEXT as stored, a BLOB
// zstd-decompressed and strictly UTF-8; tooLong when it is over limit. A
// BLOB is inflated as a stream that stops one byte past the limit, never
// sized from its frame header: a small BLOB may claim or hold gigabytes.
func (r *sqliteRows) data(v any, limit int) (out []byte, ok, tooLong bool) {
	switch d := v.(type) {
	case string:
		if len(d) > limit {
			return nil, false, true
		}
		return []byte(d), true, false
	case []byte:
		// The decoder refuses a frame that declares more than the cap, or
		// a window larger, before it allocates (WithDecoderMaxMemory). The
		// text is sized before it is held: by the frame's declared size,
		// else by a first pass that keeps nothing, so that neither a
		// BLOB over the cap nor a buffer's doubling costs more than the
		// text.
		size := int64(-1)
		var h zstd.Header
		if h.Decode(d) == nil && h.HasFCS && h.FrameContentSize <= uint64(limit) {
			size = int64(h.FrameContentSize)
		}
		if size < 0 {
			err := r.dec.Reset(readOnly{bytes.NewReader(d)})
			if err == nil {
				size, err = io.Copy(io.Discard, io.LimitReader(r.dec, int64(limit)+1))
			}
			if size > int64(limit) || err != nil && overCap(d, limit) {
				return nil, false, true
			}
			if err != nil {
				return nil, false, false
			}
		}
		err := r.dec.Reset(readOnly{bytes.NewReader(d)})
		r.inflated.Reset()
		r.inflated.Grow(int(size) + 1)
		var n int64
		if err == nil {
			n, err = r.inflated.ReadFrom(io.LimitReader(r.dec, size+1))
		}
		if n > int64(limit) || err != nil && overCap(d, limit) {
			return nil, false, true
		}
		if n > size {
			return nil, false, false // more than the frame declared
		}
		out := r.inflated.Bytes()
		if err != nil || !utf8.Valid(out) {
			return nil, false, false
		}
		return out, true, false
	}
	return nil, false, false
}

// readOnly hides a bytes.Reader's other methods from the decoder, which
// decodes a short in-memory input whole, up to its memory cap (the line
// cap, which may be gigabytes), before the first Read: a stream stops at
// the limit the caller reads to.
type readOnly struct{ r io.Reader }

func (o readOnly) Read(p []byte) (int, error) { return o.r.Read(p) }

// overCap reports whether a zstd BLOB the decoder refused was refused for
// its size: a frame that declares more content than limit, or a window
// over it yet within libzstd's default windowLogMax (a larger one is
// malformed).
func overCap(blob []byte, limit int) bool {
	var h zstd.Header
	if h.Decode(blob) != nil {
		return false
	}
	return h.HasFCS && h.FrameContentSize > uint64(limit) ||
		h.WindowSize > uint64(limit) && h.WindowSize <= container.MaxWindow
}

// decodeSourceEventSeqs decodes the varint/ZigZag column (§9): the first
// seq as an unsigned LEB128 varint, each later one as a ZigZag delta.
// Non-canonical varints and out-of-range values are malformed.
func decodeSourceEventSeqs(b []byte) ([]uint64, bool) {
	var out []uint64
	var prev uint64
	for off := 0; off < len(b); {
		first := len(out) == 0
		limit := uint64(sessionlog.MaxSafeInteger)
		if !first {
			limit = 2 * sessionlog.MaxSafeInteger
		}
		var v uint64
		shift := uint(0)
		done := false
		for off < len(b) {
			c := b[off]
			off++
			v |= uint64(c&0x7f) << shift
			if c&0x80 == 0 {
				if shift > 0 && c&0x7f == 0 {
					return nil, false // non-canonical
				}
				if v > limit {
					return nil, false
				}
				done = true
				break
			}
			shift += 7
			if shift > 56 {
				return nil, false
			}
		}
		if !done {
			return nil, false // truncated
		}
		var value int64
		if first {
			value = int64(v)
		} else if v&1 == 0 {
			value = int64(prev) + int64(v/2)
		} else {
			value = int64(prev) - int64((v+1)/2)
		}
		if value < 0 || value > sessionlog.MaxSafeInteger {
			return nil, false
		}
		out = append(out, uint64(value))
		prev = uint64(value)
	}
	return out, true
}

// appendQuoted appends s as JSON.stringify writes a string: only '"', '\\'
// and control characters are escaped; lone surrogates cannot occur in Go
// strings, and invalid UTF-8 is written as U+FFFD as Node's decoder would.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}

// safeInt is JavaScript's Number.isSafeInteger.
func safeInt(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= sessionlog.MaxSafeInteger
}

// refuse is the SQLite form's refusal: the container layer's.
func refuse(pos sessionlog.Pos, reason string, cause error) *sessionlog.Error {
	return sessionlog.Refuse(sessionlog.LayerContainer, pos, reason, cause)
}

// sessionColumns are the columns of a sessions row the header is built
// from, in sessionRow.dest's order.
const sessionColumns = `id, version, created_at, cwd, parent_session, seed_length, origin, delegation_depth, agent_preset`

// sessionRow is one row of the sessions table.
type sessionRow struct {
	id                          string
	version, created            int64
	cwd, parent, origin, preset sql.NullString
	seedLength, depth           sql.NullInt64
}

func (r *sessionRow) dest() []any {
	return []any{&r.id, &r.version, &r.created, &r.cwd, &r.parent, &r.seedLength, &r.origin, &r.depth, &r.preset}
}

// header is the session's header line as toHeaderLine writes it (§1), key
// order included. A NULL delegation_depth stays absent, as the stored
// header had none.
func (r *sessionRow) header() []byte {
	h := []byte(`{"type":"session","version":`)
	h = strconv.AppendInt(h, r.version, 10)
	h = append(h, `,"id":`...)
	h = appendQuoted(h, r.id)
	h = append(h, `,"createdAt":`...)
	h = strconv.AppendInt(h, r.created, 10)
	str := func(key string, v sql.NullString) {
		if v.Valid {
			h = append(h, ',', '"')
			h = append(h, key...)
			h = append(h, '"', ':')
			h = appendQuoted(h, v.String)
		}
	}
	num := func(key string, v sql.NullInt64) {
		if v.Valid {
			h = append(h, ',', '"')
			h = append(h, key...)
			h = append(h, '"', ':')
			h = strconv.AppendInt(h, v.Int64, 10)
		}
	}
	str("cwd", r.cwd)
	str("parentSession", r.parent)
	num("seedLength", r.seedLength)
	str("origin", r.origin)
	num("delegationDepth", r.depth)
	str("agentPreset", r.preset)
	return append(h, '}')
}

// sessions lists a database's sessions: each one's header line, as a read
// of it starts, and the bytes of its rows' data column.
func sessions(path string) ([]container.DBSession, error) {
	db, err := openDB(path, container.DefaultMaxText)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	sizes := map[string]int64{}
	rows, err := db.Query(`SELECT session_id, sum(octet_length(data)) FROM events GROUP BY session_id`)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot read events: "+err.Error(), err)
	}
	for rows.Next() {
		var id string
		var n int64
		if rows.Scan(&id, &n) == nil {
			sizes[id] = n
		}
	}
	rows.Close()
	rows, err = db.Query(`SELECT ` + sessionColumns + ` FROM sessions`)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot read sessions: "+err.Error(), err)
	}
	defer rows.Close()
	var out []container.DBSession
	for rows.Next() {
		var row sessionRow
		if err := rows.Scan(row.dest()...); err != nil {
			return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "malformed session row: "+err.Error(), err)
		}
		out = append(out, container.DBSession{ID: row.id, Header: row.header(), Size: sizes[row.id]})
	}
	if err := rows.Err(); err != nil {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot read sessions: "+err.Error(), err)
	}
	return out, nil
}
