package sessiongen

import "github.com/dshtest/dshtest/sessionlog"

// This file writes steps: streamed chunks, settled messages and tool calls.

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
