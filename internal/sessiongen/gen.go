package sessiongen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

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
	data   func(text string) obj
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
	return fmt.Sprintf("msg-%d-%04x", g.msgN, g.rng.Uint32()&0xffff)
}

func (g *gen) callID() string {
	g.callN++
	return fmt.Sprintf("call_%d_%06x", g.callN, g.rng.Uint32()&0xffffff)
}

func (g *gen) uuid() string {
	a, b := g.rng.Uint64(), g.rng.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff,
		0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
}

// Payload helpers.

func textBlock(s string) obj { return obj{{"type", "text"}, {"text", s}} }

func userMsg(id string, content any, source any) obj {
	return obj{{"id", id}, {"role", "user"}, {"content", content}, {"source", source}}
}

var userSource = obj{{"kind", "user"}}

func (g *gen) modelSource() obj {
	return obj{{"kind", "model"}, {"provider", "deepseek-official"}, {"model", g.model}}
}

func (g *gen) usage() obj {
	u := obj{{"inputTokens", g.between(100, 90000)}, {"outputTokens", g.between(1, 4000)}}
	if g.chance(0.5) {
		u = append(u, kv{"cacheReadTokens", g.between(0, 80000)})
	}
	if g.chance(0.3) {
		u = append(u, kv{"reasoningTokens", g.between(0, 2000)})
	}
	return u
}

func tokensOf(s string) int64 { return int64(utf8.RuneCountInString(s)/4 + 1) }

