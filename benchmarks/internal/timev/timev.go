// Package timev measures a command as a process with GNU time's verbose
// report (/usr/bin/time -v): its wall time, peak resident set size and
// exit status. It is the one reader of that report, for the bench-shapes
// runner and the memory test.
package timev

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Path is GNU time. The shell's time keyword has no -v.
const Path = "/usr/bin/time"

// Report is what GNU time's verbose report says about one process.
type Report struct {
	// Wall is "Elapsed (wall clock) time", to GNU time's centisecond.
	Wall time.Duration
	// MaxRSS is "Maximum resident set size", in bytes.
	MaxRSS int64
	// ExitStatus is the command's exit status ("Exit status").
	ExitStatus int
	// Signal is the signal that ended the command, 0 if it exited.
	Signal int
}

// Available reports whether GNU time is installed, and why not.
func Available() error {
	fi, err := os.Stat(Path)
	if err != nil {
		return fmt.Errorf("timev: %w", err)
	}
	if fi.Mode()&0o111 == 0 {
		return fmt.Errorf("timev: %s is not executable", Path)
	}
	return nil
}

// Environ is the environment a measured process runs in: the caller's,
// without the Go runtime's knobs (GOGC, GOMEMLIMIT, GODEBUG, GOMAXPROCS),
// so that it runs with the defaults a user gets.
func Environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOGC", "GOMEMLIMIT", "GODEBUG", "GOMAXPROCS":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// Wrap rewrites cmd to run under GNU time, which writes its report to the
// file report (so that the command's own standard error stays its own).
// Call it before cmd starts; read the report with ReadReport once cmd has
// ended.
func Wrap(cmd *exec.Cmd, report string) {
	args := append([]string{Path, "-v", "-o", report, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = Path
	cmd.Args = args
	cmd.Err = nil
}

// ReadReport reads and parses the report file that a Wrap-ped command's
// GNU time wrote.
func ReadReport(path string) (Report, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return Report{}, fmt.Errorf("timev: %w", err)
	}
	r, err := Parse(text)
	if err != nil {
		return Report{}, fmt.Errorf("timev: %s: %w", path, err)
	}
	return r, nil
}

// ErrIncomplete is returned by Parse for a report without its wall time
// or its peak RSS (not GNU time's verbose report, or a truncated one).
var ErrIncomplete = errors.New("not a complete /usr/bin/time -v report")

// Parse reads GNU time's verbose report. Lines it does not know are
// skipped; the wall time and the peak RSS are required.
func Parse(text []byte) (Report, error) {
	var r Report
	var haveWall, haveRSS bool
	for _, raw := range bytes.Split(text, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		if s, ok := strings.CutPrefix(line, "Command terminated by signal "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return Report{}, fmt.Errorf("bad signal in %q", line)
			}
			r.Signal = n
			continue
		}
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch {
		case strings.HasPrefix(key, "Elapsed (wall clock) time"):
			d, err := parseClock(val)
			if err != nil {
				return Report{}, fmt.Errorf("bad wall time %q: %w", val, err)
			}
			r.Wall, haveWall = d, true
		case key == "Maximum resident set size (kbytes)":
			kb, err := strconv.ParseInt(val, 10, 64)
			if err != nil || kb < 0 {
				return Report{}, fmt.Errorf("bad peak RSS %q", val)
			}
			r.MaxRSS, haveRSS = kb<<10, true
		case key == "Exit status":
			n, err := strconv.Atoi(val)
			if err != nil {
				return Report{}, fmt.Errorf("bad exit status %q", val)
			}
			r.ExitStatus = n
		}
	}
	if !haveWall || !haveRSS {
		return Report{}, ErrIncomplete
	}
	return r, nil
}

// parseClock reads GNU time's %E: "m:ss.cc", or "h:mm:ss" from an hour on.
func parseClock(s string) (time.Duration, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, errors.New("want m:ss.cc or h:mm:ss")
	}
	var d time.Duration
	for i, p := range parts {
		unit := time.Minute
		if len(parts) == 3 {
			unit = [...]time.Duration{time.Hour, time.Minute, time.Second}[i]
		} else if i == 1 {
			unit = time.Second
		}
		if i < len(parts)-1 {
			n, err := strconv.ParseUint(p, 10, 32)
			if err != nil {
				return 0, err
			}
			d += time.Duration(n) * unit
			continue
		}
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || f >= 60 {
			return 0, errors.New("bad seconds")
		}
		d += time.Duration(f * float64(unit))
	}
	return d, nil
}
