// Package cli implements the dshtest command line: the scenario runner and
// recorder (run, record), the triage tools for a user's session log (repro,
// render, view, check, events, history), and their exit codes.
//
// Run is the whole program; main only passes it the process's arguments,
// standard streams and environment, so tests can run it in-process as well
// as through the built binary.
//
// Exit codes: 0 when everything held, 1 when a check failed (a scenario, an
// invariant, a refused recording), 2 for a usage error or bad input (a
// missing, empty or malformed log), in which case nothing is written.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/display"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitFail  = 1
	ExitUsage = 2
)

// errFailed is returned by a command that has already printed why a check
// failed; it maps to ExitFail and prints nothing more.
var errFailed = errors.New("check failed")

// failf returns an error that maps to ExitFail and is printed.
func failf(format string, args ...any) error {
	return &exitError{code: ExitFail, err: fmt.Errorf(format, args...)}
}

// usagef returns an error that maps to ExitUsage.
func usagef(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...), usage: true}
}

// lineLimit is the refusal of a line over --max-line-bytes, or of a text
// over --max-text-bytes, with how to raise the limit after it. Like every
// refusal of a log it exits with ExitUsage.
type lineLimit struct {
	err   *sessionlog.Error
	flag  string
	limit int64
	what  string
}

func (e *lineLimit) Error() string {
	return fmt.Sprintf("%v; --%s %d is the limit; raise it to read the %s", e.err, e.flag, e.limit, e.what)
}

func (e *lineLimit) Unwrap() error { return e.err }

// exitError carries an exit code. Errors of any other type exit with
// ExitUsage: they are bad input or an environment the command cannot work in.
type exitError struct {
	code  int
	err   error
	usage bool // a command-line mistake: point at --help
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// app is one invocation's streams and environment.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	env            map[string]string
	restore        func()      // undoes what a command set for the process (its memory budget)
	stdinLog       *load.Stdin // standard input read as LOG "-"; its spool is removed at the end
	stdinGuard     func()      // ends the guard that removes that spool on an interrupt (signals.go)
}

// getenv returns the value of key in the invocation's environment.
func (a *app) getenv(key string) string { return a.env[key] }

// isTTY reports whether w is a terminal that can take a live progress line.
func (a *app) isTTY(w io.Writer) bool {
	f, ok := underlying(w).(*os.File)
	if !ok || a.getenv("TERM") == "dumb" {
		return false
	}
	return term.IsTerminal(f.Fd())
}

// warnf prints a one-line warning to standard error.
func (a *app) warnf(format string, args ...any) {
	fmt.Fprintf(a.stderr, "dshtest: warning: %s\n", oneLine(fmt.Sprintf(format, args...)))
}

// printWarnings prints what the reader warned of.
func (a *app) printWarnings(lg *load.Log) {
	for _, w := range lg.Warnings {
		a.warnf("%s", w)
	}
}

// Run runs dshtest with args (the arguments after the program name) and
// returns the process exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, env []string) int {
	out := &outWriter{w: stdout}
	a := &app{stdin: stdin, stdout: out, stderr: stderr, env: envMap(env), stdinLog: load.NewStdin(stdin)}
	defer startProfiles(a.env, stderr)()
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if a.restore != nil {
		a.restore()
	}
	a.releaseStdin()
	a.stdinLog.Close()
	if out.err != nil {
		if errors.Is(out.err, syscall.EPIPE) {
			// The reader went away: nothing to say, as when SIGPIPE ends
			// the process (which it does unless the guard of a copy of
			// standard input catches it, and the write fails first).
			return ExitBrokenPipe
		}
		fmt.Fprintln(stderr, writeFailed(out.err))
		return ExitUsage
	}
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, errFailed) {
		return ExitFail
	}
	var ee *exitError
	code := ExitUsage
	usage := true // errors cobra returns itself are command-line mistakes
	if errors.As(err, &ee) {
		code, usage = ee.code, ee.usage
	} else if isOurs(err) {
		usage = false
	}
	msg := "dshtest: " + oneLine(err.Error())
	if usage && cmd != nil {
		msg += fmt.Sprintf(" (see '%s --help')", cmd.CommandPath())
	}
	fmt.Fprintln(stderr, msg)
	return code
}

// ours marks errors returned by a command's own RunE, as opposed to the
// argument and flag errors cobra produces.
type ours struct{ error }

func (o ours) Unwrap() error { return o.error }

func isOurs(err error) bool {
	var o ours
	return errors.As(err, &o)
}

// runE adapts a command body so that its errors are told apart from cobra's.
func runE(f func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := f(cmd, args); err != nil {
			var ee *exitError
			if errors.Is(err, errFailed) || errors.As(err, &ee) {
				return err
			}
			return ours{err}
		}
		return nil
	}
}

func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// oneLine makes s safe to print as one line (display.OneLine).
func oneLine(s string) string { return display.OneLine(s) }

// argsUsage wraps a cobra positional-argument validator so that its error is
// a usage error.
func argsUsage(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return usagef("%v", err)
		}
		return nil
	}
}
