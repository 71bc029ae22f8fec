package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/header"
	"github.com/dshtest/dshtest/sessionlog/store"
)

// scriptTB lets the logforms writers, which take a testing.TB, fail a
// script instead: they call only Fatal, Fatalf and Helper.
type scriptTB struct {
	testing.TB
	ts *testscript.TestScript
}

func (s scriptTB) Helper()                   {}
func (s scriptTB) Fatal(args ...any)         { s.ts.Fatalf("%v", args...) }
func (s scriptTB) Fatalf(f string, a ...any) { s.ts.Fatalf(f, a...) }

func srcLines(ts *testscript.TestScript, src string) [][]byte {
	b, err := os.ReadFile(ts.MkAbs(src))
	ts.Check(err)
	return logforms.SplitLines(b)
}

func cmdZstdLog(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: zstdlog SRC DST N")
	}
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), logforms.WriteZstd(scriptTB{ts: ts}, srcLines(ts, args[0]), n), 0o644))
}

func cmdZstdWhole(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: zstdwhole SRC DST")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), logforms.ZstdWhole(scriptTB{ts: ts}, b), 0o644))
}

func cmdZipExport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: zipexport SRC DST [SUB]")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	sub := ""
	if len(args) == 3 {
		sub = container.SanitizeExportID(args[2])
	}
	logforms.WriteZip(scriptTB{ts: ts}, ts.MkAbs(args[1]), b, sub)
}

func cmdSQLiteDB(ts *testscript.TestScript, neg bool, args []string) {
	if neg || (len(args) != 2 && len(args) != 4) {
		ts.Fatalf("usage: sqlitedb SRC DST [APPID VERSION]")
	}
	app, ver := logforms.ApplicationID, logforms.UserVersion
	if len(args) == 4 {
		a, err1 := strconv.ParseInt(args[2], 0, 64)
		v, err2 := strconv.Atoi(args[3])
		ts.Check(err1)
		ts.Check(err2)
		app, ver = int(a), v
	}
	tb := scriptTB{ts: ts}
	db := logforms.NewDB(tb, ts.MkAbs(args[1]), app, ver)
	logforms.InsertSession(tb, db, srcLines(ts, args[0]))
	ts.Check(db.Close())
}

func cmdStoreLog(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: storelog SRC STORE")
	}
	lines := srcLines(ts, args[0])
	h, err := header.Parse(lines[0])
	ts.Check(err)
	p, err := store.SessionPath(ts.MkAbs(args[1]), h.CWD, h.ID, true)
	ts.Check(err)
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	ts.Check(os.WriteFile(p, logforms.WriteZstd(scriptTB{ts: ts}, lines, 4), 0o644))
}

func cmdCutBytes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cutbytes FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b[:len(b)-n], 0o644))
}

func cmdFlipByte(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: flipbyte FILE OFFSET")
	}
	off, err := strconv.Atoi(args[1])
	ts.Check(err)
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	if off < 0 {
		off += len(b)
	}
	b[off] ^= 0xFF
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
}

func cmdBOM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: bom FILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), append([]byte("\xEF\xBB\xBF"), b...), 0o644))
}
