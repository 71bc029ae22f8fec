package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dshtest/dshtest/internal/ground/membudget"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/reader"
	_ "github.com/dshtest/dshtest/sessionlog/sqlite" // dshtest reads SQLite databases
	"github.com/dshtest/dshtest/sessionlog/store"
)

// logFlags are the reading flags every command that reads a log takes.
type logFlags struct {
	allowUnknown bool
	noRecover    bool
	session      string
	store        string
	subagent     string
	maxLine      int
	maxText      int64
}

func (f *logFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.allowUnknown, "allow-unknown", false, "read an unknown event type that is not marked ignorable as log-only")
	fs.BoolVar(&f.noRecover, "no-recover", false, "show a log that ends inside a turn as stored, without upstream's synthetic closers")
	fs.StringVar(&f.session, "session", "", "the session ID to read: from a SQLite database given as LOG, else from the store")
	fs.StringVar(&f.store, "store", "", "the session store for --session (default $DSH_HOME/sessions, else ~/.dsh/sessions)")
	fs.StringVar(&f.subagent, "subagent", "", "read the subagent ID's log of a web export zip")
	fs.IntVar(&f.maxLine, "max-line-bytes", container.DefaultMaxLine, "the longest line a log may hold, in bytes (1 to 2147483647)")
	fs.Int64Var(&f.maxText, "max-text-bytes", container.DefaultMaxText, "the most text a log may hold after decompression, in bytes (at least 1): a larger log is refused, not inflated; a SQLite database is copied to a temporary file no larger")
}

// again is the flags of a log read, as the command that reads it again
// names them (history's next page): what selects the log in LOG (a
// database's --session, an export's --subagent; fromLOG) and what changes
// its events or limits, when given. A log found in the store by --session
// is named by its path instead, which needs no selection. A boolean flag
// given false is the default, and not named.
func (f *logFlags) again(fs *pflag.FlagSet, fromLOG bool) string {
	var b strings.Builder
	for _, name := range []string{"session", "subagent", "allow-unknown", "no-recover", "max-line-bytes", "max-text-bytes"} {
		fl := fs.Lookup(name)
		if fl == nil || !fl.Changed || !fromLOG && (name == "session" || name == "subagent") {
			continue
		}
		if fl.Value.Type() == "bool" {
			if fl.Value.String() == "true" {
				b.WriteString(" --" + name)
			}
			continue
		}
		b.WriteString(" --" + name + " " + shellQuote(fl.Value.String()))
	}
	return b.String()
}

// logArgs is the positional argument rule of a command that reads a log:
// LOG, or none with --session.
var logArgs = argsUsage(func(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("accepts 1 arg(s), received %d", len(args))
	}
	if len(args) == 0 {
		if s, _ := cmd.Flags().GetString("session"); s == "" {
			return errors.New("accepts 1 arg(s), received 0 (or --session ID to read from the store)")
		}
	}
	return nil
})

// logName is what messages call the log before it is read.
func logName(args []string, f *logFlags) string {
	if len(args) > 0 {
		return args[0]
	}
	return f.session
}

// openLog opens the log the arguments name (package load): LOG, or the
// store's session of --session. budget is the command's memory budget
// (budget.go); spend has the collector wait for its limit (spendBudget);
// hold holds the file for a second read.
func (a *app) openLog(args []string, f *logFlags, budget membudget.Spec, spend, hold bool) (*load.File, error) {
	if f.maxLine < 1 || int64(f.maxLine) > math.MaxInt32 {
		return nil, usagef("--max-line-bytes %d: want 1 to %d bytes", f.maxLine, math.MaxInt32)
	}
	if f.maxText < 1 {
		return nil, usagef("--max-text-bytes %d: want a positive number of bytes", f.maxText)
	}
	opts := load.Options{Hold: hold, Read: reader.Options{Subagent: f.subagent, MaxLineBytes: f.maxLine, MaxTextBytes: f.maxText,
		AllowUnknown: f.allowUnknown, NoRecover: f.noRecover}}
	var lf *load.File
	var err error
	if len(args) > 0 {
		opts.Read.Session = f.session
		if args[0] == load.StdinName {
			a.guardStdin()
			lf, err = a.stdinLog.Open(opts)
		} else {
			lf, err = load.Open(args[0], opts)
		}
	} else {
		home, _ := os.UserHomeDir()
		dir, derr := store.Dir(f.store, a.getenv, home)
		if derr != nil {
			return nil, sessionlog.Refuse(sessionlog.LayerInput, sessionlog.NoPos, derr.Error(), derr)
		}
		lf, err = load.OpenSession(dir, f.session, opts)
	}
	if err != nil {
		return nil, a.inputErr(err, f)
	}
	b := a.startBudget(budget)
	if spend {
		a.spendBudget(b)
	}
	lf.SetBudget(b)
	return lf, nil
}

