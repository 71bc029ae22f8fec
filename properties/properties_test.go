package properties

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/internal/repro/emit"
	"github.com/dshtest/dshtest/internal/repro/minimize"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

var (
	flagSeed = flag.Int64("seed", -1, "check only this session seed")
	flagProp = flag.String("prop", "", "check only the properties whose name matches this regexp")
	flagN    = flag.Int("sessions", 0, "number of sessions (default 500, or DSHTEST_SOAK)")
	flagKeep = flag.Bool("keep", true, "shrink a failing session and write it to testdata/shrunk")
	flagGen  = flag.String("gen", "", "generator preset for exploration: hostile, older, huge or long (default: the standard mix)")
)

// presets are the -gen generator configurations.
var presets = map[string]sessiongen.Config{
	"hostile": {Turns: 4, Hostile: 1},
	"older":   {Turns: 4, Generation: sessiongen.GenOlder},
	"huge":    {Turns: 4, Huge: 0.6},
	"long":    {Turns: 12, MaxStepsPerTurn: 6},
}

// DefaultSessions is the number of sessions go test checks.
const DefaultSessions = 500

// genConfig is the generator configuration of the property run: sessions
// of about 190 events, so that 500 of them check in well under 20 s.
var genConfig = sessiongen.Config{Turns: 4}

func sessionCount(t *testing.T) int {
	if *flagN > 0 {
		return *flagN
	}
	if s := os.Getenv("DSHTEST_SOAK"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("DSHTEST_SOAK=%q: want a positive number of sessions", s)
		}
		return n
	}
	return DefaultSessions
}

// property is one invariant over a session log under seeded parameters.
type property struct {
	name  string
	doc   string
	check func(s *subject) error
}

// properties are checked in this order on every session.
var properties = []property{
	{"codec", "decode(encode(log)) == log, and encode is byte-stable", checkCodec},
	{"container", "the log in upstream's container form (header line, packed chunk rows) decodes to the same events", checkContainer},
	{"live-replay", "a terminal fed the events live (with mid-stream toggles, resizes and scheme changes) draws the same document, screen and transcript as one mounted on the log", checkLiveReplay},
	{"keeps-text", "every append-origin prompt, context and settled assistant text is in some transcript item", checkKeepsText},
	{"rendered-text", "every plain prompt and settled assistant text is drawn, word for word, in transcript order", checkRenderedText},
	{"markers", "one marker per landed checkpoint, in log order, with its cited summary's data", checkMarkers},
	{"notices", "one notice per non-completed turn/end, retry and failed compaction, in log order, with the spec's text and colour", checkNotices},
	{"progress", "the compaction indicator shows exactly while a standalone compaction is open at the tail; a resume makes it stale and changes nothing else", checkProgress},
	{"model-only", "no model-only text (checkpoint preamble and summary, foreign and regenerated copies) is rendered", checkModelOnly},
	{"row-width", "every document and screen row is at most the terminal width", checkRowWidth},
	{"escaped", "no rendered row holds a control character outside SGR sequences", checkEscaped},
	{"invariants", "the transcript invariants of dshtest repro (internal/repro/invariant) hold at the session's size", checkInvariants},
	{"history", "history pages (max 1..7) partition the log from the tail back to 0, keep each summary with its checkpoint, and project cleanly", checkHistory},
}

// params are the seeded settings a session is checked under. They are a
// function of the seed alone, so a failure reproduces with -seed.
type params struct {
	seed int64
	// Final settings: the replay terminal is mounted with them.
	width, height int
	scheme        display.Scheme
	hideReasoning bool
	tools         display.ToolMode
	eager         bool
	// nowOffset is added to the last event's time to give the clock.
	nowOffset int64
	// The live terminal starts with these and reaches the final ones
	// through the perturbations.
	width0         int
	scheme0        display.Scheme
	hideReasoning0 bool
	tools0         display.ToolMode
	// liveFrom is the fraction of the log the live terminal is mounted on
	// before the rest arrives as events.
	liveFrom float64
	perturb  []perturbation
	// pageMax is the history page size whose pages are projected.
	pageMax int
	// proj is the terminal's projection seam; the zero value is the real
	// projection. Mutation tests swap in a broken one.
	proj terminal.Projection
}

// perturbation is a message the live terminal receives before the event
// at fraction at of the log (1 means after the last event).
type perturbation struct {
	at   float64
	kind string // "resize", "reasoning", "tools", "scheme"
	w    int
}

