package load_test

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/dshtest/dshtest/load"
)

// TestStdin: standard input is read once, into a spool every Open reads
// again; refusals call the log "-", and Close removes the spool.
func TestStdin(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // count only this test's spools
	for _, tc := range []struct {
		name string
		in   func() *load.Stdin
		want string // each Open's error
	}{
		{"log", func() *load.Stdin { return load.NewStdin(strings.NewReader(head + "\n")) }, ""},
		{"bad log", func() *load.Stdin { return load.NewStdin(strings.NewReader(badReplace)) },
			"-:3: surface replace: start seq 5 not found in surface (seq 2)"},
		{"read fails", func() *load.Stdin { return load.NewStdin(iotest.ErrReader(errors.New("boom"))) },
			"-: cannot read standard input: boom"},
		{"nil reads as empty", func() *load.Stdin { return load.NewStdin(nil) }, "-:1: empty log: no events"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.in()
			for i := range 2 { // the second Open reads the spool, not the drained input
				f, err := s.Open(load.Options{})
				if err == nil {
					_, err = f.Collect(true)
					f.Close()
				}
				if got := errText(err); got != tc.want {
					t.Fatalf("open %d: %q, want %q", i+1, got, tc.want)
				}
				if tc.name == "read fails" {
					break // a failed copy is not read again
				}
			}
			spools := spoolsOf(t)
			made := 1 // the spool, removed by Close
			if tc.name == "read fails" {
				made = 0 // a failed copy leaves no file, even before Close
			}
			if len(spools) != made {
				t.Errorf("spools %v before Close, want %d", spools, made)
			}
			must(t, s.Close())
			if left := spoolsOf(t); len(left) != 0 {
				t.Errorf("spools %v after Close, %v before", left, spools)
			}
		})
	}
	if err := load.NewStdin(strings.NewReader("")).Close(); err != nil {
		t.Errorf("Close of an unread Stdin: %v", err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// spoolsOf lists the spools in the temporary directory.
func spoolsOf(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(os.TempDir())
	must(t, err)
	var names []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "dshtest-stdin-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestStdinCloseDuringCopy: Close from another goroutine (the command's
// interrupt handler) while standard input is still being copied removes
// the copy in progress, and nothing is left when the copy then ends.
func TestStdinCloseDuringCopy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	pr, pw := io.Pipe()
	s := load.NewStdin(pr)
	opened := make(chan error, 1)
	go func() {
		f, err := s.Open(load.Options{})
		if err == nil {
			f.Close()
		}
		opened <- err
	}()
	// A write returns once the copy has read it: the spool exists.
	if _, err := pw.Write([]byte(head + "\n")); err != nil {
		t.Fatal(err)
	}
	if got := spoolsOf(t); len(got) != 1 {
		t.Fatalf("spools during the copy: %v, want one", got)
	}
	must(t, s.Close())
	if got := spoolsOf(t); len(got) != 0 {
		t.Errorf("spools after Close during the copy: %v", got)
	}
	pw.Close()
	<-opened // the copy ends into the removed file; its Open may fail
	must(t, s.Close())
	if got := spoolsOf(t); len(got) != 0 {
		t.Errorf("spools after the copy ended: %v", got)
	}
}

// TestStdinCloseBeforeCopy: a Close that lands before the copy has made
// its file (an interrupt at the start of the command) leaves no file to
// make: the copy is refused and nothing appears in the temporary
// directory. The file was once made before its path was recorded, and an
// interrupt between the two left it behind.
func TestStdinCloseBeforeCopy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	s := load.NewStdin(strings.NewReader(head + "\n"))
	must(t, s.Close())
	if f, err := s.Open(load.Options{}); err == nil {
		f.Close()
		t.Fatal("a closed standard input was copied")
	}
	if got := spoolsOf(t); len(got) != 0 {
		t.Errorf("spools after a Close before the copy: %v", got)
	}
}
