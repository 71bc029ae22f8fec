package sessiongen

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file writes steps: streamed chunks, settled messages and tool calls.

type block struct {
	typ            string // text, reasoning, tool-call
	text           string
	id, name, args string
}

func (b block) object() jsonobj.Object {
	switch b.typ {
	case "tool-call":
		return logbuild.ToolCallBlock(b.id, b.name, b.args)
	case "reasoning":
		return logbuild.ReasoningBlock(b.text)
	}
	return logbuild.TextBlock(b.text)
}

// toolCall draws a call: a tool name and its raw JSON arguments string.
func (g *gen) toolCall() block {
	b := block{typ: "tool-call", id: g.callID()}
	arg := g.txt.words(g.between(1, 5))
	if g.chance(g.cfg.Hostile / 2) {
		arg = g.txt.hostile()
	}
	switch g.intn(7) {
	case 0, 1:
		b.name, b.args = "bash", string(encode(jsonobj.Object{{"command", arg}}))
	case 2:
		b.name, b.args = "read", string(encode(jsonobj.Object{{"path", "src/" + g.txt.word() + ".go"}}))
	case 3:
		b.name, b.args = "edit", string(encode(jsonobj.Object{{"path", "README.md"}, {"old", arg}, {"new", g.txt.words(3)}}))
	case 4:
		b.name, b.args = "grep", string(encode(jsonobj.Object{{"pattern", arg}, {"path", "."}}))
	case 5:
		b.name, b.args = "mcp__"+g.txt.word()+"__lookup", string(encode(jsonobj.Object{{"q", arg}, {"limit", 5}}))
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
	emit := func(c jsonobj.Object) bool {
		if limit > 0 && len(seqs) >= limit {
			return false
		}
		g.tick(1, 150)
		seqs = append(seqs, g.logOnly(sessionlog.TypeAssistantChunk, logbuild.Chunk(t, s, c)))
		return true
	}
	for i, b := range blocks {
		if g.chance(0.9) && !emit(logbuild.BlockStart(i, b.typ)) {
			return seqs
		}
		if b.typ == "tool-call" {
			for j, piece := range g.split(b.args) {
				name := ""
				if j == 0 {
					name = b.name
				}
				if !emit(logbuild.ToolCallDelta(i, b.id, name, piece)) {
					return seqs
				}
			}
		} else {
			for _, piece := range g.split(b.text) {
				if !emit(logbuild.Delta(b.typ, i, piece)) {
					return seqs
				}
			}
		}
		if g.chance(0.9) && !emit(logbuild.BlockEnd(i, b.object())) {
			return seqs
		}
	}
	if g.chance(0.5) && !emit(logbuild.UsageChunk(g.usage())) {
		return seqs
	}
	emit(logbuild.Finish(finish))
	return seqs
}

// split cuts s into one to six pieces at rune boundaries (which may fall
// inside a grapheme cluster or an escape sequence, as real streams do).
func (g *gen) split(s string) []string {
	runes := []rune(s)
	n := g.between(1, 6)
	if g.cfg.Terse >= 2 {
		n = g.between(3, 12) // token-sized deltas, as real streams have
	}
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
	if g.cfg.Settled {
		return
	}
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
	r := logbuild.Retry{Turn: t, Step: s, N: int64(n)}
	if g.chance(0.7) {
		r.Mode, r.PolicyKey, r.Max, r.DelayMs = logbuild.RetryNormal, "default", 3, int64(500*n)
	} else {
		r.Mode, r.PolicyKey, r.DelayMs = logbuild.RetryAlways, "overloaded", 1000
	}
	r.Failure = g.failureText()
	g.logOnly(sessionlog.TypeLLMRetry, r.Data())
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
	streamed := !g.cfg.Settled && g.chance(0.8)
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
	content := make([]jsonobj.Object, 0, len(blocks))
	for _, b := range blocks {
		content = append(content, b.object())
	}
	data := logbuild.Assistant{Turn: t, Step: s, Message: logbuild.ModelMessage(g.msgID(), content, g.model)}
	if g.chance(0.7) {
		data.Usage = g.usage()
	}
	m := &nodeMeta{}
	for _, b := range callBlocks {
		m.calls = append(m.calls, b.id)
	}
	aSeq := g.appendSurface(sessionlog.TypeAssistantMessage, data.Data(), src, m)

	if len(callBlocks) == 0 && len(blocks) > 0 && g.chance(0.1) {
		g.regenerate(t, s, aSeq)
	}
	g.tools(t, s, callBlocks)
	if g.chance(0.05) {
		g.todo()
	}
	g.tick(0, 20)
	g.logOnly(sessionlog.TypeStepEnd, logbuild.Step(t, s))
}

// regenerate writes a regenerated copy of an assistant message (log.md
// §8.2): a model-only replacement the transcript never shows.
func (g *gen) regenerate(t, s, seq int64) {
	g.tick(500, 5000)
	data := logbuild.Assistant{Turn: t, Step: s, Message: logbuild.ModelMessage(g.msgID(),
		[]jsonobj.Object{logbuild.TextBlock("Regenerated " + ModelOnlyCanary + " " + g.txt.sentence())}, g.model)}
	g.replace(sessionlog.TypeAssistantMessage, data.Data(), seq, seq, []int64{seq}, &nodeMeta{})
}

func (g *gen) todo() {
	var todos []any
	for range g.between(1, 4) {
		todos = append(todos, jsonobj.Object{{"content", g.txt.words(4)},
			{"status", pick(g, []string{"pending", "in_progress", "completed"})}})
	}
	g.tick(0, 10)
	g.logOnly(sessionlog.TypeTodoWrite, jsonobj.Object{{"todos", todos}})
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
		seq := g.logOnly(sessionlog.TypeToolCall, logbuild.ToolCall(t, s, b.id, b.name, b.args))
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
		g.logOnly(sessionlog.TypeToolCall, logbuild.ToolCall(t, s, g.callID(), "bash", `{"command":"orphan"}`))
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
	var errObj, meta jsonobj.Object
	huge := false
	switch {
	case callSeq < 0:
		text, isError = "Tool call was not started.", true
		errObj = logbuild.ToolError("TOOL_NOT_STARTED")
	case g.chance(0.12):
		text, isError = g.txt.toolOutput(false), true
		errObj = logbuild.ToolError("EXIT_NONZERO")
		if b.name == "bash" {
			meta = jsonobj.Object{{"exitCode", g.between(1, 255)}}
		}
	default:
		huge = g.chance(g.cfg.Huge)
		text = g.txt.toolOutput(huge)
		if b.name == "bash" {
			meta = jsonobj.Object{{"exitCode", 0}}
			if g.chance(0.2) {
				meta = jsonobj.Object{{"exitCode", 0}, {"durationMs", g.intn(5000)}, {"truncated", false}}
			}
		}
	}
	var extra []jsonobj.Object
	if !huge && g.chance(0.05) {
		extra = append(extra, logbuild.ImageBlock("image/png", "AAAA"))
	}
	if !huge && g.chance(0.05) {
		extra = append(extra, logbuild.TextBlock("\n"+g.txt.sentence()))
	}
	id := g.msgID()
	build := func(text string) jsonobj.Object {
		return logbuild.ToolResult{Turn: t, Step: s, ID: id, CallID: b.id,
			Content: append([]jsonobj.Object{logbuild.TextBlock(text)}, extra...),
			IsError: isError, AlwaysIsError: g.older, Error: errObj, Meta: meta}.Data()
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
