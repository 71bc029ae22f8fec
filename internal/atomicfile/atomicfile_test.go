package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.screen")
	for _, data := range []string{"first\n", "second, longer\n", ""} {
		if err := Write(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read back %q, %v; want %q", got, err, data)
		}
		st, err := os.Stat(path)
		if err != nil || st.Mode().Perm() != Mode {
			t.Fatalf("mode %v, %v; want %v", st.Mode().Perm(), err, Mode)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the target", len(entries))
	}
}

func TestWriteErrorNamesTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "missing", "a.screen")
	err := Write(path, []byte("x"))
	if err == nil {
		t.Fatal("no error writing into a missing directory")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v does not wrap fs.ErrNotExist", err)
	}
	if want := "atomicfile: write " + path + ": "; !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("error %q: want it to start %q and not name the temporary file", err, want)
	}

	// A directory in the way of the rename: the target is named, the
	// temporary file is removed.
	target := filepath.Join(dir, "dir")
	if err := os.MkdirAll(filepath.Join(target, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = Write(target, []byte("x"))
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), target) {
		t.Errorf("rename over a directory: error %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
