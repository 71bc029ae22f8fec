package sqlite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dshtest/dshtest/internal/testkit/containertest"
	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/store"
)

func TestSQLiteIdentity(t *testing.T) {
	cases := []struct {
		name         string
		appID, userV int
		err          string
	}{
		{"wrong application_id", 0x12345678, 17, "application id 305419896, expected 1146308688"},
		{"wrong user_version", sqliteApplicationID, 16, "schema version 16 (user_version), incompatible with this reader (17)"},
		{"not initialized", 0, 0, "schema version 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.db")
			db := logforms.NewDB(t, p, c.appID, c.userV)
			db.Close()
			_, err := container.Open(p, container.Options{Session: "s1"})
			containertest.Check(t, "open", nil, err, containertest.Want{Err: c.err})
			_, err = store.List(p)
			containertest.Check(t, "list", nil, err, containertest.Want{Err: c.err})
		})
	}
}

func TestSQLiteRows(t *testing.T) {
	long := strings.Repeat(`{"k":"abcabcabc"},`, 400)
	text := logforms.JSONL(logforms.Header,
		logforms.Event(0, "turn/start"),
		`{"type":"assistant/message","seq":1,"time":3,"data":{"turn":1,"blob":[`+long+`0]},"sourceEventSeqs":[9007199254740991,0,5,5,3],"surfaceOp":{"op":"append"}}`,
		`{"type":"text-chunks","seq0":2,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1,-1],"texts":["a","b","c"]}}`,
		`{"type":"x/y","seq":5,"time":0,"data":{"s":"\u2028<&>"},"ignorable":true}`,
		logforms.Event(6, "turn/end"))
	dir := t.TempDir()
	p := filepath.Join(dir, "s.db")
	db := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
	logforms.InsertSession(t, db, logforms.SplitLines([]byte(text)))
	other := strings.Replace(logforms.Header, `"s1"`, `"s2"`, 1)
	logforms.InsertSession(t, db, logforms.SplitLines([]byte(logforms.JSONL(other, logforms.Event(0, "turn/start")))))
	var blobs int
	db.QueryRow(`SELECT count(*) FROM events WHERE typeof(data) = 'blob'`).Scan(&blobs)
	if blobs != 1 {
		t.Fatalf("%d zstd BLOB data rows, want 1", blobs)
	}
	db.Close()

	_, err := container.Open(p, container.Options{})
	containertest.Check(t, "no session chosen", nil, err, containertest.Want{Err: "holds several sessions"})
	_, err = container.Open(p, container.Options{Session: "nope"})
	containertest.Check(t, "unknown session", nil, err, containertest.Want{Err: `no session "nope"`})

	got, pos, warns, refusal := containertest.Read(container.Open(p, container.Options{Session: "s1"}))
	if refusal != nil || len(warns) != 0 {
		t.Fatal(refusal, warns)
	}
	want := logforms.SplitLines([]byte(text))
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
	if pos[3].Line != 4 || pos[3].Seq != 2 {
		t.Fatalf("packed row at %+v", pos[3])
	}

	// never written: the file is byte-identical after reading
	before, _ := os.ReadFile(p)
	containertest.Read(container.Open(p, container.Options{Session: "s1"}))
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Fatal("reading changed the database")
	}
	list, err := store.List(p)
	if err != nil || len(list) != 2 || list[0].Form != container.FormSQLite || list[0].Size == 0 {
		t.Fatalf("list %+v %v", list, err)
	}
}