func paramsFor(seed int64) params {
	r := rand.New(rand.NewPCG(uint64(seed), 0x70726f70))
	p := params{seed: seed}
	p.width = 20 + r.IntN(121)
	p.height = 6 + r.IntN(40)
	p.scheme = display.Scheme(r.IntN(2))
	p.hideReasoning = r.IntN(3) == 0
	p.tools = display.ToolMode(r.IntN(3))
	p.eager = r.IntN(4) == 0
	p.nowOffset = int64(r.IntN(120000))
	p.pageMax = 1 + r.IntN(7)
	p.width0 = p.width
	p.scheme0, p.hideReasoning0, p.tools0 = p.scheme, p.hideReasoning, p.tools
	if r.IntN(2) == 0 {
		p.liveFrom = r.Float64()
	}
	if r.IntN(3) == 0 {
		return p // no perturbation
	}
	// Start elsewhere and get to the final settings mid-stream; sometimes
	// press a toggle twice on the way.
	if r.IntN(2) == 0 {
		p.width0 = 20 + r.IntN(121)
		p.perturb = append(p.perturb, perturbation{at: r.Float64(), kind: "resize", w: p.width})
	}
	if r.IntN(2) == 0 {
		p.scheme0 = 1 - p.scheme
		p.perturb = append(p.perturb, perturbation{at: r.Float64(), kind: "scheme"})
	}
	if r.IntN(2) == 0 {
		p.hideReasoning0 = !p.hideReasoning
		p.perturb = append(p.perturb, perturbation{at: r.Float64(), kind: "reasoning"})
	}
	if n := r.IntN(3); n > 0 {
		p.tools0 = (p.tools + 3 - display.ToolMode(n)) % 3
		for range n {
			p.perturb = append(p.perturb, perturbation{at: r.Float64(), kind: "tools"})
		}
	}
	if r.IntN(4) == 0 {
		at := r.Float64()
		p.perturb = append(p.perturb, perturbation{at: at, kind: "reasoning"}, perturbation{at: at + (1-at)*r.Float64(), kind: "reasoning"})
	}
	sort.SliceStable(p.perturb, func(i, j int) bool { return p.perturb[i].at < p.perturb[j].at })
	return p
}

func (p params) String() string {
	return fmt.Sprintf("width %d height %d scheme %d hideReasoning %v tools %d eager %v", p.width, p.height,
		p.scheme, p.hideReasoning, p.tools, p.eager)
}

// index turns a fraction of the log into an event index.
func index(frac float64, n int) int { return min(int(frac*float64(n)), n) }

func (p params) now(events []sessionlog.Event) int64 {
	if len(events) == 0 {
		return sessiongen.DefaultStart
	}
	return events[len(events)-1].Time + p.nowOffset
}

func (p params) config(events []sessionlog.Event, log []sessionlog.Event) terminal.Config {
	now := p.now(events)
	return terminal.Config{
		SessionID: "prop", Log: log, Width: p.width, Height: p.height, Scheme: p.scheme,
		HideReasoning: p.hideReasoning, Tools: p.tools,
		Transcript: transcript.Options{EagerSteps: p.eager},
		Projection: p.proj,
		Clock:      func() int64 { return now },
	}
}

func (p params) settings(events []sessionlog.Event) terminal.Settings {
	return terminal.Settings{Width: p.width, Scheme: p.scheme, HideReasoning: p.hideReasoning,
		Tools: p.tools, Now: p.now(events)}
}

// failure is a property failing: on count sessions, the lowest seed
// first.
type failure struct {
	prop   property
	count  int
	seed   int64
	cfg    sessiongen.Config
	p      params
	events []sessionlog.Event
	err    error
}

// run checks one property, turning a panic into an error.
func run(prop property, s *subject) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return prop.check(s)
}

// TestProperties checks every property on every generated session. The
// first failing session of each property is shrunk and written to
// testdata/shrunk.
func TestProperties(t *testing.T) {
	var propRE *regexp.Regexp
	if *flagProp != "" {
		var err error
		if propRE, err = regexp.Compile(*flagProp); err != nil {
			t.Fatalf("-prop: %v", err)
		}
	}
	var props []property
	for _, pr := range properties {
		if propRE == nil || propRE.MatchString(pr.name) {
			props = append(props, pr)
		}
	}
	var seeds []int64
	if *flagSeed >= 0 {
		seeds = []int64{*flagSeed}
	} else {
		for s := range int64(sessionCount(t)) {
			seeds = append(seeds, s)
		}
	}
	cfg := genConfig
	if *flagGen != "" {
		c, ok := presets[*flagGen]
		if !ok {
			t.Fatalf("-gen %q: no such preset", *flagGen)
		}
		cfg = c
	}
	start := time.Now()
	res := checkSessions(seeds, props, terminal.Projection{}, cfg)
	t.Logf("%d sessions, %d events checked in %v", len(seeds), res.events, time.Since(start).Round(time.Millisecond))
	for _, f := range res.sorted() {
		msg := f.String()
		if *flagKeep {
			msg += "\n" + keep(f, filepath.Join("testdata", "shrunk"))
		}
		t.Error(msg)
	}
}

// results are the failures of a run of checkSessions.
type results struct {
	failures map[string]*failure // the lowest failing seed of each property
	events   int
}

func (r results) sorted() []*failure {
	var out []*failure
	for _, f := range r.failures {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].prop.name < out[j].prop.name })
	return out
}

