package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/testkit/hostile"
)

// TestHardening runs testdata/hardening/*.txtar: the attacks the command
// must withstand (hostile logs, file-system tricks, interruptions, failed
// writes) against the built command. Scripts have the commands of
// TestScript and:
//
//	hostile IN OUT     write OUT: the log IN with the payload (ESC, OSC, CSI,
//	                   C1, BiDi, BOM, separators, tags, DEL) appended to every
//	                   string that is not an enum, a header line whose id
//	                   carries it, and an ignorable event whose type does;
//	                   $EVIL is set to a copy of OUT whose file name carries
//	                   it too
//	devfull N PROG ARGS...  run PROG with standard output on /dev/full (its
//	                   standard error is kept as stderr) and require exit
//	                   status N
//	fits W FILE        every line of FILE is at most W cells as a terminal
//	                   that measures by code point (wcwidth) draws it
//	unnest IN OUT      copy IN to OUT with every line ">> NAME <<" turned
//	                   into the file marker "-- NAME --" (an archive inside
//	                   an archive)
//	mode FILE PERM     FILE's permission bits are PERM (octal)
//	notemp DIR...      no temporary file of ours (safefile's naming) and no
//	                   dshtest-record-* scratch directory is left in DIR
//	clean [-sgr] FILE...  FILE (stdout, stderr or a path) holds no byte of C0
//	                   but LF, no DEL, no C1, no reordering character and no
//	                   invalid UTF-8; -sgr first removes SGR sequences (the
//	                   renderer's own styling)
func TestHardening(t *testing.T) {
	testscript.Run(t, scriptParams(t, "hardening", map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"hostile": cmdHostile,
		"clean":   cmdClean,
		"devfull": cmdDevFull,
		"mode":    cmdMode,
		"unnest":  cmdUnnest,
		"fits":    cmdFits,
		"notemp":  cmdNoTemp,
	}))
}

func cmdHostile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hostile IN OUT")
	}
	in, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	out, err := hostile.Log(in)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out, 0o644))
	evil := ts.MkAbs("evil-\x1b]0;T\x07\u009b\u202e.jsonl")
	ts.Check(os.WriteFile(evil, out, 0o644))
	ts.Setenv("EVIL", evil)
}

func cmdClean(ts *testscript.TestScript, neg bool, args []string) {
	sgr := false
	if len(args) > 0 && args[0] == "-sgr" {
		sgr, args = true, args[1:]
	}
	if len(args) == 0 {
		ts.Fatalf("usage: clean [-sgr] FILE...")
	}
	for _, name := range args {
		text := ts.ReadFile(name)
		if sgr {
			text = hostile.StripSGR(text)
		}
		err := hostile.Check(text)
		switch {
		case err != nil && !neg:
			ts.Fatalf("%s: %v", name, err)
		case err == nil && neg:
			ts.Fatalf("%s: clean, want a byte the rule forbids", name)
		}
	}
}

func cmdDevFull(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: devfull N PROG ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		ts.Fatalf("no /dev/full: %v", err)
	}
	defer full.Close()
	prog, err := exec.LookPath(args[1])
	ts.Check(err)
	var stderr bytes.Buffer
	cmd := exec.Command(prog, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Stdout, cmd.Stderr = full, &stderr
	err = cmd.Run()
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	ts.Logf("[stderr]\n%s", stderr.String())
	ts.Check(os.WriteFile(ts.MkAbs("devfull.stderr"), stderr.Bytes(), 0o644))
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func cmdMode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mode FILE PERM")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fi.Mode().Perm(); uint64(got) != want {
		ts.Fatalf("%s: mode %#o, want %#o", args[0], got, want)
	}
}

func cmdNoTemp(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: notemp DIR...")
	}
	for _, dir := range args {
		err := filepath.WalkDir(ts.MkAbs(dir), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if _, ok := safefile.TempOwner(d.Name()); ok || strings.HasPrefix(d.Name(), "dshtest-record-") {
				ts.Fatalf("left behind: %s", path)
			}
			return nil
		})
		ts.Check(err)
	}
}

func cmdFits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fits W FILE")
	}
	w, err := strconv.Atoi(args[0])
	ts.Check(err)
	cond := runewidth.NewCondition()
	cond.EastAsianWidth = false
	for i, l := range strings.Split(ts.ReadFile(args[1]), "\n") {
		n := 0
		for _, r := range l {
			n += cond.RuneWidth(r)
		}
		if n > w {
			ts.Fatalf("%s line %d is %d cells, more than %d: %+q", args[1], i+1, n, w, l)
		}
	}
}

var nestedMarker = regexp.MustCompile(`(?m)^>> (\S+) <<$`)

func cmdUnnest(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unnest IN OUT")
	}
	out := nestedMarker.ReplaceAllString(ts.ReadFile(args[0]), "-- $1 --")
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o644))
}
