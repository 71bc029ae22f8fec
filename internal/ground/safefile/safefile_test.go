package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestRule(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "real.jsonl")
	must(t, os.WriteFile(in, []byte("input\n"), 0o644))
	must(t, os.Symlink("real.jsonl", filepath.Join(dir, "alias.jsonl")))
	must(t, os.Link(in, filepath.Join(dir, "hard.jsonl")))
	must(t, os.WriteFile(filepath.Join(dir, "other"), []byte("other\n"), 0o600))
	must(t, os.Symlink("other", filepath.Join(dir, "link")))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	inputs := []string{filepath.Join(dir, "alias.jsonl")} // the input as the user spelled it
	for _, tc := range []struct {
		target string
		force  bool
		want   error
	}{
		{"real.jsonl", true, ErrInput},
		{"./real.jsonl", true, ErrInput},
		{"hard.jsonl", true, ErrInput},
		{"alias.jsonl", true, ErrInput},
		{"other", false, ErrExists},
		{"other", true, nil},
		{"link", true, ErrSymlink},
		{"sub", true, ErrNotRegular},
		{"missing/x", true, ErrNoDir},
		{"new", false, nil},
	} {
		path := filepath.Join(dir, tc.target)
		err := WriteFile(path, []byte("new\n"), Options{Force: tc.force, Inputs: inputs})
		if !errors.Is(err, tc.want) {
			t.Errorf("%s (force %v): got %v, want %v", tc.target, tc.force, err, tc.want)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), tempInfix) {
				t.Errorf("%s: error %q should name the path and not a temporary file", tc.target, err)
			}
			continue
		}
		fi, err := os.Lstat(path)
		must(t, err)
		if fi.Mode() != Mode {
			t.Errorf("%s: mode %v, want %v", tc.target, fi.Mode(), Mode)
		}
	}
	if b, _ := os.ReadFile(in); string(b) != "input\n" {
		t.Errorf("the input was replaced: %q", b)
	}
	if fi, _ := os.Lstat(filepath.Join(dir, "link")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "other")); string(b) != "new\n" {
		t.Errorf("--force did not replace: %q", b)
	}
	assertNoTemp(t, dir)
}

func TestDevice(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	err := WriteFile("/dev/null", []byte("x"), Options{Force: true})
	if !errors.Is(err, ErrNotRegular) {
		t.Fatalf("got %v, want ErrNotRegular", err)
	}
}

func TestCheckBeforeWork(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	tg, err := Check(path, Options{})
	must(t, err)
	assertNoTemp(t, dir)
	// A file that appears between the check and the write is not replaced.
	must(t, os.WriteFile(path, []byte("theirs"), 0o644))
	if err := tg.Write([]byte("ours")); !errors.Is(err, ErrExists) {
		t.Fatalf("got %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "theirs" {
		t.Fatalf("replaced: %q", b)
	}
	assertNoTemp(t, dir)
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	dead := "." + "x.screen" + tempInfix + "999999999-123"
	live := "." + "y.screen" + tempInfix + strconv.Itoa(os.Getppid()) + "-123"
	mine := "." + "z.screen" + tempInfix + strconv.Itoa(os.Getpid()) + "-123"
	for _, n := range []string{dead, live, mine, "keep.screen", ".other.tmp"} {
		must(t, os.WriteFile(filepath.Join(dir, n), nil, 0o644))
	}
	got, err := Sweep(dir)
	must(t, err)
	if len(got) != 1 || got[0] != dead {
		t.Fatalf("swept %v, want [%s]", got, dead)
	}
	for _, n := range []string{live, mine, "keep.screen", ".other.tmp"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s removed", n)
		}
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := TempOwner(e.Name()); ok {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
