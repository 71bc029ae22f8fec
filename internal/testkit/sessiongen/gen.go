package sessiongen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
)

// Generation selects the log vocabulary of a generated session.
type Generation uint8

const (
	// GenAuto lets the seed choose, older with probability OlderFraction.
	GenAuto Generation = iota
	// GenNewer: compaction/* with ids, compaction/prune, step/start before
	// the prompt, ignorable unknown events, blocked turns.
	GenNewer
	// GenOlder: compact/* without ids, turn/start triggers, the prompt
	// before step/start, steering/message.
	GenOlder
)

// Config shapes generated sessions. The zero Config gives the defaults; a
// negative probability means 0.
type Config struct {
	// Turns is the number of turns (default 6). Ignored when Events > 0.
	Turns int
	// Events, when positive, asks for about this many events: turns are
	// added until the log holds at least Events events before the tail.
	Events int
	// MaxStepsPerTurn bounds the steps of a turn (default 4).
	MaxStepsPerTurn int
	// MaxCallsPerStep bounds the tool calls of a step (default 3).
	MaxCallsPerStep int
	// Generation selects the vocabulary (default GenAuto).
	Generation Generation
	// OlderFraction is the probability that GenAuto picks the older
	// vocabulary (default 0.25).
	OlderFraction float64
	// Hostile is the probability that a displayed text is hostile:
	// controls, escape sequences, wide and zero-width runes, broken UTF-8,
	// very long lines (default 0.3).
	Hostile float64
	// Huge is the probability that a tool output exceeds the pruner's
	// threshold of 8,192 code points (default 0.08).
	Huge float64
	// Start is the clock's first reading, epoch ms (default 1784630400000,
	// 2026-07-21 10:40:00 UTC).
	Start int64
	// Terse shortens the displayed texts: 0 (the default) writes prose of
	// a few paragraphs, 1 a sentence or two and tool outputs of a few short
	// lines, 2 a few words and one-line outputs. The benchmark shapes use
	// it to write logs of real sessions' event sizes (Shape).
	Terse int
	// Compactions scales the chance of every compaction and foreign
	// replacement (default 1; a negative value means none).
	Compactions float64
	// Settled writes no streamed chunks: every step's message arrives
	// settled, and a step cut short (an aborted turn, a retry, the cut
	// tail) leaves nothing of its stream in the log.
	Settled bool
	// Chain, when positive, compacts the whole surface at the start of a
	// turn whenever it holds at least Chain nodes: a chain of nested
	// head-anchored compactions, each shadowing about Chain nodes, the
	// previous checkpoint among them.
	Chain int
}

// Defaults.
const (
	DefaultTurns           = 6
	DefaultMaxStepsPerTurn = 4
	DefaultMaxCallsPerStep = 3
	DefaultOlderFraction   = 0.25
	DefaultHostile         = 0.3
	DefaultHuge            = 0.08
	DefaultStart           = 1784630400000
)

func (c Config) withDefaults() Config {
	if c.Turns <= 0 {
		c.Turns = DefaultTurns
	}
	if c.MaxStepsPerTurn <= 0 {
		c.MaxStepsPerTurn = DefaultMaxStepsPerTurn
	}
	if c.MaxCallsPerStep <= 0 {
		c.MaxCallsPerStep = DefaultMaxCallsPerStep
	}
	prob := func(p *float64, def float64) {
		switch {
		case *p == 0:
			*p = def
		case *p < 0:
			*p = 0
		}
	}
	prob(&c.OlderFraction, DefaultOlderFraction)
	prob(&c.Hostile, DefaultHostile)
	prob(&c.Huge, DefaultHuge)
	prob(&c.Compactions, 1)
	if c.Start == 0 {
		c.Start = DefaultStart
	}
	return c
}

// Canaries. Model-only payloads (checkpoint summaries, foreign plugin
// replacements, regenerated answers) carry ModelOnlyCanary as a
// space-separated word; nothing a person is meant to read ever does, so a
// rendered document that contains it has drawn from the model surface.
// Compaction summaries also carry SummaryCanary.
const (
	ModelOnlyCanary = "zzmodelonlyzz"
	SummaryCanary   = "zzsummaryzz"
)

// UnknownType is the type of the generator's ignorable unknown event.
const UnknownType = "x-sessiongen/unknown"