// run writes the whole session.
func (g *gen) run() {
	g.model = pick(g, []string{"deepseek-v4-flash", "deepseek-v4-pro"})
	headerInTurn := g.chance(0.4)
	if !headerInTurn {
		g.requestHeader("initial")
		if g.chance(0.7) {
			g.requestContext()
		}
	}
	if g.chance(0.3) {
		g.logOnly(sessionlog.TypeSessionTitle, obj{{"title", g.txt.text()}})
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
	cfg := obj{{"provider", "deepseek-official"}, {"model", g.model}}
	if g.chance(0.5) {
		cfg = append(cfg, kv{"reasoningEffort", pick(g, []string{"low", "medium", "high"})})
	}
	tools := []obj{}
	for _, name := range []string{"bash", "read", "edit"} {
		tools = append(tools, obj{{"name", name}, {"description", g.txt.sentence()},
			{"parameters", obj{{"type", "object"}}}})
	}
	g.tick(0, 20)
	g.logOnly(sessionlog.TypeRequestHeader, obj{
		{"header", obj{{"config", cfg}, {"system", "You are a coding agent. " + g.txt.sentence()}, {"tools", tools}}},
		{"reason", reason},
	})
}

func (g *gen) requestContext() {
	g.tick(0, 10)
	g.logOnly(sessionlog.TypeRequestContext, obj{{"provider", "deepseek-official"}, {"model", g.model},
		{"contextWindow", pick(g, []int{64000, 128000, 1000000})}})
}

// betweenTurns writes what may happen while no turn is open.
func (g *gen) betweenTurns() {
	g.tick(2000, 600000)
	if g.chance(0.12) {
		g.manualCompaction(false)
	}
	if g.chance(0.04) {
		g.manualCompaction(true)
	}
	if g.chance(0.07) {
		g.foreignReplacement()
	}
	if g.chance(0.1) {
		g.logOnly(sessionlog.TypeSessionTitle, obj{{"title", g.txt.text()}, {"generated", true}})
	}
	if g.chance(0.05) {
		g.requestHeader("change")
	}
	if g.chance(0.05) {
		g.requestContext()
	}
	if !g.older && g.chance(0.08) {
		g.tick(0, 50)
		g.emit(UnknownType, obj{{"note", g.txt.text()}, {"n", g.intn(100)}}, nil, nil, true)
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
	g.logOnly(sessionlog.TypeSessionEndSeed, obj{})
	g.endSeeds++
}

// Turns.

type endKind string

const (
	endCompleted   endKind = "completed"
	endAborted     endKind = "aborted"
	endError       endKind = "error"
	endDisposed    endKind = "disposed"
	endMaxTokens   endKind = "max-tokens"
	endInterrupted endKind = "interrupted"
	endBlocked     endKind = "blocked"
	endOther       endKind = "paused" // an unknown kind: "Turn ended: paused."
)

func (g *gen) pickEnd() endKind {
	r := g.rng.Float64()
	switch {
	case r < 0.55:
		return endCompleted
	case r < 0.63:
		return endAborted
	case r < 0.71:
		return endError
	case r < 0.76:
		return endDisposed
	case r < 0.83:
		return endMaxTokens
	case r < 0.90:
		return endInterrupted
	case r < 0.97:
		if g.older {
			return endAborted
		}
		return endBlocked
	}
	return endOther
}

// turn writes turn t. cut stops the session inside the turn's last step,
// mid-stream.
func (g *gen) turn(t int64, header, cut bool) {
	g.tick(1000, 120000)
	trigger := "message"
	switch r := g.rng.Float64(); {
	case r < 0.06:
		trigger = "injection"
	case r < 0.1:
		trigger = "retry"
	}
	ts := obj{{"turn", t}}
	if g.older {
		switch trigger {
		case "message":
			ts = append(ts, kv{"trigger", obj{{"kind", "message"}, {"source", userSource}}})
		case "injection":
			ts = append(ts, kv{"trigger", obj{{"kind", "injection"}, {"source", obj{{"kind", "plugin"}, {"plugin", "goal"}}}}})
		default:
			ts = append(ts, kv{"trigger", obj{{"kind", "retry"}}})
		}
	}
	g.logOnly(sessionlog.TypeTurnStart, ts)

	if t > 1 && g.chance(0.35) {
		g.autoCompaction(t)
	}
	end := g.pickEnd()
	nSteps := g.between(1, g.cfg.MaxStepsPerTurn)

	messages := func() {
		switch trigger {
		case "message":
			g.prompt()
		case "injection":
			g.context(true)
		}
		if g.chance(0.15) {
			g.context(false)
		}
		if g.chance(0.04) {
			g.sessionReference()
		}
	}
	if g.older {
		messages()
		g.tick(0, 5)
		g.logOnly(sessionlog.TypeStepStart, obj{{"turn", t}, {"step", 1}})
	} else {
		g.tick(0, 5)
		g.logOnly(sessionlog.TypeStepStart, obj{{"turn", t}, {"step", 1}})
		messages()
	}
	if header {
		g.requestHeader("initial")
		g.requestContext()
	}

	if end == endBlocked && g.chance(0.5) {
		g.turnEnd(t, 1, end)
		return
	}
	for s := int64(1); s <= int64(nSteps); s++ {
		final := s == int64(nSteps)
		if s > 1 {
			if g.older && g.chance(0.1) {
				g.tick(100, 5000)
				g.appendSurface(sessionlog.TypeSteeringMessage, obj{{"turn", t},
					{"message", userMsg(g.msgID(), []obj{textBlock(g.txt.prompt())}, userSource)}}, nil, &nodeMeta{})
			}
			g.tick(0, 10)
			g.logOnly(sessionlog.TypeStepStart, obj{{"turn", t}, {"step", s}})
		}
		if final && cut {
			g.partialStream(t, s)
			return
		}
		if final && (end == endAborted || end == endDisposed || end == endError || end == endInterrupted) && g.chance(0.7) {
			g.partialStream(t, s)
			if end == endError {
				for r := range g.between(0, 3) {
					g.retry(t, s, r+1)
					g.partialStream(t, s)
				}
			}
			if end == endInterrupted {
				g.endSeed()
			}
			g.turnEnd(t, s, end)
			return
		}
		if g.chance(0.08) {
			g.partialStream(t, s)
			g.retry(t, s, 1)
		}
		calls := 0
		if !final {
			calls = g.between(1, g.cfg.MaxCallsPerStep)
		} else if g.chance(0.1) {
			calls = g.between(1, g.cfg.MaxCallsPerStep) // a last step cut short by the turn's end
		}
		g.step(t, s, calls, final && end == endMaxTokens)
		if final && end == endInterrupted {
			g.endSeed()
		}
	}
	g.turnEnd(t, int64(nSteps), end)
}

func (g *gen) turnEnd(t, step int64, end endKind) {
	g.tick(0, 50)
	reason := obj{{"kind", string(end)}}
	if end == endError {
		reason = append(reason, kv{"step", step})
		if g.chance(0.6) {
			f := obj{{"message", g.failureText()}, {"code", pick(g, []string{"PROVIDER_ERROR", "RATE_LIMITED", "NETWORK"})}}
			if g.chance(0.5) {
				f = append(f, kv{"status", pick(g, []int{429, 500, 503})})
			}
			reason = append(reason, kv{"failure", f})
		} else {
			reason = append(reason, kv{"message", g.failureText()})
			if g.chance(0.5) {
				reason = append(reason, kv{"code", "UNKNOWN"})
			}
		}
	}
	g.logOnly(sessionlog.TypeTurnEnd, obj{{"turn", t}, {"reason", reason}})
}

func (g *gen) failureText() string {
	if g.chance(g.cfg.Hostile) {
		return g.txt.hostile()
	}
	return pick(g, []string{"upstream returned 503 Service Unavailable", "connection reset by peer",
		"rate limit exceeded; retry later", "stream ended unexpectedly", "invalid API response: unexpected token"})
}

// Messages.

func (g *gen) prompt() {
	g.tick(0, 20)
	content := []obj{textBlock(g.txt.prompt())}
	if g.chance(0.05) {
		content = append(content, obj{{"type", "image"}, {"mediaType", "image/png"}, {"data", "iVBORw0KGgo="}})
	}
	if g.chance(0.05) {
		content = append(content, textBlock(g.txt.sentence()))
	}
	src := userSource
	if g.chance(0.2) {
		src = obj{{"kind", "user"}, {"rpcId", fmt.Sprintf("rpc-%d", g.intn(1000))}, {"clientTimeZone", "Europe/Berlin"}}
	}
	g.appendSurface(sessionlog.TypeUserMessage, userMsg(g.msgID(), content, src), nil, &nodeMeta{})
}

// context appends injected context. primary is the message of an
// injection-triggered turn.
func (g *gen) context(primary bool) {
	g.tick(0, 20)
	body := g.txt.text()
	if g.chance(0.5) {
		name := pick(g, []string{"system-reminder", "agents-md", "ns:tag.v1-x"})
		body = "<" + name + ">\n" + body + "\n</" + name + ">"
	}
	if g.chance(0.05) {
		body = pick(g, []string{"", "  \n", "<system-reminder>\n\n</system-reminder>"})
	}
	var src obj
	switch g.intn(9) {
	case 0, 1:
		src = obj{{"kind", "plugin"}, {"plugin", "memory"}, {"form", "instructions"}}
	case 2:
		src = obj{{"kind", "plugin"}, {"plugin", "skills"}, {"form", "catalog"}}
	case 3:
		if g.older {
			src = obj{{"kind", "workspace-instructions"}, {"changes", []any{"AGENTS.md"}}}
		} else {
			src = obj{{"kind", "agent-instructions"}, {"form", "instructions"}, {"changes", []any{obj{{"path", "AGENTS.md"}}}}}
		}
	case 4:
		src = obj{{"kind", "goal"}, {"goalId", g.uuid()}, {"revision", 1}, {"round", g.between(1, 5)}}
	case 5:
		// A lookalike: the compact plugin's source, appended. Not a
		// checkpoint; it renders as a context card.
		src = obj{{"kind", "plugin"}, {"plugin", "compact"}}
	case 6:
		src = obj{{"kind", "plugin"}, {"plugin", g.txt.hostileBit() + "plug"}}
	case 7:
		src = obj{{"kind", "plugin"}, {"plugin", 7}}
	default:
		src = obj{{"kind", "x-custom-source"}}
	}
	if primary && src[0].v == "plugin" {
		src = src.set("plugin", "goal")
	}
	g.appendSurface(sessionlog.TypeUserMessage, userMsg(g.msgID(), []obj{textBlock(body)}, src), nil, &nodeMeta{})
}

func (g *gen) sessionReference() {
	g.tick(0, 20)
	var refs []any
	for i := range g.between(1, 3) {
		id := g.uuid()
		label := id
		if g.chance(0.6) {
			label = pick(g, []string{"bugfix session", "yesterday", g.txt.hostileBit()})
		}
		ref := obj{{"sessionId", id}, {"label", label}, {"capturedThroughSeq", g.intn(500)},
			{"compacted", g.chance(0.3)}, {"originalMessages", 10}, {"retainedMessages", 8},
			{"omittedMessages", 2}, {"omittedBytes", 1234}, {"inputIndex", i}}
		if g.chance(0.1) {
			ref = ref.set("label", 42) // malformed: the message becomes a context card
		}
		refs = append(refs, ref)
	}
	src := obj{{"kind", "session-reference"}, {"version", 1}, {"references", refs}}
	g.appendSurface(sessionlog.TypeUserMessage, userMsg(g.msgID(),
		[]obj{textBlock("<session-reference>\n" + g.txt.plain() + "\n</session-reference>")}, src), nil, &nodeMeta{})
}

// Steps.

type block struct {
	typ            string // text, reasoning, tool-call
	text           string
	id, name, args string
}

func (b block) obj() obj {
	if b.typ == "tool-call" {
		return obj{{"type", "tool-call"}, {"id", b.id}, {"name", b.name}, {"arguments", b.args}}
	}
	return obj{{"type", b.typ}, {"text", b.text}}
}

func chunk(t, s int64, c obj) obj { return obj{{"turn", t}, {"step", s}, {"chunk", c}} }

// toolCall draws a call: a tool name and its raw JSON arguments string.
func (g *gen) toolCall() block {
	b := block{typ: "tool-call", id: g.callID()}
	arg := g.txt.words(g.between(1, 5))
	if g.chance(g.cfg.Hostile / 2) {
		arg = g.txt.hostile()
	}
	switch g.intn(7) {
	case 0, 1:
		b.name, b.args = "bash", string(encode(obj{{"command", arg}}))
	case 2:
		b.name, b.args = "read", string(encode(obj{{"path", "src/" + g.txt.word() + ".go"}}))
	case 3:
		b.name, b.args = "edit", string(encode(obj{{"path", "README.md"}, {"old", arg}, {"new", g.txt.words(3)}}))
	case 4:
		b.name, b.args = "grep", string(encode(obj{{"pattern", arg}, {"path", "."}}))
	case 5:
		b.name, b.args = "mcp__"+g.txt.word()+"__lookup", string(encode(obj{{"q", arg}, {"limit", 5}}))
	default:
		b.name = "frobnicate"
		b.args = pick(g, []string{`{"broken": `, `not json at all`, `{}`, `[]`, `""`})
	}
	return b
}

// stream writes the chunks that stream blocks and returns their seqs. It
// stops after limit chunks when limit > 0.
func (g *gen) stream(t, s int64, blocks []block, finish string, limit int) []int64 {
	var seqs []int64
	emit := func(c obj) bool {
		if limit > 0 && len(seqs) >= limit {
			return false
		}
		g.tick(1, 150)
		seqs = append(seqs, g.logOnly(sessionlog.TypeAssistantChunk, chunk(t, s, c)))
		return true
	}
	for i, b := range blocks {
		if g.chance(0.9) && !emit(obj{{"type", "block-start"}, {"index", i}, {"blockType", b.typ}}) {
			return seqs
		}
		if b.typ == "tool-call" {
			for j, piece := range g.split(b.args) {
				c := obj{{"type", "tool-call-delta"}, {"index", i}, {"id", b.id}}
				if j == 0 {
					c = append(c, kv{"name", b.name})
				}
				c = append(c, kv{"argumentsDelta", piece})
				if !emit(c) {
					return seqs
				}
			}
		} else {
			for _, piece := range g.split(b.text) {
				if !emit(obj{{"type", b.typ + "-delta"}, {"index", i}, {"text", piece}}) {
					return seqs
				}
			}
		}
		if g.chance(0.9) && !emit(obj{{"type", "block-end"}, {"index", i}, {"block", b.obj()}}) {
			return seqs
		}
	}
	if g.chance(0.5) && !emit(obj{{"type", "usage"}, {"usage", g.usage()}}) {
		return seqs
	}
	emit(obj{{"type", "finish"}, {"reason", obj{{"kind", finish}}}})
	return seqs
}

// split cuts s into one to six pieces at rune boundaries (which may fall
// inside a grapheme cluster or an escape sequence, as real streams do).
func (g *gen) split(s string) []string {
	runes := []rune(s)
	n := g.between(1, 6)
	if len(runes) < 2 || n == 1 {
		return []string{s}
	}
	var cuts []int
	for range n - 1 {
		cuts = append(cuts, 1+g.intn(len(runes)-1))
	}
	slicesSort(cuts)
	var out []string
	prev := 0
	for _, c := range cuts {
		if c > prev {
			out = append(out, string(runes[prev:c]))
			prev = c
		}
	}
	return append(out, string(runes[prev:]))
}

func slicesSort(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// partialStream writes a stream that stops before it finishes: a step in
// flight.
func (g *gen) partialStream(t, s int64) {
	blocks := []block{}
	if g.chance(0.5) {
		blocks = append(blocks, block{typ: "reasoning", text: g.txt.text()})
	}
	blocks = append(blocks, block{typ: "text", text: g.txt.text()})
	if g.chance(0.3) {
		blocks = append(blocks, g.toolCall())
	}
	g.stream(t, s, blocks, "stop", g.between(1, 8))
}

func (g *gen) retry(t, s int64, n int) {
	g.tick(10, 3000)
	data := obj{{"turn", t}, {"step", s}, {"provider", "deepseek-official"}}
	if g.chance(0.7) {
		data = append(data, kv{"mode", "normal"}, kv{"policyKey", "default"}, kv{"retry", n},
			kv{"maxRetries", 3}, kv{"delayMs", 500 * n})
	} else {
		data = append(data, kv{"mode", "always"}, kv{"policyKey", "overloaded"}, kv{"retry", n}, kv{"delayMs", 1000})
	}
	data = append(data, kv{"failure", obj{{"message", g.failureText()}}})
	g.logOnly(sessionlog.TypeLLMRetry, data)
}

// step writes one settled step with calls tool calls. maxTokens ends it at
// the output-token limit, sometimes with a usage-only (empty) message.
func (g *gen) step(t, s int64, calls int, maxTokens bool) {
	var blocks []block
	if g.chance(0.5) {
		blocks = append(blocks, block{typ: "reasoning", text: g.txt.text()})
	}
	if calls == 0 || g.chance(0.5) {
		blocks = append(blocks, block{typ: "text", text: g.txt.text()})
	}
	if g.chance(0.05) {
		blocks = append(blocks, block{typ: "text", text: g.txt.sentence()})
	}
	var callBlocks []block
	for range calls {
		b := g.toolCall()
		callBlocks = append(callBlocks, b)
		blocks = append(blocks, b)
	}
	finish := "stop"
	if calls > 0 {
		finish = "tool-calls"
	}
	if maxTokens {
		finish = "max-tokens"
		if g.chance(0.4) {
			blocks, callBlocks = nil, nil
		}
	}

	var src []int64
	streamed := g.chance(0.8)
	if streamed {
		src = g.stream(t, s, blocks, finish, 0)
		if g.chance(0.15) {
			src = nil // provenance not recorded
		}
	} else {
		g.tick(200, 8000)
		if g.chance(0.5) {
			src = []int64{} // a known empty provider stream
		}
	}
	g.tick(0, 20)
	content := make([]obj, 0, len(blocks))
	for _, b := range blocks {
		content = append(content, b.obj())
	}
	data := obj{{"turn", t}, {"step", s}, {"message", obj{{"id", g.msgID()}, {"role", "assistant"},
		{"content", content}, {"source", g.modelSource()}}}}
	if g.chance(0.7) {
		data = append(data, kv{"usage", g.usage()})
	}
	m := &nodeMeta{}
	for _, b := range callBlocks {
		m.calls = append(m.calls, b.id)
	}
	aSeq := g.appendSurface(sessionlog.TypeAssistantMessage, data, src, m)

	if len(callBlocks) == 0 && len(blocks) > 0 && g.chance(0.1) {
		g.regenerate(t, s, aSeq)
	}
	g.tools(t, s, callBlocks)
	if g.chance(0.05) {
		g.todo()
	}
	g.tick(0, 20)
	g.logOnly(sessionlog.TypeStepEnd, obj{{"turn", t}, {"step", s}})
}

// regenerate writes a regenerated copy of an assistant message (log.md
// §8.2): a model-only replacement the transcript never shows.
func (g *gen) regenerate(t, s, seq int64) {
	g.tick(500, 5000)
	data := obj{{"turn", t}, {"step", s}, {"message", obj{{"id", g.msgID()}, {"role", "assistant"},
		{"content", []obj{textBlock("Regenerated " + ModelOnlyCanary + " " + g.txt.sentence())}},
		{"source", g.modelSource()}}}}
	g.replace(sessionlog.TypeAssistantMessage, data, seq, seq, []int64{seq}, &nodeMeta{})
}

func (g *gen) todo() {
	var todos []any
	for range g.between(1, 4) {
		todos = append(todos, obj{{"content", g.txt.words(4)},
			{"status", pick(g, []string{"pending", "in_progress", "completed"})}})
	}
	g.tick(0, 10)
	g.logOnly(sessionlog.TypeTodoWrite, obj{{"todos", todos}})
}

// tools writes the calls' tool/call and tool/result events: all calls then
// all results, or each call followed by its result.
func (g *gen) tools(t, s int64, calls []block) {
	if len(calls) == 0 {
		return
	}
	type started struct {
		b   block
		seq int64
	}
	var pending []started
	interleave := g.chance(0.5)
	for i, b := range calls {
		// The last call of several may never start: its result is the
		// synthetic TOOL_NOT_STARTED error, with no tool/call before it.
		if i > 0 && i == len(calls)-1 && g.chance(0.1) {
			pending = append(pending, started{b, -1})
			continue
		}
		g.tick(0, 10)
		seq := g.logOnly(sessionlog.TypeToolCall, obj{{"turn", t}, {"step", s}, {"callId", b.id},
			{"name", b.name}, {"arguments", b.args}})
		pending = append(pending, started{b, seq})
		if interleave {
			g.result(t, s, pending[0].b, pending[0].seq)
			pending = pending[1:]
		}
	}
	if g.chance(0.03) {
		// An orphan: a call no append-origin assistant message advertised.
		// Replay skips it; live must agree.
		g.tick(0, 10)
		g.logOnly(sessionlog.TypeToolCall, obj{{"turn", t}, {"step", s}, {"callId", g.callID()},
			{"name", "bash"}, {"arguments", `{"command":"orphan"}`}})
	}
	for _, p := range pending {
		g.result(t, s, p.b, p.seq)
	}
}

// result writes the tool/result for call b, whose tool/call is at callSeq
// (-1: the call never started).
func (g *gen) result(t, s int64, b block, callSeq int64) {
	g.tick(5, 4000)
	if g.chance(0.03) {
		g.tick(60000, 200000)
	}
	var text string
	isError := false
	var errObj, meta any
	huge := false
	switch {
	case callSeq < 0:
		text, isError = "Tool call was not started.", true
		errObj = obj{{"name", "ToolError"}, {"code", "TOOL_NOT_STARTED"}}
	case g.chance(0.12):
		text, isError = g.txt.toolOutput(false), true
		errObj = obj{{"name", "ToolError"}, {"code", "EXIT_NONZERO"}}
		if b.name == "bash" {
			meta = obj{{"exitCode", g.between(1, 255)}}
		}
	default:
		huge = g.chance(g.cfg.Huge)
		text = g.txt.toolOutput(huge)
		if b.name == "bash" {
			meta = obj{{"exitCode", 0}}
			if g.chance(0.2) {
				meta = obj{{"exitCode", 0}, {"durationMs", g.intn(5000)}, {"truncated", false}}
			}
		}
	}
	extra := []obj(nil)
	if !huge && g.chance(0.05) {
		extra = append(extra, obj{{"type", "image"}, {"mediaType", "image/png"}, {"data", "AAAA"}})
	}
	if !huge && g.chance(0.05) {
		extra = append(extra, textBlock("\n"+g.txt.sentence()))
	}
	id := g.msgID()
	build := func(text string) obj {
		inner := append([]obj{textBlock(text)}, extra...)
		res := obj{{"type", "tool-result"}, {"toolCallId", b.id}, {"content", inner}}
		if isError || g.older {
			res = append(res, kv{"isError", isError})
		}
		d := obj{{"turn", t}, {"step", s}, {"message", userMsg(id, []obj{res}, obj{{"kind", "tool"}, {"callId", b.id}})}}
		if errObj != nil {
			d = append(d, kv{"error", errObj})
		}
		if meta != nil {
			d = append(d, kv{"meta", meta})
		}
		return d
	}
	var src []int64
	if callSeq >= 0 {
		src = []int64{callSeq}
	} else {
		src = []int64{int64(g.sess.Len() - 1)}
	}
	g.appendSurface(sessionlog.TypeToolResult, build(text), src,
		&nodeMeta{callID: b.id, text: text, data: build, tokens: tokensOf(text)})
}

// Compaction.

// ranges computes, for the current surface, which node indices may start
// and which may end a replaced range without splitting a call from its
// result.
func (g *gen) ranges(nodes []int64) (okStart, okEnd []bool) {
	n := len(nodes)
	callAt := map[string]int{}
	for i, seq := range nodes {
		for _, c := range g.meta[seq].calls {
			callAt[c] = i
		}
	}
	// crossStart[a]: some pair has call < a <= result. crossEnd[b]: call <= b < result.
	diffS := make([]int, n+2)
	for i, seq := range nodes {
		m := g.meta[seq]
		if m.callID == "" {
			continue
		}
		ci, ok := callAt[m.callID]
		if !ok || ci >= i {
			continue
		}
		// Starts in (ci, i] and ends in [ci, i) split the pair.
		diffS[ci+1]++
		diffS[i+1]--
	}
	okStart = make([]bool, n)
	okEnd = make([]bool, n)
	run := 0
	for a := range n {
		run += diffS[a]
		okStart[a] = run == 0
	}
	// An end b splits a pair when ci <= b < ri, i.e. when start b+1 does.
	for b := range n {
		okEnd[b] = b == n-1 || okStart[b+1]
	}
	return okStart, okEnd
}

func (g *gen) summaryText() string {
	return "Summary " + SummaryCanary + " " + ModelOnlyCanary + " " + g.txt.sentence()
}

func (g *gen) compactionStart(turn *int64, cmd string) (id string, seq int64) {
	var turnV any
	if turn != nil {
		turnV = *turn
	}
	if g.older {
		return "", g.logOnly(sessionlog.TypeCompactStart, logbuild.Tx{Older: true}.Start(turnV))
	}
	id = g.uuid()
	return id, g.logOnly(sessionlog.TypeCompactionStart, logbuild.Tx{CompactionID: id, SourceCommandID: cmd}.Start(turnV))
}

func (g *gen) compactionEnd(id, cmd string, turn *int64, errText string) {
	var turnV any
	if turn != nil {
		turnV = *turn
	}
	tx := logbuild.Tx{Older: g.older, CompactionID: id, SourceCommandID: cmd}
	var failure *string
	if errText != "" {
		failure = &errText
	}
	g.tick(0, 10)
	g.logOnly(logbuild.Compaction(g.older).End, tx.End(turnV, failure))
}

// compact writes a compaction transaction over surface indices a..b, or a
// failed one when fail is set. turn nil is standalone.
func (g *gen) compact(turn *int64, a, b int, fail bool) {
	cmd := ""
	if turn == nil && !g.older && g.chance(0.5) {
		g.cmdN++
		cmd = fmt.Sprintf("cmd-%d", g.cmdN)
	}
	g.tick(0, 50)
	id, startSeq := g.compactionStart(turn, cmd)
	if turn == nil && g.chance(0.3) {
		// Unrelated events may land while the summary is written.
		g.tick(100, 2000)
		g.todo()
	}
	g.tick(1000, 30000)
	if fail {
		g.compactionEnd(id, cmd, turn, "compaction failed: "+g.failureText())
		return
	}
	nodes := g.nodes()
	shadowed := append([]int64(nil), nodes[a:b+1]...)
	var tokens int64
	for _, s := range shadowed {
		tokens += g.meta[s].tokens + 50
	}
	summary := []logbuild.Object{logbuild.TextBlock(g.summaryText())}
	if g.chance(0.2) {
		summary = append(summary, logbuild.TextBlock(g.txt.sentence()))
	}
	sd := logbuild.Summary{Summary: summary, Shadowed: shadowed, Start: shadowed[0], End: shadowed[len(shadowed)-1],
		Tokens: tokens, Provider: "deepseek-official", Model: g.model}
	if !g.older && g.chance(0.5) {
		sd.RawOutput, sd.LLMStreamCall = summary, true
	}
	if g.chance(0.3) {
		sd.MaxTokens, sd.Usage = 8192, g.usage()
	}
	tx := logbuild.Tx{Older: g.older, CompactionID: id, SourceCommandID: cmd}
	sumSeq := g.logOnly(logbuild.Compaction(g.older).Summary, tx.Data(sd))

	content := logbuild.CheckpointContent(summary)
	src := logbuild.CheckpointSources(startSeq, sumSeq, shadowed)
	g.tick(0, 2)
	g.replace(sessionlog.TypeUserMessage,
		userMsg(g.msgID(), content, json.RawMessage(sessionlog.CompactCheckpointSource(id, cmd))),
		shadowed[0], shadowed[len(shadowed)-1], src, &nodeMeta{tokens: tokensOf(g.summaryText()) + 60})
	g.compactionEnd(id, cmd, turn, "")
}

// autoCompaction is the in-turn path: a prune pass, then (unless pruning
// was enough) a head-anchored compaction owned by the turn.
func (g *gen) autoCompaction(t int64) {
	pruned := g.prunePass()
	if pruned && g.chance(0.5) {
		return
	}
	nodes := g.nodes()
	_, okEnd := g.ranges(nodes)
	var ends []int
	for b := range nodes {
		if okEnd[b] {
			ends = append(ends, b)
		}
	}
	fail := g.chance(0.15)
	if len(ends) == 0 {
		if !fail {
			return
		}
		ends = []int{0}
	}
	b := ends[g.intn(len(ends))]
	g.compact(&t, 0, b, fail)
}

// manualCompaction is the standalone /compact path over a mid-range span,
// which may hold an earlier checkpoint (re-compaction).
func (g *gen) manualCompaction(fail bool) {
	nodes := g.nodes()
	a, b, ok := g.pickRange(nodes)
	if !ok {
		if !fail {
			return
		}
		a, b = 0, 0
	}
	g.compact(nil, a, b, fail)
}

// pickRange picks a replaceable span of the surface.
func (g *gen) pickRange(nodes []int64) (a, b int, ok bool) {
	okStart, okEnd := g.ranges(nodes)
	var starts []int
	for i := range nodes {
		if okStart[i] {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return 0, 0, false
	}
	a = starts[g.intn(len(starts))]
	var ends []int
	for i := a; i < len(nodes); i++ {
		if okEnd[i] {
			ends = append(ends, i)
		}
	}
	if len(ends) == 0 {
		return 0, 0, false
	}
	return a, ends[g.intn(len(ends))], true
}

// prunePass is the pruner (log.md §11): every tool/result on the surface
// whose text exceeds the threshold is replaced by its pruned copy, preceded
// in the newer vocabulary by compaction/prune.
func (g *gen) prunePass() bool {
	did := false
	for _, seq := range g.nodes() {
		m := g.meta[seq]
		if m.typ != sessionlog.TypeToolResult || m.data == nil {
			continue
		}
		prunedText, ok := logbuild.DefaultPruneConfig().Prune(m.text)
		if !ok {
			continue
		}
		g.tick(0, 10)
		if !g.older {
			g.logOnly(sessionlog.TypeCompactionPrune, logbuild.PruneRecord(seq, m.tokens))
		}
		g.tick(0, 2)
		g.replace(sessionlog.TypeToolResult, m.data(prunedText), seq, seq, []int64{seq},
			&nodeMeta{callID: m.callID, text: prunedText, data: m.data, tokens: tokensOf(prunedText)})
		did = true
	}
	return did
}

// foreignReplacement is another plugin's replacement of a span: model-only,
// silent in the transcript, not a checkpoint.
func (g *gen) foreignReplacement() {
	nodes := g.nodes()
	a, b, ok := g.pickRange(nodes)
	if !ok {
		return
	}
	shadowed := append([]int64(nil), nodes[a:b+1]...)
	src := shadowed
	if g.chance(0.3) && g.sess.Len() > 0 {
		src = append([]int64{int64(g.intn(g.sess.Len()))}, shadowed...)
		src = dedupe(src)
	}
	g.tick(10, 500)
	plugin := pick(g, []string{"other", "memory-compressor"})
	g.replace(sessionlog.TypeUserMessage, userMsg(g.msgID(),
		[]obj{textBlock("Replaced by " + plugin + " " + ModelOnlyCanary + " " + strings.TrimSpace(g.txt.sentence()))},
		obj{{"kind", "plugin"}, {"plugin", plugin}}),
		shadowed[0], shadowed[len(shadowed)-1], src, &nodeMeta{tokens: 20})
}

func dedupe(xs []int64) []int64 {
	seen := map[int64]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
