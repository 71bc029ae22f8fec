package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/creack/pty"

	"github.com/dshtest/dshtest/benchmarks/internal/timev"
	"github.com/dshtest/dshtest/terminal/display"
)

// The keys view is timed on, in order, as a terminal sends them, with the
// text their frame must draw in the status row (none: any redraw). The
// first is pressed while view still reads the log behind its first screen
// (reading): its time is when the status row shows the signal, since the
// screen never settles while the tail grows. The others are pressed once
// the whole log is read; Ctrl+O cycles the tools back to collapsed before
// the timed collapsed → expanded.
var viewKeys = []struct {
	name, seq, signal string
	reading           bool
}{
	{"ctrl+o while reading", "\x0f", display.ToolsExpanded.String(), true}, // tools collapsed → expanded
	{"ctrl+o to hidden", "\x0f", display.ToolsHidden.String(), false},
	{"ctrl+o to collapsed", "\x0f", display.ToolsCollapsed.String(), false},
	{"ctrl+o", "\x0f", display.ToolsExpanded.String(), false},
	{"pgup", "\x1b[5~", "", false},
	{"end", "\x1b[F", "", false},
}

// keyTimeout is the longest a key's redraw is waited for: a key that
// draws nothing (a transcript shorter than a page) is an error of the
// cell, reported soon.
const keyTimeout = 30 * time.Second

// firstScreenSignal is text only the first screen's status row holds
// (terminal/model.go status: "… · tools collapsed · reasoning on"), read
// from the decoded screen (screen).
var firstScreenSignal = display.ToolsCollapsed.String()

// viewResult is view's figures on one log.
type viewResult struct {
	firstScreen time.Duration
	read        time.Duration   // until the screen settled: the whole log read
	keys        []time.Duration // as viewKeys
	rep         timev.Report
}

// measureView runs dshtest view on log in a pseudo-terminal of 80x24
// under /usr/bin/time -v, and times its first screen and each key's
// redraw, then quits with q.
func (b *bench) measureView(log string) (viewResult, error) {
	var res viewResult
	report := filepath.Join(b.scratch, "view.time")
	os.Remove(report)
	cmd := exec.Command(b.dshtest, "view", log)
	cmd.Env = append(b.env(), "TERM=xterm-256color", "COLUMNS=80", "LINES=24")
	timev.Wrap(cmd, report)
	start := time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 80, Rows: 24})
	if err != nil {
		return res, fmt.Errorf("view: %w", err)
	}
	defer tty.Close()
	out := make(chan chunk, 1024)
	go func() {
		defer close(out)
		buf := make([]byte, 64<<10)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				out <- chunk{time.Now(), append([]byte(nil), buf[:n]...)}
			}
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	drain := func() {
		go func() {
			for range out { // until the terminal closes
			}
		}()
	}
	fail := func(err error) (viewResult, error) {
		drain()
		cmd.Process.Kill()
		<-exited
		return res, err
	}

	// The first screen is the first frame that holds the status row: view
	// may go on drawing the tail as it reads.
	scr := newScreen(80, 24)
	defer scr.close()
	if res.firstScreen, err = b.await(out, scr, start, firstScreenSignal, b.timeout, true); err != nil {
		return fail(fmt.Errorf("view: first screen: %w", err))
	}
	read := false
	for _, k := range viewKeys {
		if !k.reading && !read {
			// Read: the log is closed, and the screen drawn since has
			// settled.
			closed, ok := awaitClosed(cmd.Process.Pid, log, b.timeout)
			if !ok {
				return fail(fmt.Errorf("view: still reading the log after %v", b.timeout))
			}
			res.read, read = b.quietSince(out, scr, closed).Sub(start), true
		}
		t0 := time.Now()
		if _, err := tty.WriteString(k.seq); err != nil {
			return fail(fmt.Errorf("view: %s: %w", k.name, err))
		}
		d, err := b.await(out, scr, t0, k.signal, keyTimeout, k.reading)
		if err != nil {
			return fail(fmt.Errorf("view: %s: %w", k.name, err))
		}
		res.keys = append(res.keys, d)
	}
	if _, err := tty.WriteString("q"); err != nil {
		return fail(fmt.Errorf("view: q: %w", err))
	}
	drain()
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			return res, fmt.Errorf("view: %w", err)
		}
	case <-time.After(b.timeout):
		return fail(fmt.Errorf("view: still running %v after q", b.timeout))
	}
	if res.rep, err = timev.ReadReport(report); err != nil {
		return res, fmt.Errorf("view: %w", err)
	}
	if res.rep.ExitStatus != 0 || res.rep.Signal != 0 {
		return res, fmt.Errorf("view: exit status %d (signal %d)", res.rep.ExitStatus, res.rep.Signal)
	}
	return res, nil
}

// await reads view's output from the mark t0, drawing it on scr, until its
// screen has settled (settled) with signal on its status row, and returns
// how long after t0 its last byte came; an error if it has not within
// timeout. With first, it returns as soon as the status row shows signal,
// with when the output that drew it came. The status row must not show
// signal before the key: its appearing is what the key drew.
func (b *bench) await(out <-chan chunk, scr *screen, t0 time.Time, signal string, timeout time.Duration, first bool) (time.Duration, error) {
	if signal != "" && strings.Contains(scr.status(), signal) {
		return 0, fmt.Errorf("the status row shows %q already: %q", signal, scr.status())
	}
	var got []chunk
	shown := signal == ""
	tick := time.NewTicker(b.quiet / 4)
	defer tick.Stop()
	for {
		select {
		case c, ok := <-out:
			if !ok {
				return 0, errors.New("the terminal closed (view exited)" + tail(got))
			}
			got = append(got, c)
			scr.feed(c)
			if !shown && strings.Contains(scr.status(), signal) {
				shown = true
				if first {
					return c.at.Sub(t0), nil
				}
			}
		case <-tick.C:
		}
		now := time.Now()
		if end, ok := settled(got, shown, b.quiet, now); ok {
			return end.Sub(t0), nil
		}
		if now.Sub(t0) > timeout {
			return 0, fmt.Errorf("no settled screen with %q on its status row after %v (it shows %q)%s", signal, timeout, scr.status(), tail(got))
		}
	}
}

// quietSince reads view's output until it has been quiet for b.quiet
// since t0, and returns when its last byte came (t0 if none did).
func (b *bench) quietSince(out <-chan chunk, scr *screen, t0 time.Time) time.Time {
	last := t0
	tick := time.NewTicker(b.quiet / 4)
	defer tick.Stop()
	for {
		select {
		case c, ok := <-out:
			if !ok {
				return last
			}
			scr.feed(c)
			last = c.at
		case now := <-tick.C:
			if now.Sub(last) >= b.quiet {
				return last
			}
		}
	}
}

// tail quotes the end of the output, for an error.
func tail(chunks []chunk) string {
	var all []byte
	for _, c := range chunks {
		all = append(all, c.data...)
	}
	if len(all) == 0 {
		return ""
	}
	s := string(all[max(len(all)-200, 0):])
	return ": output ends " + strings.ReplaceAll(fmt.Sprintf("%q", s), "\\x1b", "ESC")
}
