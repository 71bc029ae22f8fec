// Package logforms writes a JSONL session log in each of the forms
// upstream writes (spec containers.md §3 Zstandard frames, §0 the web
// export zip, §9 the schema-17 SQLite store), for the tests of the readers
// (sessionlog/container, sessionlog/reader, the CLI) to read back, and
// for the benchmark generator (internal/testkit/sessiongen/cmd/gen). It is test
// support: no command a user runs imports it.
package logforms

import (
	"archive/zip"
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zstd"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// ApplicationID and UserVersion are the identity of upstream's schema-17
// database (PRAGMA application_id "DSHP", user_version 17).
const (
	ApplicationID = 0x44534850
	UserVersion   = 17
)

// lineType is a line's "type", or "".
func lineType(l []byte) string {
	var r struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(l, &r)
	return r.Type
}

// SplitLines splits raw JSONL text into its newline-terminated lines
// (without the newline); a final fragment is dropped.
func SplitLines(b []byte) [][]byte {
	var out [][]byte
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return out
		}
		out = append(out, b[:i])
		b = b[i+1:]
	}
}

// Batches groups event lines as the write-behind window would: a batch
// ends at each turn commit (a turn/end line), and long runs are cut every
// max lines so that frame boundaries also fall inside turns.
func Batches(events [][]byte, max int) [][][]byte {
	var out [][][]byte
	var cur [][]byte
	for _, l := range events {
		cur = append(cur, l)
		if lineType(l) == "turn/end" || len(cur) == max {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// ZstdFrame compresses one checksummed frame, as zlib.zstdCompress with
// ZSTD_c_checksumFlag does: one-shot, so in a single segment and with its
// content size in the header (libzstd's defaults).
func ZstdFrame(t testing.TB, plain []byte) []byte { return zstdFrame(plain) }

func zstdFrame(plain []byte) []byte {
	return frameEncoder.EncodeAll(plain, nil) // EncodeAll is safe for concurrent use
}

var frameEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1), zstd.WithSingleSegment(true))

// ZstdWhole compresses a whole raw log as the zstd command does
// (`zstd session.jsonl`): one checksummed frame of several blocks, written
// by a streaming encoder, so without a content size.
func ZstdWhole(t testing.TB, plain []byte) []byte { return ZstdWindow(t, plain, 0) }

// ZstdWindow is ZstdWhole with a frame declaring a window of window bytes
// (0: the encoder's default), as `zstd --long` writes from a pipe.
func ZstdWindow(t testing.TB, plain []byte, window int) []byte {
	var out bytes.Buffer
	opts := []zstd.EOption{zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1)}
	if window > 0 {
		opts = append(opts, zstd.WithWindowSize(window))
	}
	w, err := zstd.NewWriter(&out, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(plain); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// WriteZstd writes the header frame, then one frame per batch.
func WriteZstd(t testing.TB, lines [][]byte, max int) []byte { return Zstd(lines, max) }

// Zstd returns upstream's Zstandard form of a headered log's lines (the
// header first): the header's frame, then one frame per batch (Batches).
// The benchmark generator writes its .jsonl.zstd logs with it.
func Zstd(lines [][]byte, max int) []byte {
	out := zstdFrame(append(append([]byte(nil), lines[0]...), '\n'))
	for _, b := range Batches(lines[1:], max) {
		plain := bytes.Join(b, []byte("\n"))
		out = append(out, zstdFrame(append(plain, '\n'))...)
	}
	return out
}

// WriteZip writes a web export holding the log at its root and, when sub
// is not empty, the same log as that subagent (sub is the export's
// directory name: container.SanitizeExportID of the id).
func WriteZip(t testing.TB, path string, log []byte, sub string) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(log)
	}
	add("session.jsonl")
	if sub != "" {
		add("subagents/" + sub + "/session.jsonl")
	}
	if w, err := zw.Create("media/a1.png"); err == nil {
		w.Write([]byte("\x89PNG"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Schema17 is the DDL of containers.md §9 (upstream's schema.sql).
const Schema17 = `
CREATE TABLE persistence_state (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  store_id  TEXT NOT NULL
) STRICT;
CREATE TABLE sessions (
  id               TEXT PRIMARY KEY,
  version          INTEGER NOT NULL,
  created_at       INTEGER NOT NULL,
  cwd              TEXT,
  parent_session   TEXT,
  seed_length      INTEGER,
  origin           TEXT,
  delegation_depth INTEGER,
  agent_preset     TEXT,
  incarnation      TEXT NOT NULL,
  revision         INTEGER NOT NULL
) STRICT;
CREATE TABLE events (
  session_id        TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq               INTEGER NOT NULL,
  type              TEXT NOT NULL,
  time              INTEGER NOT NULL,
  data              ANY NOT NULL,
  source_event_seqs ANY,
  surface_op        TEXT,
  ignorable         INTEGER CHECK (ignorable IS NULL OR ignorable IN (0, 1)),
  PRIMARY KEY (session_id, seq)
) STRICT;`

// NewDB creates a schema-17 database in WAL mode, as upstream's backend does.
func NewDB(t testing.TB, path string, appID, userVersion int) *sql.DB {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"PRAGMA journal_mode=wal", "PRAGMA synchronous=OFF", Schema17,
		"PRAGMA application_id=" + strconv.Itoa(appID), "PRAGMA user_version=" + strconv.Itoa(userVersion),
		`INSERT INTO persistence_state VALUES (1, '6f1d2c3b-4a59-4e7d-8c6b-5a4f3e2d1c0b')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return db
}

// EncodeSeqs is upstream's encodeSourceEventSeqs.
func EncodeSeqs(vals []uint64) []byte {
	var b []byte
	put := func(v uint64) {
		for v >= 0x80 {
			b = append(b, byte(v&0x7f)|0x80)
			v >>= 7
		}
		b = append(b, byte(v))
	}
	var prev uint64
	for i, v := range vals {
		switch {
		case i == 0:
			put(v)
		case v >= prev:
			put((v - prev) * 2)
		default:
			put((prev-v)*2 - 1)
		}
		prev = v
	}
	return b
}

// DataColumn is upstream's encodeData: TEXT below 4096 bytes, else zstd
// (level 3) as a BLOB when that is smaller.
func DataColumn(t testing.TB, data []byte) any {
	if len(data) < 4096 {
		return string(data)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	c := enc.EncodeAll(data, nil)
	if len(c) < len(data) {
		return c
	}
	return string(data)
}

// InsertSession writes a JSONL log's header and records as rows (upstream's bindRecord).
func InsertSession(t testing.TB, sdb *sql.DB, lines [][]byte) {
	db, err := sdb.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Commit(); err != nil {
			t.Fatal(err)
		}
	}()
	var h map[string]json.RawMessage
	if err := json.Unmarshal(lines[0], &h); err != nil {
		t.Fatal(err)
	}
	str := func(k string) any {
		if v, ok := h[k]; ok {
			var s string
			json.Unmarshal(v, &s)
			return s
		}
		return nil
	}
	num := func(k string) any {
		if v, ok := h[k]; ok {
			n, _ := strconv.ParseInt(string(v), 10, 64)
			return n
		}
		return nil
	}
	id := str("id")
	if _, err := db.Exec(`INSERT INTO sessions (id, version, created_at, cwd, parent_session, seed_length, origin,
		delegation_depth, agent_preset, incarnation, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
		id, num("version"), num("createdAt"), str("cwd"), str("parentSession"), num("seedLength"), str("origin"),
		num("delegationDepth"), str("agentPreset"), "0b8f6c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e"); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines[1:] {
		var r map[string]json.RawMessage
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		var typ string
		json.Unmarshal(r["type"], &typ)
		n := func(k string) int64 { v, _ := strconv.ParseInt(string(r[k]), 10, 64); return v }
		var err error
		if typ == "text-chunks" || typ == "reasoning-chunks" || typ == "tool-call-chunks" {
			_, err = db.Exec(`INSERT INTO events VALUES (?, ?, ?, ?, ?, NULL, NULL, 0)`,
				id, n("seq0"), typ, n("time0"), DataColumn(t, r["data"]))
		} else {
			var seqs, op, ign any
			if v, ok := r["sourceEventSeqs"]; ok {
				var vals []uint64
				json.Unmarshal(v, &vals)
				seqs = EncodeSeqs(vals)
			}
			if v, ok := r["surfaceOp"]; ok {
				op = string(v)
			}
			if v, ok := r["ignorable"]; ok && string(v) == "true" {
				ign = 1
			}
			_, err = db.Exec(`INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				id, n("seq"), typ, n("time"), DataColumn(t, r["data"]), seqs, op, ign)
		}
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

// WriteDB builds a one-session schema-17 database from a JSONL log.
func WriteDB(t testing.TB, path string, lines [][]byte) {
	db := NewDB(t, path, ApplicationID, UserVersion)
	InsertSession(t, db, lines)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func WriteFile(t testing.TB, dir, name string, b []byte) string {
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
