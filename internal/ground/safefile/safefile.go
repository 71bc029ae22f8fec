// Package safefile writes the files dshtest produces (minimized logs,
// emitted scenarios, fixtures, pending screens, reports) by one rule:
//
//   - it never replaces an input, whatever the spelling of its path: the
//     target is compared with every input by device and inode;
//   - it refuses to replace an existing file unless Force is set, and
//     refuses a symbolic link or anything that is not a regular file;
//   - the target's directory is checked (it exists and takes a new file)
//     by Check, before the work that produces the data starts;
//   - the data is written atomically: a temporary file in the same
//     directory, fsync, rename over the target, fsync of the directory; the
//     file's mode is 0644;
//   - an error names the user's path, never the temporary file.
//
// Temporary files are named ".NAME.dshtest-tmp-PID-RANDOM"; Sweep removes
// those a process that is no longer running left behind.
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Mode is the mode of every file written.
const Mode fs.FileMode = 0o644

// Errors a caller may test with errors.Is.
var (
	ErrExists     = errors.New("file exists; --force replaces it")
	ErrInput      = errors.New("is an input of this command; refusing to replace it")
	ErrSymlink    = errors.New("is a symbolic link; refusing to replace it")
	ErrNotRegular = errors.New("is not a regular file; refusing to replace it")
	ErrNoDir      = errors.New("directory does not exist")
)

// Error is a refused or failed write. It prints as "safefile: PATH: reason"
// with the path as the user gave it.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return "safefile: " + e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Options say what a write may replace.
type Options struct {
	// Force allows replacing an existing regular file (never an input, a
	// symbolic link or a non-regular file).
	Force bool
	// Inputs are the paths the command reads; none of them is replaced,
	// however the target is spelled (a symbolic link, a hard link, "./").
	Inputs []string
}

// Target is a checked destination.
type Target struct {
	path   string
	opts   Options
	inputs []os.FileInfo
}

// Check checks path as a destination under opts, before any work: the
// directory exists and takes a new file, and the path is neither an input,
// a link nor a non-regular file, nor an existing file without Force.
func Check(path string, opts Options) (*Target, error) {
	t := &Target{path: path, opts: opts}
	for _, in := range opts.Inputs {
		if fi, err := os.Stat(in); err == nil {
			t.inputs = append(t.inputs, fi)
		}
	}
	if err := t.checkTarget(); err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: %s", ErrNoDir, dir)}
	}
	// The directory takes a new file: make one and remove it.
	f, err := createTemp(dir, filepath.Base(path))
	if err != nil {
		return nil, &Error{Path: path, Err: fmt.Errorf("directory %s: %w", dir, cause(err))}
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return t, nil
}

// checkTarget applies the rule to what is at the path now.
func (t *Target) checkTarget() error {
	fi, err := os.Lstat(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &Error{Path: t.path, Err: cause(err)}
	}
	for _, in := range t.inputs {
		if os.SameFile(fi, in) {
			return &Error{Path: t.path, Err: ErrInput}
		}
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		// A link to an input is refused as an input, to say why.
		if st, err := os.Stat(t.path); err == nil {
			for _, in := range t.inputs {
				if os.SameFile(st, in) {
					return &Error{Path: t.path, Err: ErrInput}
				}
			}
		}
		return &Error{Path: t.path, Err: ErrSymlink}
	case !fi.Mode().IsRegular():
		return &Error{Path: t.path, Err: ErrNotRegular}
	case !t.opts.Force:
		return &Error{Path: t.path, Err: ErrExists}
	}
	return nil
}

// Path returns the target's path as the user gave it.
func (t *Target) Path() string { return t.path }

// Write writes data to the target atomically with mode 0644, checking the
// rule again just before the rename.
func (t *Target) Write(data []byte) (err error) {
	dir := filepath.Dir(t.path)
	f, err := createTemp(dir, filepath.Base(t.path))
	if err != nil {
		return &Error{Path: t.path, Err: cause(err)}
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	fail := func(e error) error {
		f.Close()
		return &Error{Path: t.path, Err: cause(e)}
	}
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
		return &Error{Path: t.path, Err: cause(err)}
	}
	if err := t.checkTarget(); err != nil {
		return err
	}
	if err := os.Rename(tmp, t.path); err != nil {
		return &Error{Path: t.path, Err: cause(err)}
	}
	if err := syncDir(dir); err != nil {
		return &Error{Path: t.path, Err: fmt.Errorf("sync directory: %w", cause(err))}
	}
	return nil
}

// WriteFile is Check and Write.
func WriteFile(path string, data []byte, opts Options) error {
	t, err := Check(path, opts)
	if err != nil {
		return err
	}
	return t.Write(data)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// cause strips the *PathError or *LinkError that names a temporary file.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// tempInfix marks our temporary files.
const tempInfix = ".dshtest-tmp-"

func createTemp(dir, base string) (*os.File, error) {
	return os.CreateTemp(dir, "."+base+tempInfix+strconv.Itoa(os.Getpid())+"-*")
}

// TempOwner reports whether name (a base name) is one of our temporary
// files, and the id of the process that made it.
func TempOwner(name string) (pid int, ok bool) {
	if !strings.HasPrefix(name, ".") {
		return 0, false
	}
	i := strings.LastIndex(name, tempInfix)
	if i < 0 {
		return 0, false
	}
	rest := name[i+len(tempInfix):]
	p, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// Sweep removes from dir the temporary files of ours whose process is no
// longer running (a write that was killed), and returns their names.
func Sweep(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("safefile: sweep %s: %w", dir, cause(err))
	}
	var removed []string
	for _, e := range entries {
		pid, ok := TempOwner(e.Name())
		if !ok || !e.Type().IsRegular() || (pid != os.Getpid() && alive(pid)) {
			continue
		}
		if pid == os.Getpid() {
			continue // ours, being written now
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err == nil {
			removed = append(removed, e.Name())
		}
	}
	return removed, nil
}

// Running reports whether a process with this id runs (always true where
// it cannot tell).
func Running(pid int) bool { return alive(pid) }
