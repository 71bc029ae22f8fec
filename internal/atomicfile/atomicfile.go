// Package atomicfile writes files so that a reader never sees a torn one:
// the data goes to a temporary file in the target's directory, is synced,
// and is renamed over the target, and the directory is synced so that the
// rename survives a crash. Fixtures, recorded scenarios and minimized logs
// are written this way.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Mode is the permission of every file Write creates.
const Mode fs.FileMode = 0o644

// Write writes data to path atomically. path's directory must exist. On
// error the target is unchanged, no temporary file is left behind, and the
// error names path (never the temporary file) and wraps the cause, so that
// errors.Is(err, fs.ErrPermission) and the like work.
func Write(path string, data []byte) (err error) {
	fail := func(err error) error {
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe):
			err = pe.Err
		case errors.As(err, &le):
			err = le.Err
		}
		return fmt.Errorf("atomicfile: write %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fail(err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(Mode); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fail(err)
	}
	if d, err := os.Open(dir); err == nil {
		// A directory that cannot be synced (some file systems refuse)
		// does not make the write fail: the rename has happened.
		_ = d.Sync()
		d.Close()
	}
	return nil
}
