package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/cli"
)

// TestMain makes this test binary double as the dshtest command, the way
// cmd/go tests itself: scripts run "dshtest" as a real process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"dshtest": func() {
			os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
		},
	})
}

// TestScript runs testdata/script/*.txtar against the built command.
//
// Scripts see $REPO (the repository root) and $TESTDATA (sessionlog's
// testdata with the worked example and upstream's compaction log),
// $WORKNAME (the base name of the script's work directory), and
// these commands besides testscript's own:
//
//	exit N PROG ARGS...      run PROG and require exit status N (stdout
//	                         and stderr are kept for later checks)
//	lines FILE N             FILE (or stdout/stderr) has exactly N lines
//	copyrepo DIR [NAME...]   copy go.mod, scenarios/ and fixtures/ to DIR;
//	                         with NAMEs, only those scenarios and the
//	                         fixtures their snapshot steps name
//	tear FILE                cut FILE's last line in half and drop its
//	                         newline (a torn final write)
//	garbage FILE N SEED      write N pseudo-random bytes
//	bigline FILE N           append one line of N bytes of non-JSON text
//	zstdlog SRC DST N        write SRC's lines as upstream's .jsonl.zstd:
//	                         a header frame, then checksummed frames of
//	                         at most N lines (cut at each turn/end)
//	zstdwhole SRC DST        write SRC as the zstd command compresses a
//	                         file: one frame of the whole log
//	zipexport SRC DST [SUB]  write a web export holding SRC (and as SUB)
//	sqlitedb SRC DST [APPID VERSION]  write SRC into a schema-17 database
//	storelog SRC STORE       put SRC in a store, as upstream's layout does
//	cutbytes FILE N          drop FILE's last N bytes
//	flipbyte FILE OFFSET     invert one byte (OFFSET < 0 counts from the end)
//	bom FILE                 prefix FILE with a UTF-8 byte-order mark
//	subst FILE OLD NEW       replace every OLD in FILE (there must be one)
//	                         by NEW: a scenario can carry an archive
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams(t, "script", nil))
}

// scriptParams are the testscript parameters of the scripts in
// testdata/DIR: $REPO, $TESTDATA and TestScript's commands, plus extra.
func scriptParams(t *testing.T, dir string, extra map[string]func(ts *testscript.TestScript, neg bool, args []string)) testscript.Params {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"exit":      cmdExit,
		"lines":     cmdLines,
		"copyrepo":  func(ts *testscript.TestScript, neg bool, args []string) { cmdCopyRepo(ts, root, args) },
		"tear":      cmdTear,
		"garbage":   cmdGarbage,
		"bigline":   cmdBigLine,
		"zstdlog":   cmdZstdLog,
		"zstdwhole": cmdZstdWhole,
		"zipexport": cmdZipExport,
		"sqlitedb":  cmdSQLiteDB,
		"storelog":  cmdStoreLog,
		"cutbytes":  cmdCutBytes,
		"flipbyte":  cmdFlipByte,
		"bom":       cmdBOM,
		"subst":     cmdSubst,
	}
	for name, cmd := range extra {
		cmds[name] = cmd
	}
	return testscript.Params{
		Dir: filepath.Join("testdata", dir),
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", root)
			env.Setenv("TESTDATA", filepath.Join(root, "sessionlog", "testdata"))
			env.Setenv("WORKNAME", filepath.Base(env.WorkDir))
			return nil
		},
		Cmds: cmds,
	}
}

func cmdExit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exit N PROG ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func cmdLines(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: lines FILE N")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	text := ts.ReadFile(args[0])
	got := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		got++
	}
	if (got == want) == neg {
		ts.Fatalf("%s has %d lines, want %s%d", args[0], got, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// cmdCopyRepo lays out a scratch checkout: the module file and the suite,
// or a part of it.
func cmdCopyRepo(ts *testscript.TestScript, root string, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: copyrepo DIR [NAME...]")
	}
	dst := ts.MkAbs(args[0])
	for _, dir := range []string{"scenarios", "fixtures"} {
		ts.Check(os.MkdirAll(filepath.Join(dst, dir), 0o755))
	}
	copyFile := func(rel string) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		ts.Check(err)
		ts.Check(os.WriteFile(filepath.Join(dst, rel), b, 0o644))
	}
	copyFile("go.mod")
	names := args[1:]
	if len(names) == 0 {
		for _, dir := range []string{"scenarios", "fixtures"} {
			entries, err := os.ReadDir(filepath.Join(root, dir))
			ts.Check(err)
			for _, e := range entries {
				if e.Type().IsRegular() {
					copyFile(filepath.Join(dir, e.Name()))
				}
			}
		}
		return
	}
	snapshot := regexp.MustCompile(`(?m)^snapshot\s+(\S+)`)
	for _, name := range names {
		rel := filepath.Join("scenarios", name+".txtar")
		copyFile(rel)
		b, err := os.ReadFile(filepath.Join(root, rel))
		ts.Check(err)
		for _, m := range snapshot.FindAllStringSubmatch(string(b), -1) {
			copyFile(filepath.Join("fixtures", m[1]+".screen"))
		}
	}
}

func cmdTear(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: tear FILE")
	}
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	b = bytes.TrimSuffix(b, []byte("\n"))
	start := bytes.LastIndexByte(b, '\n') + 1
	b = b[:start+(len(b)-start)/2]
	ts.Check(os.WriteFile(path, b, 0o644))
}

func cmdGarbage(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: garbage FILE N SEED")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	seed, err := strconv.ParseUint(args[2], 10, 64)
	ts.Check(err)
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
}

func cmdBigLine(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: bigline FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	ts.Check(err)
	line := append(bytes.Repeat([]byte("x"), n), '\n')
	_, err = f.Write(line)
	ts.Check(err)
	ts.Check(f.Close())
}

func cmdSubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: subst FILE OLD NEW")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	if !strings.Contains(string(b), args[1]) {
		ts.Fatalf("subst: %q not in %s", args[1], args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.ReplaceAll(string(b), args[1], args[2])), 0o644))
}