// Generate returns a valid session log drawn from seed: the same seed and
// Config always give the same events, byte for byte.
//
// Every event is appended through surface.Session.Append with a clock
// that advances by seeded deltas, so each event is checked against the
// surface before it enters the log. A rejection is a generator bug and
// panics.
func Generate(seed int64, cfg Config) []sessionlog.Event {
	cfg = cfg.withDefaults()
	g := &gen{
		cfg:  cfg,
		rng:  rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15)),
		now:  cfg.Start,
		meta: map[int64]*nodeMeta{},
		seed: seed,
	}
	g.txt = texter{g}
	g.sess = surface.NewSession(func() int64 { return g.now })
	switch cfg.Generation {
	case GenOlder:
		g.older = true
	case GenAuto:
		g.older = g.chance(cfg.OlderFraction)
	}
	g.run()
	return g.sess.Events()
}

// GenerateN returns a session of about n events (at least n, overshooting
// by at most one turn and its tail) with the default Config otherwise.
func GenerateN(seed int64, n int) []sessionlog.Event {
	return Generate(seed, Config{Events: n})
}

// nodeMeta is what the generator remembers about a surface event.
type nodeMeta struct {
	typ    string
	calls  []string // assistant/message: the call ids it advertises
	callID string   // tool/result
	text   string   // tool/result: the output text, generator form
	// data rebuilds a tool/result payload around another output text.
	data   func(text string) jsonobj.Object
	tokens int64
}

type gen struct {
	cfg   Config
	seed  int64
	rng   *rand.Rand
	txt   texter
	sess  *surface.Session
	older bool
	now   int64
	meta  map[int64]*nodeMeta

	msgN, callN, cmdN int
	model             string
	endSeeds          int
}

func (g *gen) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return g.rng.IntN(n)
}

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

// between returns an int in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.intn(hi-lo+1) }

// tick advances the clock by a seeded delta in [lo, hi] ms; now and then
// the delta is 0, and rarely the clock steps back a little (skewed clocks
// exist; the timing footer counts negative gaps as 0).
func (g *gen) tick(lo, hi int) {
	switch {
	case g.chance(0.03):
	case g.chance(0.005):
		g.now -= int64(g.between(1, 500))
	default:
		g.now += int64(g.between(lo, hi))
	}
}

// emit appends one event. op and src are raw JSON or nil.
func (g *gen) emit(typ string, data any, op json.RawMessage, src []int64, ignorable bool) int64 {
	ev := sessionlog.Event{Type: typ, Data: encode(data), SurfaceOp: op, Ignorable: ignorable}
	if src != nil {
		ev.SourceEventSeqs = encode(src)
	}
	out, err := g.sess.Append(ev)
	if err != nil {
		panic(fmt.Sprintf("sessiongen: seed %d: append %s at seq %d rejected: %v\ndata: %s",
			g.seed, typ, g.sess.Len(), err, ev.Data))
	}
	return out.Seq
}

func (g *gen) logOnly(typ string, data any) int64 { return g.emit(typ, data, nil, nil, false) }

func (g *gen) appendSurface(typ string, data any, src []int64, m *nodeMeta) int64 {
	seq := g.emit(typ, data, sessionlog.AppendOp(), src, false)
	m.typ = typ
	g.meta[seq] = m
	return seq
}

func (g *gen) replace(typ string, data any, start, end int64, src []int64, m *nodeMeta) int64 {
	seq := g.emit(typ, data, sessionlog.ReplaceOp(start, end), src, false)
	m.typ = typ
	g.meta[seq] = m
	return seq
}

func (g *gen) nodes() []int64 { return g.sess.Surface().Nodes() }

// Ids.

func (g *gen) msgID() string {
	g.msgN++
	return logbuild.GenMessageID(g.msgN, g.rng.Uint32())
}

func (g *gen) callID() string {
	g.callN++
	return logbuild.GenCallID(g.callN, g.rng.Uint32())
}

func (g *gen) uuid() string {
	a, b := g.rng.Uint64(), g.rng.Uint64()
	return logbuild.UUID(a, b)
}