// readLog reads the log the arguments name and prints its warnings: its
// events folded and kept (load.File.Collect), or with each handed to each
// as they are read, none kept (load.File.Stream, so the Log has no
// Surface). A failure is a *sessionlog.Error naming the file and, where
// there is one, the line.
func (a *app) readLog(args []string, f *logFlags, each func(*sessionlog.Event)) (*load.Log, error) {
	return a.readLogWith(args, f, false, each, (*load.File).Stream)
}

// readLogSpending is readLog for a command whose heap comes near its
// budget anyway (render holds what it has not drawn yet): the collector waits
// for the budget's limit (spendBudget) instead of collecting at every
// doubling of a heap still small.
func (a *app) readLogSpending(args []string, f *logFlags, each func(*sessionlog.Event)) (*load.Log, error) {
	return a.readLogWith(args, f, true, each, (*load.File).Stream)
}

// readLogSurface is readLog with each, the Log's Surface folded
// (load.File.StreamSurface).
func (a *app) readLogSurface(args []string, f *logFlags, each func(*sessionlog.Event)) (*load.Log, error) {
	return a.readLogWith(args, f, false, each, (*load.File).StreamSurface)
}

func (a *app) readLogWith(args []string, f *logFlags, spend bool, each func(*sessionlog.Event), stream func(*load.File, func(*sessionlog.Event, int64) bool) (*load.Log, error)) (*load.Log, error) {
	lf, err := a.openLog(args, f, readBudget, spend, false)
	if err != nil {
		return nil, err
	}
	defer lf.Close()
	var lg *load.Log
	if each == nil {
		lg, err = lf.Collect(true)
	} else {
		lg, err = stream(lf, func(e *sessionlog.Event, _ int64) bool { each(e); return true })
	}
	if lg != nil {
		a.printWarnings(lg)
	}
	return lg, a.inputErr(err, f)
}

// inputErr is the refusal a command reports for a log it cannot read: the
// *sessionlog.Error, with the --max-line-bytes hint for a line over it.
func (a *app) inputErr(err error, f *logFlags) error {
	var e *sessionlog.Error
	switch {
	case err == nil || err == load.ErrStopped:
		return err
	case !errors.As(err, &e):
		return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: logName(nil, f), Seq: -1}, err.Error(), err)
	case errors.Is(e, sessionlog.ErrTooLong):
		return &lineLimit{err: e, flag: "max-line-bytes", limit: int64(f.maxLine), what: "line"}
	case errors.Is(e, sessionlog.ErrTextTooLong):
		return &lineLimit{err: e, flag: "max-text-bytes", limit: f.maxText, what: "log"}
	}
	return e
}

// heldMin is the least holdsTooMuch lets a command hold.
const heldMin = 32 << 20

// holdsTooMuch reports whether n bytes, which a command holds until the
// log has read to its end (events' output, history's page), are more than
// it may hold when the log can be read again instead: more than the text
// read, and at least heldMin. A packed chunk row prints at about 20 times
// its bytes, and a page can be a step of a million chunks.
func holdsTooMuch(lf *load.File, n int64) bool {
	return lf.Held() && n > max(heldMin, lf.TextSize())
}

// readHeld reads lf, opened held (openLog's hold), once through each, and
// prints its warnings. It returns the log and the read's refusal, and
// again, which reads the same events once more (load.File.Source: the
// file checked unchanged).
func (a *app) readHeld(lf *load.File, f *logFlags, each func(*sessionlog.Event) bool) (lg *load.Log, again func(yield func(*sessionlog.Event) bool) error, err error) {
	var readErr error
	src := lf.Source(func(got *load.Log, _ int, err error) { lg, readErr = got, err })
	err = src(each)
	if lg != nil {
		a.printWarnings(lg)
	}
	if err == nil {
		err = readErr
	}
	return lg, src, a.inputErr(err, f)
}
