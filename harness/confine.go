package harness

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/rogpeppe/go-internal/testscript"
)

// openArchiveFile opens a file a verb names (load FILE, @FILE texts): a
// regular file inside the scenario's work directory, where testscript
// unpacked the archive. An absolute path, a ".." that climbs out, or a
// symbolic link that leads out is refused by os.Root before anything is
// read, so an error never carries a byte of a file outside the scenario.
func openArchiveFile(ts *testscript.TestScript, verb, name string) (*os.File, error) {
	if filepath.IsAbs(name) {
		return nil, fmt.Errorf("%s: %s: an absolute path; name a file in the scenario's archive", verb, name)
	}
	work := ts.Getenv("WORK")
	root, err := os.OpenRoot(work)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", verb, err)
	}
	defer root.Close()
	// Paths are relative to the script's current directory, which is
	// inside the work directory.
	rel, err := filepath.Rel(work, ts.MkAbs(name))
	if err != nil || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%s: %s: outside the scenario's archive", verb, name)
	}
	f, err := root.Open(rel)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %s: outside the scenario's archive or unreadable (%v)", verb, name, pe.Err)
		}
		return nil, fmt.Errorf("%s: %s: no such file in the scenario's archive", verb, name)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %s: not a regular file", verb, name)
	}
	return f, nil
}

// readArchiveText reads an @FILE text, at most jsonl.MaxLineBytes.
func readArchiveText(ts *testscript.TestScript, verb, name string) (string, error) {
	f, err := openArchiveFile(ts, verb, name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, jsonl.MaxLineBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s: %s: %w", verb, name, err)
	}
	if len(data) > jsonl.MaxLineBytes {
		return "", fmt.Errorf("%s: %s: longer than %d bytes", verb, name, jsonl.MaxLineBytes)
	}
	return string(data), nil
}