func (g *gen) usage() jsonobj.Object {
	u := jsonobj.Object{{"inputTokens", g.between(100, 90000)}, {"outputTokens", g.between(1, 4000)}}
	if g.chance(0.5) {
		u = append(u, jsonobj.Field{"cacheReadTokens", g.between(0, 80000)})
	}
	if g.chance(0.3) {
		u = append(u, jsonobj.Field{"reasoningTokens", g.between(0, 2000)})
	}
	return u
}

func tokensOf(s string) int64 { return int64(utf8.RuneCountInString(s)/4 + 1) }

// run writes the whole session.
func (g *gen) run() {
	g.model = pick(g, []string{logbuild.DefaultModel, logbuild.ProModel})
	headerInTurn := g.chance(0.4)
	if !headerInTurn {
		g.requestHeader("initial")
		if g.chance(0.7) {
			g.requestContext()
		}
	}
	if g.chance(0.3) {
		g.logOnly(sessionlog.TypeSessionTitle, jsonobj.Object{{"title", g.txt.text()}})
	}

	// The tail: 0 ends after a finished turn, 1 cuts a stream off mid-step,
	// 2 leaves a standalone compaction open.
	tail := 0
	switch r := g.rng.Float64(); {
	case r < 0.15:
		tail = 1
	case r < 0.25:
		tail = 2
	}

	for t := int64(1); ; t++ {
		last := t == int64(g.cfg.Turns)
		if g.cfg.Events > 0 {
			last = g.sess.Len() >= g.cfg.Events
		}
		if t > 1 {
			g.betweenTurns()
		}
		g.turn(t, headerInTurn && t == 1, last && tail == 1)
		if last {
			break
		}
	}
	if tail == 2 {
		g.tick(1000, 60000)
		g.compactionStart(nil, "")
	}
}

func (g *gen) requestHeader(reason string) {
	cfg := jsonobj.Object{{"provider", logbuild.DefaultProvider}, {"model", g.model}}
	if g.chance(0.5) {
		cfg = append(cfg, jsonobj.Field{"reasoningEffort", pick(g, []string{"low", "medium", "high"})})
	}
	tools := []jsonobj.Object{}
	for _, name := range []string{"bash", "read", "edit"} {
		tools = append(tools, jsonobj.Object{{"name", name}, {"description", g.txt.sentence()},
			{"parameters", jsonobj.Object{{"type", "object"}}}})
	}
	g.tick(0, 20)
	g.logOnly(sessionlog.TypeRequestHeader, jsonobj.Object{
		{"header", jsonobj.Object{{"config", cfg}, {"system", "You are a coding agent. " + g.txt.sentence()}, {"tools", tools}}},
		{"reason", reason},
	})
}

func (g *gen) requestContext() {
	g.tick(0, 10)
	g.logOnly(sessionlog.TypeRequestContext, jsonobj.Object{{"provider", logbuild.DefaultProvider}, {"model", g.model},
		{"contextWindow", pick(g, []int{64000, 128000, 1000000})}})
}

// betweenTurns writes what may happen while no turn is open.
func (g *gen) betweenTurns() {
	g.tick(2000, 600000)
	if g.chance(0.12 * g.cfg.Compactions) {
		g.manualCompaction(false)
	}
	if g.chance(0.04 * g.cfg.Compactions) {
		g.manualCompaction(true)
	}
	if g.chance(0.07 * g.cfg.Compactions) {
		g.foreignReplacement()
	}
	if g.chance(0.1) {
		g.logOnly(sessionlog.TypeSessionTitle, jsonobj.Object{{"title", g.txt.text()}, {"generated", true}})
	}
	if g.chance(0.05) {
		g.requestHeader("change")
	}
	if g.chance(0.05) {
		g.requestContext()
	}
	if !g.older && g.chance(0.08) {
		g.tick(0, 50)
		g.emit(UnknownType, jsonobj.Object{{"note", g.txt.text()}, {"n", g.intn(100)}}, nil, nil, true)
	}
	if g.chance(0.06) {
		// A resume: the stored log was the seed. Sometimes the dead writer
		// left a standalone compaction open; after the seed marker it is a
		// stale lock that blocks nothing and shows no progress.
		if g.chance(0.3) {
			g.compactionStart(nil, "")
		}
		g.endSeed()
	}
}

func (g *gen) endSeed() {
	g.tick(5000, 3600000)
	g.logOnly(sessionlog.TypeSessionEndSeed, jsonobj.Object{})
	g.endSeeds++
}