// checkSessions generates the sessions of seeds and checks props on each,
// on two goroutines, with the terminal projection proj (the zero value is
// the real one).
func checkSessions(seeds []int64, props []property, proj terminal.Projection, cfg sessiongen.Config) results {
	ch := make(chan int64)
	go func() {
		defer close(ch)
		for _, s := range seeds {
			ch <- s
		}
	}()
	var (
		mu  sync.Mutex
		res = results{failures: map[string]*failure{}}
		wg  sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0), 2) {
		wg.Go(func() {
			for seed := range ch {
				log := sessiongen.Generate(seed, cfg)
				p := paramsFor(seed)
				p.proj = proj
				subj := newSubject(log, p)
				for _, pr := range props {
					err := run(pr, subj)
					if err == nil {
						continue
					}
					mu.Lock()
					f := res.failures[pr.name]
					if f == nil {
						f = &failure{prop: pr, seed: seed}
						res.failures[pr.name] = f
					}
					f.count++
					if seed <= f.seed {
						f.seed, f.events, f.err, f.p, f.cfg = seed, log, err, p, cfg
					}
					mu.Unlock()
				}
				mu.Lock()
				res.events += len(log)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return res
}

func (f *failure) String() string {
	return fmt.Sprintf("property %s (%s) failed on %d session(s); first: seed %d (%s, %d events):\n%v",
		f.prop.name, f.prop.doc, f.count, f.seed, f.p, len(f.events), f.err)
}

// keep shrinks a failing session and writes it as a scenario to dir. It
// returns what to tell the developer.
func keep(f *failure, dir string) string {
	path, small, err := shrink(f, dir)
	if err != nil {
		return err.Error()
	}
	name := strings.TrimSuffix(filepath.Base(path), ".txtar")
	gen := ""
	for name, c := range presets {
		if c == f.cfg {
			gen = " -gen " + name
		}
	}
	return fmt.Sprintf("shrunk to %d events: properties/%s\nrerun: go test ./properties -run TestProperties -seed %d -prop '^%s$'"+gen+"\nkeep:  cp properties/%s scenarios/ && GOLDIE_UPDATE=1 go test ./harness -run 'TestScenarios/%s$'",
		len(small), path, f.seed, f.prop.name, path, name)
}

// shrink minimizes f's session while its property still fails and writes
// the result to dir/<property>-<seed>.txtar.
func shrink(f *failure, dir string) (path string, small []sessionlog.Event, err error) {
	p := f.p
	small = minimize.Minimize(f.events, func(ev []sessionlog.Event) bool {
		return run(f.prop, newSubject(ev, p)) != nil
	})
	smallErr := run(f.prop, newSubject(small, p))
	name := fmt.Sprintf("%s-%d", f.prop.name, f.seed)
	opts := emit.Options{
		Sizes:  []emit.Size{{W: p.width, H: p.height}},
		Source: fmt.Sprintf("internal/testkit/sessiongen seed %d (%+v), shrunk from %d to %d events by internal/repro/minimize", f.seed, f.cfg, len(f.events), len(small)),
		Comment: fmt.Sprintf("Property %s failed: %s.\nSettings: %s.\n%s", f.prop.name, f.prop.doc, p,
			firstLine(smallErr)),
		Eager: p.eager, HideReasoning: p.hideReasoning, ToolPresses: int(p.tools), Light: p.scheme == display.SchemeLight,
		Now: p.now(small),
	}
	if f.prop.name == "live-replay" {
		liveScenario(&opts, p, small)
	}
	data, err := emit.Scenario(name, small, opts)
	if err != nil {
		return "", small, fmt.Errorf("could not emit the shrunk session: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", small, err
	}
	path = filepath.Join(dir, name+".txtar")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", small, err
	}
	return path, small, nil
}

// liveScenario makes opts reproduce the live terminal of checkLiveReplay:
// mounted with the initial settings on the first part of the log, the rest
// appended with the perturbations in between.
func liveScenario(opts *emit.Options, p params, events []sessionlog.Event) {
	opts.Live = true
	opts.LiveFrom = index(p.liveFrom, len(events))
	opts.Sizes = []emit.Size{{W: p.width0, H: p.height}}
	opts.HideReasoning, opts.ToolPresses, opts.Light = p.hideReasoning0, int(p.tools0), p.scheme0 == display.SchemeLight
	opts.Before = map[int][]string{}
	scheme := p.scheme0
	for _, pt := range p.perturb {
		i := max(index(pt.at, len(events)), opts.LiveFrom)
		var line string
		switch pt.kind {
		case "resize":
			line = fmt.Sprintf("resize %d %d", pt.w, p.height)
		case "reasoning":
			line = "toggle reasoning"
		case "tools":
			line = "toggle tools"
		case "scheme":
			scheme = 1 - scheme
			line = map[display.Scheme]string{display.SchemeDark: "scheme dark", display.SchemeLight: "scheme light"}[scheme]
		}
		opts.Before[i] = append(opts.Before[i], line)
	}
}

func firstLine(err error) string {
	if err == nil {
		return "(the shrunk session no longer fails)"
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// perturbMsg is the message a perturbation sends.
func perturbMsg(pt perturbation, p params, scheme *display.Scheme) tea.Msg {
	switch pt.kind {
	case "resize":
		return tea.WindowSizeMsg{Width: pt.w, Height: p.height}
	case "reasoning":
		return tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	case "tools":
		return tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	}
	*scheme = 1 - *scheme
	return terminal.SchemeMsg{Scheme: *scheme}
}