// TestSQLiteTornAndCorrupt covers upstream's scanRows rule: a bad row or a
// gap after the last turn/end is a torn tail, at or before it corruption.
func TestSQLiteTornAndCorrupt(t *testing.T) {
	build := func(t *testing.T, text string, edit string) string {
		p := filepath.Join(t.TempDir(), "s.db")
		db := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
		logforms.InsertSession(t, db, logforms.SplitLines([]byte(text)))
		if edit != "" {
			if _, err := db.Exec(edit); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		return p
	}
	committed := logforms.JSONL(logforms.Cat([]string{logforms.Header}, logforms.Turn(0), []string{logforms.Event(4, "turn/start"), logforms.Event(5, "step/start")})...)
	cases := []struct {
		name, edit string
		want       containertest.Want
	}{
		{"clean", "", containertest.Want{Lines: 7}},
		{"bad row after the last turn/end", `UPDATE events SET data = '{bad' WHERE seq = 4`,
			containertest.Want{Lines: 5, Warn: "an invalid or out-of-sequence row at seq 4", WLine: 6, Dropped: 2}},
		{"gap after the last turn/end", `UPDATE events SET seq = 9 WHERE seq = 5`,
			containertest.Want{Lines: 6, Warn: "at seq 9 (expected 5)", WLine: 7, Dropped: 1}},
		{"bad row before a turn/end", `UPDATE events SET data = '{bad' WHERE seq = 1`,
			containertest.Want{Err: "corrupt session log: invalid committed physical row at seq 1", ErrLine: 3}},
		{"bad source_event_seqs", `UPDATE events SET source_event_seqs = x'8000' WHERE seq = 2`,
			containertest.Want{Err: "invalid committed physical row at seq 2", ErrLine: 4}},
		{"packed discriminator on a scalar type", `UPDATE events SET ignorable = 0 WHERE seq = 2`,
			containertest.Want{Err: "invalid committed physical row at seq 2", ErrLine: 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := build(t, committed, c.edit)
			lg, err := container.Open(p, container.Options{Session: "s1"})
			containertest.Check(t, "open", lg, err, c.want)
		})
	}
}

// TestSQLiteNeverLocksTheOwner reads while the owner holds a write
// transaction, and lets the owner commit while a read is under way.
func TestSQLiteNeverLocksTheOwner(t *testing.T) {
	for _, mode := range []string{"wal", "delete"} {
		t.Run(mode, func(t *testing.T) { neverLocks(t, mode) })
	}
}

func neverLocks(t *testing.T, journal string) {
	p := filepath.Join(t.TempDir(), "s.db")
	owner := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
	defer owner.Close()
	if _, err := owner.Exec("PRAGMA journal_mode = " + journal); err != nil {
		t.Fatal(err)
	}
	var events []string
	for i := 0; i < 3*sqlitePage; i++ {
		events = append(events, logforms.Event(i, "x/y"))
	}
	logforms.InsertSession(t, owner, logforms.SplitLines([]byte(logforms.JSONL(append([]string{logforms.Header}, events...)...))))
	if _, err := owner.Exec("PRAGMA busy_timeout = 0"); err != nil {
		t.Fatal(err)
	}
	tx, err := owner.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO events VALUES ('s1', 100000, 'x/y', 0, '{}', NULL, NULL, NULL)`); err != nil {
		t.Fatal(err)
	}
	lg, err := container.Open(p, container.Options{Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	for i := 0; i < 10 && lg.Next(); i++ {
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("the owner could not commit while a read was under way: %v", err)
	}
	n := 10
	for lg.Next() {
		n++
	}
	if lg.Err() != nil || n < 1+3*sqlitePage {
		t.Fatalf("read %d lines, err %v", n, lg.Err())
	}
}

func TestSourceEventSeqs(t *testing.T) {
	for _, vals := range [][]uint64{{0}, {5, 3, 3, 9007199254740991, 0}, {}} {
		got, ok := decodeSourceEventSeqs(logforms.EncodeSeqs(vals))
		if !ok || len(got) != len(vals) {
			t.Fatalf("%v: %v %v", vals, got, ok)
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("%v: %v", vals, got)
			}
		}
	}
	for _, bad := range [][]byte{{0x80}, {0x80, 0x00}, {0x01, 0x03}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}} {
		if got, ok := decodeSourceEventSeqs(bad); ok {
			t.Fatalf("% x decoded to %v", bad, got)
		}
	}
}

func TestSQLiteMultilineData(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.db")
	db := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
	logforms.InsertSession(t, db, logforms.SplitLines([]byte(logforms.JSONL(logforms.Header, logforms.Event(0, "turn/start")))))
	if _, err := db.Exec("UPDATE events SET data = '{\n  \"a\": 1\n}', surface_op = '{\"op\":\r\n\"append\"}'"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	got, _, _, err := containertest.Read(container.Open(p, container.Options{}))
	if err != nil || string(got[1]) != `{"type":"turn/start","seq":0,"time":0,"data":{"a":1},"surfaceOp":{"op":"append"}}` {
		t.Fatalf("%s %v", got, err)
	}
}

// The reader's constants are the ones the writers use.
var _ = [1]int{}[sqliteApplicationID-logforms.ApplicationID+sqliteUserVersion-logforms.UserVersion]

// FuzzSourceEventSeqs: the varint/ZigZag decoder never panics, and what it
// accepts is canonical: encoding the decoded seqs gives back the input.
func FuzzSourceEventSeqs(f *testing.F) {
	f.Add(logforms.EncodeSeqs([]uint64{5, 3, 3, 9007199254740991, 0}))
	f.Add([]byte{0x80, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		seqs, ok := decodeSourceEventSeqs(b)
		if !ok {
			return
		}
		for _, s := range seqs {
			if s > sessionlog.MaxSafeInteger {
				t.Fatalf("decoded %d", s)
			}
		}
		if again := logforms.EncodeSeqs(seqs); !bytes.Equal(again, b) {
			t.Fatalf("% x decodes to %v, which encodes to % x", b, seqs, again)
		}
	})
}

// TestSQLiteReadOnly reads WAL and rollback databases, closed (in a
// directory the reader cannot write) and open by an owner with commits
// still in its WAL, and checks that the read sees every committed row and
// leaves the directory as it was: no -wal, -shm or journal of the reader's.
// As root it runs the reads as nobody (setpriv), where a read-only
// directory is one; it skips when neither is possible.
func TestSQLiteReadOnly(t *testing.T) {
	if p := os.Getenv("DSHTEST_SQLITE_READ"); p != "" {
		// The child: read the database and print its line count.
		got, _, _, err := containertest.Read(container.Open(p, container.Options{Session: "s1"}))
		if err != nil {
			fmt.Println("refused:", err)
			return
		}
		fmt.Printf("lines %d\n", len(got))
		return
	}
	asReader := readerCommand(t)
	text := logforms.JSONL(logforms.Cat([]string{logforms.Header}, logforms.Turn(0), logforms.Turn(4))...)
	for _, mode := range []string{"wal", "delete"} {
		for _, open := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/owner-open=%v", mode, open), func(t *testing.T) {
				tmp := t.TempDir()
				os.Chmod(tmp, 0o755) // and its parent: the reader may not be root
				os.Chmod(filepath.Dir(tmp), 0o755)
				dir := filepath.Join(tmp, "ro")
				os.Mkdir(dir, 0o755)
				p := filepath.Join(dir, "s.db")
				owner := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
				if _, err := owner.Exec("PRAGMA journal_mode = " + mode); err != nil {
					t.Fatal(err)
				}
				if _, err := owner.Exec("PRAGMA wal_autocheckpoint = 0"); err != nil {
					t.Fatal(err)
				}
				logforms.InsertSession(t, owner, logforms.SplitLines([]byte(text)))
				if !open {
					owner.Close()
					os.Chmod(p, 0o444)
					os.Chmod(dir, 0o555)
					defer os.Chmod(dir, 0o755)
				} else {
					defer owner.Close()
					os.Chmod(dir, 0o777) // a shared folder
					os.Chmod(p, 0o666)
				}
				before := listing(t, dir)
				out, err := asReader(p).CombinedOutput()
				if err != nil || !strings.HasPrefix(string(out), "lines 9\n") {
					t.Fatalf("read: %v: %s", err, out)
				}
				if after := listing(t, dir); after != before {
					t.Fatalf("the read changed the directory:\nbefore %s\nafter  %s", before, after)
				}
				if open {
					if _, err := owner.Exec(`INSERT INTO events VALUES ('s1', 9, 'x/y', 0, '{}', NULL, NULL, NULL)`); err != nil {
						t.Fatalf("the owner cannot write after the read: %v", err)
					}
				}
			})
		}
	}
}

// readerCommand returns how to run this test's child read of a database as
// a user who is not root.
func readerCommand(t *testing.T) func(db string) *exec.Cmd {
	self, err := os.Executable()
	if err != nil {
		t.Skip("no test binary to run:", err)
	}
	args := []string{"-test.run=^TestSQLiteReadOnly$"}
	if os.Getuid() != 0 {
		return func(db string) *exec.Cmd {
			c := exec.Command(self, args...)
			c.Env = append(os.Environ(), "DSHTEST_SQLITE_READ="+db)
			return c
		}
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("running as root without setpriv: a read-only directory is not one to root")
	}
	// The test binary's directory is root's alone: give nobody a copy.
	tmp := t.TempDir()
	os.Chmod(tmp, 0o755)
	os.Chmod(filepath.Dir(tmp), 0o755)
	bin := filepath.Join(tmp, "bin")
	os.Mkdir(bin, 0o755)
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(bin, "sqlite.test")
	if err := os.WriteFile(copyPath, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", copyPath, "-test.run=^$").CombinedOutput(); err != nil {
		t.Skipf("setpriv cannot run the test as nobody: %v: %s", err, out)
	}
	return func(db string) *exec.Cmd {
		c := exec.Command(setpriv, append([]string{"--reuid=nobody", "--regid=nogroup", "--clear-groups", copyPath}, args...)...)
		c.Env = append(os.Environ(), "DSHTEST_SQLITE_READ="+db, "TMPDIR=/tmp")
		return c
	}
}

// listing is a directory's names, sizes, owners and modes.
func listing(t *testing.T, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fi, _ := os.Lstat(filepath.Join(dir, e.Name()))
		st := fi.Sys().(*syscall.Stat_t)
		fmt.Fprintf(&b, "%s %v uid=%d; ", e.Name(), fi.Mode(), st.Uid)
	}
	return b.String()
}

// blobBomb is a zstd BLOB of a JSON object of mib MiB, a few kilobytes
// compressed.
func blobBomb(mib int) []byte {
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
	w.Write([]byte(`{"x":"`))
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	for range mib {
		w.Write(chunk)
	}
	w.Write([]byte(`"}`))
	w.Close()
	return buf.Bytes()
}

// TestSQLiteBlobOverTextCap: a BLOB is inflated no further than the text
// left under the text cap, even under a line cap of gigabytes: it is the
// text cap's refusal, at the cost of the cap (the BLOB was once inflated
// whole first: 2.1 GB for a 34 KB BLOB of 1 GiB).
func TestSQLiteBlobOverTextCap(t *testing.T) {
	const textCap = 1 << 20
	p := filepath.Join(t.TempDir(), "s.db")
	db := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
	logforms.InsertSession(t, db, logforms.SplitLines([]byte(logforms.JSONL(logforms.Header, logforms.Event(0, "turn/start")))))
	if _, err := db.Exec(`INSERT INTO events VALUES ('s1', 1, 'x/y', 0, ?, NULL, NULL, 1)`, blobBomb(128)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lg, err := container.Open(p, container.Options{Session: "s1", MaxLine: 1 << 30, MaxText: textCap})
	if err != nil {
		t.Fatal(err)
	}
	for lg.Next() {
	}
	lg.Close()
	runtime.ReadMemStats(&after)
	if !errors.Is(lg.Err(), sessionlog.ErrTextTooLong) {
		t.Fatalf("err %v, want the text over the text cap", lg.Err())
	}
	// The database's open and its reader take about 8 MiB of it.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16*textCap {
		t.Fatalf("the refusal allocated %d bytes, over 16 times the %d-byte text cap", alloc, textCap)
	}
}

// TestSQLiteRowOverLineCap: a data column over the line cap is refused as a
// JSONL line over it is, wherever the row is, and costs no more than the
// cap: a BLOB that inflates to 128 MiB (item: a zstd bomb) and a TEXT row
// of twice the cap.
func TestSQLiteRowOverLineCap(t *testing.T) {
	const lineCap = 1 << 20
	bomb := func() any { return blobBomb(128) }
	cases := []struct {
		name string
		data func() any
	}{
		{"zstd BLOB of 128 MiB", bomb},
		{"TEXT of twice the cap", func() any { return `{"x":"` + strings.Repeat("a", 2*lineCap) + `"}` }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.db")
			db := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
			logforms.InsertSession(t, db, logforms.SplitLines([]byte(logforms.JSONL(logforms.Header, logforms.Event(0, "turn/start")))))
			if _, err := db.Exec(`INSERT INTO events VALUES ('s1', 1, 'x/y', 0, ?, NULL, NULL, 1)`, c.data()); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO events VALUES ('s1', 2, 'turn/end', 0, '{}', NULL, NULL, NULL)`); err != nil {
				t.Fatal(err)
			}
			db.Close()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			lg, err := container.Open(p, container.Options{Session: "s1", MaxLine: lineCap})
			if err != nil {
				t.Fatal(err)
			}
			for lg.Next() {
			}
			lg.Close()
			runtime.ReadMemStats(&after)
			if !errors.Is(lg.Err(), sessionlog.ErrTooLong) || !strings.Contains(lg.Err().Error(), "s.db!s1:3: row is longer than the 1048576-byte line limit (seq 1)") {
				t.Fatalf("err %v, want the row over the line limit", lg.Err())
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*lineCap {
				t.Fatalf("the refusal allocated %d bytes, over 8 times the %d-byte cap", alloc, lineCap)
			}
		})
	}
}

// TestSQLiteSchema: events and sessions must be schema 17's STRICT tables,
// keyed as it keys them; a view in their place (a recursive one made check run without end while
// its sort filled the disk) or a generated column is refused at once.
func TestSQLiteSchema(t *testing.T) {
	cases := []struct{ name, edit, err string }{
		{"recursive view", `ALTER TABLE events RENAME TO ev;
			CREATE VIEW events AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n+1 FROM r)
			SELECT 's1' AS session_id, n AS seq, 'x/y' AS type, 0 AS time, zeroblob(900000000) AS data,
			NULL AS source_event_seqs, NULL AS surface_op, 1 AS ignorable FROM r`, "session database's events is a view, not a table"},
		{"no sessions", `DROP TABLE sessions`, "session database has no sessions table"},
		{"not strict", `DROP TABLE sessions; CREATE TABLE sessions (id TEXT PRIMARY KEY, version INTEGER, created_at INTEGER,
			cwd TEXT, parent_session TEXT, seed_length INTEGER, origin TEXT, delegation_depth INTEGER, agent_preset TEXT)`, "sessions table is not STRICT"},
		{"generated column", `DROP TABLE events; CREATE TABLE events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
			time INTEGER NOT NULL, source_event_seqs ANY, surface_op TEXT, ignorable INTEGER,
			data ANY GENERATED ALWAYS AS (zeroblob(900000000)) VIRTUAL) STRICT`, `generated or hidden column "data"`},
		// Without its key, each page of events scanned and sorted the whole table.
		{"events without a key", `DROP TABLE events; CREATE TABLE events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
			time INTEGER NOT NULL, data ANY NOT NULL, source_event_seqs ANY, surface_op TEXT, ignorable INTEGER) STRICT`,
			"events table's primary key is not (session_id, seq)"},
		{"events keyed the other way", `DROP TABLE events; CREATE TABLE events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
			time INTEGER NOT NULL, data ANY NOT NULL, source_event_seqs ANY, surface_op TEXT, ignorable INTEGER,
			PRIMARY KEY (seq, session_id)) STRICT`, "events table's primary key is not (session_id, seq)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.db")
			db := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
			logforms.InsertSession(t, db, logforms.SplitLines([]byte(logforms.JSONL(logforms.Header, logforms.Event(0, "turn/start")))))
			if _, err := db.Exec(c.edit); err != nil {
				t.Fatal(err)
			}
			db.Close()
			_, err := container.Open(p, container.Options{Session: "s1"})
			containertest.Check(t, "open", nil, err, containertest.Want{Err: c.err})
			_, err = store.List(p)
			containertest.Check(t, "list", nil, err, containertest.Want{Err: c.err})
		})
	}
}

// TestSQLiteCommitDuringCopy: the owner commits (and, in WAL mode,
// checkpoints) between the steps of the reader's copy: the commit
// succeeds, the copy is taken again, the read is the state before or after
// the commit (never torn) and nothing is created beside the database.
func TestSQLiteCommitDuringCopy(t *testing.T) {
	for _, mode := range []string{"wal", "delete"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "s.db")
			owner := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
			defer owner.Close()
			if _, err := owner.Exec("PRAGMA journal_mode = " + mode); err != nil {
				t.Fatal(err)
			}
			const n = 50
			var events []string
			for i := 0; i < n; i++ {
				events = append(events, logforms.Event(i, "x/y"))
			}
			logforms.InsertSession(t, owner, logforms.SplitLines([]byte(logforms.JSONL(append([]string{logforms.Header}, events...)...))))
			if mode == "wal" {
				if _, err := owner.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
					t.Fatal(err)
				}
			}
			before := listing(t, dir)
			copies := 0
			copied = func(step string) {
				if step != "db" {
					return
				}
				copies++
				if copies > 1 {
					return
				}
				if _, err := owner.Exec(`INSERT INTO events VALUES ('s1', ?, 'x/y', 0, '{}', NULL, NULL, NULL)`, n); err != nil {
					t.Errorf("the owner's commit during the copy failed: %v", err)
				}
				if mode == "wal" {
					if _, err := owner.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
						t.Errorf("the owner's checkpoint during the copy failed: %v", err)
					}
				}
			}
			defer func() { copied = func(string) {} }()
			lg, err := container.Open(p, container.Options{Session: "s1"})
			if err != nil {
				t.Fatal(err)
			}
			lines := 0
			for lg.Next() {
				lines++
			}
			lg.Close()
			if lg.Err() != nil {
				t.Fatalf("read: %v", lg.Err())
			}
			if copies < 2 {
				t.Errorf("the copy was taken %d times; a commit during it must retake it", copies)
			}
			if lines != 1+n && lines != 1+n+1 {
				t.Errorf("read %d lines: neither the state before (%d) nor after (%d) the commit", lines, 1+n, 1+n+1)
			}
			var rows int
			if err := owner.QueryRow("SELECT count(*) FROM events").Scan(&rows); err != nil || rows != n+1 {
				t.Errorf("the owner holds %d rows (%v), want %d", rows, err, n+1)
			}
			if after := listing(t, dir); after != before {
				t.Errorf("beside the database: %s, was %s", after, before)
			}
		})
	}
}

// TestSQLiteNoTempDir: a temporary directory the consistent copy cannot be
// made in is named in the refusal, with the variable that chooses another.
func TestSQLiteNoTempDir(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.db")
	db := logforms.NewDB(t, p, sqliteApplicationID, sqliteUserVersion)
	logforms.InsertSession(t, db, logforms.SplitLines([]byte(logforms.JSONL(logforms.Header, logforms.Event(0, "turn/start")))))
	db.Close()
	missing := filepath.Join(t.TempDir(), "gone")
	t.Setenv("TMPDIR", missing)
	_, err := container.Open(p, container.Options{Session: "s1"})
	if err == nil || !strings.Contains(err.Error(), "cannot copy the database to the temporary directory "+missing+" (set TMPDIR to another)") {
		t.Fatalf("err %v, want the temporary directory named", err)
	}
}
