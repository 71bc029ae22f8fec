package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/viewer"
	"github.com/dshtest/dshtest/transcript"
)

// view's reading of a log behind its screen.
//
// The log reaches the renderer in batches through the live path, the one
// a running session takes, as it is read. A log read within
// firstScreenWait opens read whole, checked and folded, on the screen the
// replay draws (the suite proves live and replay agree). A longer one (a
// million events take seconds to decode) opens on what was projected by
// then, and the rest follows while the keys work: the status line says
// how far the read is, the screen it ends on is again the replay's, and a
// refusal found on the way stays on the status line until q, then is
// printed as any command prints it, with its exit code.
const (
	// firstScreenWait is how long view reads before it opens.
	firstScreenWait = 250 * time.Millisecond
	// viewBatch is the most events one message hands the renderer: a
	// key waits for at most one batch.
	viewBatch = 1024
	// viewProcs is the fewest Ps view runs with (unless GOMAXPROCS is
	// set). Behind its screen three stages keep a core busy each (decode,
	// check and fold, the live projection); with no more Ps than cores, a
	// key's goroutines (the input reader, the update, the renderer) each
	// wait for a P up to the scheduler's 10 ms time slice. With more Ps
	// than cores the kernel's finer time slices run them at once: on 2
	// cores a key during the read of 1M events drew in 20–75 ms with 2 Ps,
	// 7–28 ms with 8.
	viewProcs = 8
)

// viewLog opens the log in the terminal renderer, reading it behind the
// screen.
//
// Only the real projection is read behind the screen: its live path is
// proven equal to its replay. A self-test projection (DSHTEST_PROJECTOR)
// is shown mounted on the whole log, as its replay path draws it.
func (a *app) viewLog(args []string, f *logFlags, s terminal.Settings, opts transcript.Options, proj terminal.Projection, behind bool) error {
	if a.getenv("GOMAXPROCS") == "" {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), viewProcs)))
	}
	return a.viewWith(args, f, s, opts, proj, behind, firstScreenWait, func(m tea.Model) error {
		in, done, err := a.keys(args)
		if err != nil {
			return err
		}
		defer done()
		a.releaseStdin()
		return runViewer(m, in, underlying(a.stdout))
	})
}

// viewWith is viewLog reading for wait before the first screen, which run
// shows until the user quits. Without live the log is read whole and
// mounted on the replay path, whatever the wait.
func (a *app) viewWith(args []string, f *logFlags, s terminal.Settings, opts transcript.Options, proj terminal.Projection,
	live bool, wait time.Duration, run func(tea.Model) error) error {
	lf, err := a.openLog(args, f, viewBudget, false, false)
	if err != nil {
		return err
	}
	defer lf.Close()
	batches := make(chan []sessionlog.Event, 4)
	stop := make(chan struct{})
	var read atomic.Int64 // the text read so far
	size := lf.TextSize()
	var (
		got     *load.Log       // the read's, once batches is closed
		result  error           // the read's, once batches is closed
		header  json.RawMessage // the container's header, once a batch is sent
		started bool            // header was taken
	)
	go func() {
		defer close(batches)
		// Sent a quarter of a batch at a time: the first screen waits for
		// one at most, and the renderer's batches gather what is ready.
		cur := make([]sessionlog.Event, 0, viewBatch/4)
		send := func() bool {
			select {
			case batches <- cur:
			case <-stop:
				return false
			}
			cur = make([]sessionlog.Event, 0, viewBatch/4)
			return true
		}
		got, result = lf.Stream(func(e *sessionlog.Event, text int64) bool {
			if !started {
				header, started = lf.Header(), true // read before the first event
			}
			cur = append(cur, *e)
			read.Store(text)
			return len(cur) < cap(cur) || send()
		})
		result = a.inputErr(result, f)
		if result == nil && len(cur) > 0 {
			send()
		}
	}()

	if !live {
		// Mounted on the whole log once it is read, as the replay draws it.
		var all []sessionlog.Event
		for bt := range batches {
			all = append(all, bt...)
		}
		if got != nil {
			a.printWarnings(got)
		}
		if result != nil {
			return result
		}
		now := terminal.FrozenNow(all)
		return run(transcriptModel(load.SessionID(got.Header, got.Path), all, true, s, opts, proj, func() int64 { return now }))
	}

	// Each batch goes through the live path as it comes, until the log is
	// read or the wait is over: the screen opens on what was projected by
	// then, and the reader runs no further ahead of the projection than
	// the channel holds. (Gathering the events first and projecting them
	// at the wait's end kept them all in memory and made the first screen
	// wait for their projection, with the reader's work going on beside.)
	var m *terminal.Model
	var now atomic.Int64
	apply := func(bt []sessionlog.Event) {
		if m == nil {
			// Mounted on nothing: the header is read before the first event.
			m = transcriptModel(load.SessionID(header, lf.Path()), nil, false, s, opts, proj, now.Load)
		}
		now.Store(terminal.FrozenNow(bt))
		m.Update(terminal.EventsMsg{Events: bt})
	}
	done := false
	timer := time.NewTimer(wait)
	defer timer.Stop()
gather:
	for {
		select {
		case bt, ok := <-batches:
			if !ok {
				done = true
				break gather
			}
			apply(bt)
		case <-timer.C:
			if m != nil {
				break gather
			}
			timer.Reset(max(wait/4, time.Millisecond))
		}
	}
	if done {
		if got != nil {
			a.printWarnings(got)
		}
		if result != nil {
			return result
		}
		if m == nil { // a log of no events
			return run(transcriptModel(load.SessionID(got.Header, got.Path), nil, true, s, opts, proj, now.Load))
		}
		return run(m)
	}

	m.Update(terminal.StatusMsg{Text: readingStatus(read.Load(), size)})
	next := func() ([]tea.Msg, bool) {
		bt, ok := <-batches
		if !ok {
			if result != nil {
				return []tea.Msg{terminal.StatusMsg{Text: "read refused, q quits and prints why"}}, false
			}
			return []tea.Msg{terminal.StatusMsg{}}, false
		}
		// What more is ready, up to a batch.
	more:
		for len(bt) < viewBatch {
			select {
			case extra, ok := <-batches:
				if !ok {
					break more
				}
				bt = append(bt, extra...)
			default:
				break more
			}
		}
		now.Store(terminal.FrozenNow(bt))
		return []tea.Msg{terminal.EventsMsg{Events: bt}, terminal.StatusMsg{Text: readingStatus(read.Load(), size)}}, true
	}
	err = run(viewer.Reading(m, next))
	close(stop)
	for range batches { // until the read has stopped
	}
	if err != nil {
		return err
	}
	if got != nil {
		a.printWarnings(got)
	}
	if result == load.ErrStopped {
		return nil
	}
	return result
}

// readingStatus is view's status while it reads: how much of the text,
// when its size is known.
func readingStatus(read, size int64) string {
	if size <= 0 {
		return "reading"
	}
	return fmt.Sprintf("reading %d%%", min(read*100/size, 99))
}

// keys is what view reads its keys from: standard input, unless the log
// is read from it (LOG "-"); then the terminal, as a pager reads it.
func (a *app) keys(args []string) (io.Reader, func(), error) {
	if len(args) == 0 || args[0] != load.StdinName {
		return a.stdin, func() {}, nil
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return nil, nil, usagef("the log is read from standard input, so the keys are read from /dev/tty, which cannot be opened: %v", err)
	}
	return tty, func() { tty.Close() }, nil
}
