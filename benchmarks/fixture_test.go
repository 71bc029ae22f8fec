package benchmarks

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// Screen size of every benchmark, and the second size Resize alternates
// with.
const (
	width, height     = 100, 40
	width2, height2   = 80, 30
	tailEvents        = 8192 // live events appended per size, over all sessions
	historyMessages   = 50
	millionCopies     = 10 // the 1M log is this many copies of the 100k one
	sessionIDForBench = "bench"
)

// sizes are the session lengths of the terminal benchmarks.
var sizes = []int{1_000, 10_000, 100_000}

// historySizes adds 1M for paging.
var historySizes = []int{1_000, 10_000, 100_000, 1_000_000}

var (
	ctrlR = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
)

// sizeName names a size as the sub-benchmarks do: events=1k, events=1M.
func sizeName(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("events=%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("events=%dk", n/1000)
	}
	return fmt.Sprintf("events=%d", n)
}

// session is one generated session cut in two: the stored log a model is
// mounted on (exactly n events) and the live tail that follows it.
type session struct {
	all    []sessionlog.Event // stored then tail, one valid log
	stored []sessionlog.Event
	tail   []sessionlog.Event
}

// fixture is the data of one size: sessions enough that their tails hold
// tailEvents live events together (one session from 8,192 events up, nine
// of 1k), so every size appends the same number of distinct events.
type fixture struct {
	n        int
	sessions []session
}

// The logs are generated once per size and shared by every benchmark of
// the test binary: generating 100k events takes a second or two.
var (
	fixtureMu sync.Mutex
	fixtures  = map[int]*fixture{}
	million   []sessionlog.Event
)

// fixtureFor returns the cached fixture of n events.
func fixtureFor(tb testing.TB, n int) *fixture {
	tb.Helper()
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	if f := fixtures[n]; f != nil {
		return f
	}
	per := min(n, tailEvents)
	f := &fixture{n: n}
	for i := 0; i*per < tailEvents; i++ {
		all := sessiongen.GenerateN(int64(i+1), n+per)
		if len(all) < n+per {
			tb.Fatalf("sessiongen.GenerateN(%d, %d) gave %d events", i+1, n+per, len(all))
		}
		all = all[:n+per]
		f.sessions = append(f.sessions, session{all: all, stored: all[:n], tail: all[n:]})
	}
	fixtures[n] = f
	return f
}

// historyLog returns a log of n events for paging: a generated session, or
// for 1M, ten copies of the 100k session one after another (seqs and
// sourceEventSeqs shifted), which pages like a generated session of that
// length at a tenth of the generation time.
func historyLog(tb testing.TB, n int) []sessionlog.Event {
	tb.Helper()
	if n < 1_000_000 {
		return fixtureFor(tb, n).sessions[0].stored
	}
	base := fixtureFor(tb, n/millionCopies).sessions[0].stored
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	if million != nil {
		return million
	}
	out := make([]sessionlog.Event, 0, n)
	for c := range millionCopies {
		shift := int64(c * len(base))
		for _, e := range base {
			e.Seq += shift
			if seqs, ok := e.Sources(); ok && len(seqs) > 0 && shift > 0 {
				for i := range seqs {
					seqs[i] += shift
				}
				raw, err := json.Marshal(seqs)
				if err != nil {
					tb.Fatal(err)
				}
				e.SourceEventSeqs = raw
			}
			out = append(out, e)
		}
	}
	million = out
	return million
}

// frozenAt is a clock stopped at the last event of log: open timing
// buckets do not tick between operations.
func frozenAt(log []sessionlog.Event) func() int64 {
	t := log[len(log)-1].Time
	return func() int64 { return t }
}

// config mounts a model on log at the benchmark size.
func config(log []sessionlog.Event) terminal.Config {
	return terminal.Config{SessionID: sessionIDForBench, Log: log, Width: width, Height: height, Clock: frozenAt(log)}
}

// settings are what the naive baselines render with: those of a model
// built from config(log).
func settings(log []sessionlog.Event) terminal.Settings {
	return terminal.New(terminal.Config{SessionID: sessionIDForBench, Width: width, Height: height, Clock: frozenAt(log)}).Settings()
}

// naiveRebuild is upstream's rebuildTranscript: project the whole log and
// render every item of the document, then cut the window from its tail.
func naiveRebuild(log []sessionlog.Event, s terminal.Settings, rows int) []string {
	t := transcript.Project(log, transcript.Options{})
	return naiveRender(t, s, rows)
}

// naiveRender renders every item of t and returns the last rows rows.
func naiveRender(t transcript.Transcript, s terminal.Settings, rows int) []string {
	lines := terminal.Render(t, s).Lines
	return lines[max(0, len(lines)-rows):]
}

// cpuTimer measures the process CPU time spent while a benchmark's timer
// runs; stop and start bracket work done with the timer stopped.
type cpuTimer struct {
	total, since int64
}

func startCPU() *cpuTimer { return &cpuTimer{since: processCPU()} }

func (c *cpuTimer) stop() { c.total += processCPU() - c.since }

func (c *cpuTimer) start() { c.since = processCPU() }

// report stops the timer and reports CPU ns per op and, when perOp > 0,
// wall and CPU ns per event (perOp events each op).
func (c *cpuTimer) report(b *testing.B, perOp int) {
	c.stop()
	if c.since < 0 || b.N == 0 {
		return
	}
	cpuOp := float64(c.total) / float64(b.N)
	if perOp > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(perOp), "ns/event")
		b.ReportMetric(cpuOp/float64(perOp), "cpu-ns/event")
		return
	}
	b.ReportMetric(cpuOp, "cpu-ns/op")
}
