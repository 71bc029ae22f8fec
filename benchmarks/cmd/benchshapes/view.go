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
)

// The keys view is timed on, in order, as a terminal sends them, with the
// text their frame must draw (none: any redraw).
var viewKeys = []struct {
	name, seq, signal string
}{
	{"ctrl+o", "\x0f", "expanded"}, // tools collapsed → expanded, in the status row and its notice
	{"pgup", "\x1b[5~", ""},
	{"end", "\x1b[F", ""},
}

// keyTimeout is the longest a key's redraw is waited for: a key that
// draws nothing (a transcript shorter than a page) is an error of the
// cell, reported soon.
const keyTimeout = 30 * time.Second

// firstScreenSignal is text only the first screen's status row holds
// (terminal/model.go status: "… · tools collapsed · reasoning on"): the
// renderer writes it in one run, since no neighbouring cell repeats it.
const firstScreenSignal = "collapsed"

// viewResult is view's figures on one log.
type viewResult struct {
	firstScreen time.Duration
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

	if res.firstScreen, err = b.await(out, start, []byte(firstScreenSignal), b.timeout); err != nil {
		return fail(fmt.Errorf("view: first screen: %w", err))
	}
	for _, k := range viewKeys {
		t0 := time.Now()
		if _, err := tty.WriteString(k.seq); err != nil {
			return fail(fmt.Errorf("view: %s: %w", k.name, err))
		}
		d, err := b.await(out, t0, []byte(k.signal), keyTimeout)
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

// await reads view's output from the mark t0 until its screen has
// settled (settled), and returns how long after t0 its last byte came; an
// error if it has not within timeout.
func (b *bench) await(out <-chan chunk, t0 time.Time, signal []byte, timeout time.Duration) (time.Duration, error) {
	var got []chunk
	tick := time.NewTicker(b.quiet / 4)
	defer tick.Stop()
	for {
		select {
		case c, ok := <-out:
			if !ok {
				return 0, errors.New("the terminal closed (view exited)" + tail(got))
			}
			got = append(got, c)
		case <-tick.C:
		}
		now := time.Now()
		if end, ok := settled(got, signal, b.quiet, now); ok {
			return end.Sub(t0), nil
		}
		if now.Sub(t0) > timeout {
			return 0, fmt.Errorf("no settled screen with %q after %v%s", signal, timeout, tail(got))
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
