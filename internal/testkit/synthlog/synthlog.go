// Package synthlog generates realistic synthetic session logs for tests and
// benchmarks, and random edits of JSON payloads for the differential tests of
// the fast decoders. It is test support: nothing in a shipped binary uses it.
package synthlog

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
)

// Log returns a realistic, valid log of exactly n events in the newer
// vocabulary. Each turn is a prompt and one to three steps; a step streams
// 5–20 text chunks, settles an assistant/message citing them, and (except
// the last) calls a tool whose result is 1–3 KB. Every 5th turn prunes the
// oldest unpruned tool result on the surface (compaction/prune + pruned
// copy); every 10th turn compacts the first two thirds of the surface
// (compaction/start, summary, checkpoint, end), so the surface stays
// bounded as real sessions do. The output is deterministic.
func Log(n int) []sessionlog.Event { return LogSeed(n, 0) }

// LogSeed is Log with another random seed: same shape, other
// sizes and texts.
func LogSeed(n int, seed uint64) []sessionlog.Event {
	g := &synth{events: make([]sessionlog.Event, 0, n+64), rng: seed}
	for turn := int64(1); len(g.events) < n; turn++ {
		g.turn(turn)
	}
	return g.events[:n]
}

type synth struct {
	events []sessionlog.Event
	nodes  []int64 // current surface, in surface order
	pruned map[int64]bool
	rng    uint64
}

func (g *synth) rand(n int) int {
	g.rng = g.rng*6364136223846793005 + 1442695040888963407
	return int((g.rng >> 33) % uint64(n))
}

func (g *synth) add(typ, data, op string, sources []int64) int64 {
	seq := int64(len(g.events))
	e := sessionlog.Event{Type: typ, Seq: seq, Time: 1784630400000 + seq*37, Data: json.RawMessage(data)}
	if op != "" {
		e.SurfaceOp = json.RawMessage(op)
	}
	if sources != nil {
		b, _ := json.Marshal(sources)
		e.SourceEventSeqs = b
	}
	g.events = append(g.events, e)
	return seq
}

func (g *synth) appendNode(typ, data string, sources []int64) {
	seq := g.add(typ, data, `"append"`, sources)
	g.nodes = append(g.nodes, seq)
}

func (g *synth) replaceNodes(typ, data string, si, ei int, extra ...int64) int64 {
	start, end := g.nodes[si], g.nodes[ei]
	shadowed := append([]int64(nil), g.nodes[si:ei+1]...)
	seq := g.add(typ, data, string(sessionlog.ReplaceOp(start, end)), append(extra, shadowed...))
	g.nodes = append(append(append([]int64(nil), g.nodes[:si]...), seq), g.nodes[ei+1:]...)
	return seq
}

const synthModel = `"source":{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"}`

func synthToolData(turn, step int64, id, text string) string {
	return fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"id":"m-t-%s","role":"user","content":[{"type":"tool-result","toolCallId":"%s","content":[{"type":"text","text":%q}],"isError":false}],"source":{"kind":"tool","callId":"%s"}}}`,
		turn, step, id, id, text, id)
}

func (g *synth) turn(turn int64) {
	if g.pruned == nil {
		g.pruned = map[int64]bool{}
	}
	g.add(sessionlog.TypeTurnStart, fmt.Sprintf(`{"turn":%d}`, turn), "", nil)
	if turn%5 == 0 {
		g.prune()
	}
	if turn%10 == 0 && len(g.nodes) >= 3 {
		g.compact(turn)
	}
	g.add(sessionlog.TypeStepStart, fmt.Sprintf(`{"turn":%d,"step":1}`, turn), "", nil)
	g.appendNode(sessionlog.TypeUserMessage, fmt.Sprintf(`{"id":"m-u%d","role":"user","content":[{"type":"text","text":"Prompt %d: please look at file %d and explain what it does."}],"source":{"kind":"user"}}`, turn, turn, g.rand(1000)), nil)
	if turn%7 == 1 {
		g.add(sessionlog.TypeRequestContext, `{"provider":"deepseek-official","model":"deepseek-v4-flash","contextWindow":128000}`, "", nil)
	}
	steps := int64(1 + g.rand(3))
	for step := int64(1); step <= steps; step++ {
		if step > 1 {
			g.add(sessionlog.TypeStepStart, fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "", nil)
		}
		var chunks []int64
		chunks = append(chunks, g.add(sessionlog.TypeAssistantChunk, fmt.Sprintf(`{"turn":%d,"step":%d,"chunk":{"type":"block-start","index":0,"blockType":"text"}}`, turn, step), "", nil))
		var text strings.Builder
		for k := 0; k < 5+g.rand(16); k++ {
			word := fmt.Sprintf(" word%d", g.rand(500))
			text.WriteString(word)
			chunks = append(chunks, g.add(sessionlog.TypeAssistantChunk, fmt.Sprintf(`{"turn":%d,"step":%d,"chunk":{"type":"text-delta","index":0,"text":%q}}`, turn, step, word), "", nil))
		}
		chunks = append(chunks, g.add(sessionlog.TypeAssistantChunk, fmt.Sprintf(`{"turn":%d,"step":%d,"chunk":{"type":"finish","reason":{"kind":"stop"}}}`, turn, step), "", nil))
		callID := fmt.Sprintf("call-%d-%d", turn, step)
		content := fmt.Sprintf(`[{"type":"text","text":%q}]`, text.String())
		if step < steps {
			content = fmt.Sprintf(`[{"type":"text","text":%q},{"type":"tool-call","id":"%s","name":"bash","arguments":"{\"command\":\"cat f%d\"}"}]`, text.String(), callID, step)
		}
		g.appendNode(sessionlog.TypeAssistantMessage, fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"id":"m-a%d-%d","role":"assistant","content":%s,%s},"usage":{"inputTokens":%d,"outputTokens":%d}}`,
			turn, step, turn, step, content, synthModel, 1000+g.rand(9000), 10+g.rand(500)), chunks)
		if step < steps {
			call := g.add(sessionlog.TypeToolCall, fmt.Sprintf(`{"turn":%d,"step":%d,"callId":"%s","name":"bash","arguments":"{\"command\":\"cat f%d\"}"}`, turn, step, callID, step), "", nil)
			out := strings.Repeat(fmt.Sprintf("line %d of the output of %s\n", g.rand(100), callID), 30+g.rand(60))
			g.appendNode(sessionlog.TypeToolResult, synthToolData(turn, step, callID, out), []int64{call})
		}
		g.add(sessionlog.TypeStepEnd, fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "", nil)
	}
	g.add(sessionlog.TypeTurnEnd, fmt.Sprintf(`{"turn":%d,"reason":{"kind":"completed"}}`, turn), "", nil)
}

// prune replaces the oldest unpruned tool/result node with a shorter copy.
func (g *synth) prune() {
	for i, seq := range g.nodes {
		e := g.events[seq]
		if e.Type != sessionlog.TypeToolResult || g.pruned[seq] {
			continue
		}
		var d sessionlog.ToolResultData
		if json.Unmarshal(e.Data, &d) != nil {
			panic("synth: bad tool result")
		}
		text := sessionlog.ContentText(d.Message.Content)
		short := text[:len(text)/4] + "\n\n[... tool result middle pruned ...]\n\n" + text[len(text)-len(text)/8:]
		g.add(sessionlog.TypeCompactionPrune, fmt.Sprintf(`{"shadowedRange":{"start":%d,"end":%d},"shadowedSeqs":[%d],"shadowedTokenCount":%d}`, seq, seq, seq, len(text)/4), "", nil)
		copySeq := g.replaceNodes(sessionlog.TypeToolResult, synthToolData(d.Turn, d.Step, sessionlog.DecodeSource(d.Message.Source).CallID, short), i, i)
		g.pruned[copySeq] = true
		return
	}
}

// compact replaces the first two thirds of the surface with a checkpoint.
func (g *synth) compact(turn int64) {
	id := fmt.Sprintf("cmp-%d", turn)
	ei := len(g.nodes)*2/3 - 1
	shadowed := g.nodes[:ei+1]
	start := g.add(sessionlog.TypeCompactionStart, fmt.Sprintf(`{"compactionId":%q,"turn":%d}`, id, turn), "", nil)
	seqs, _ := json.Marshal(shadowed)
	summary := g.add(sessionlog.TypeCompactionSummary, fmt.Sprintf(`{"compactionId":%q,"summary":[{"type":"text","text":"Summary of %d nodes."}],"shadowedRange":{"start":%d,"end":%d},"shadowedSeqs":%s,"shadowedTokenCount":%d,"provider":"deepseek-official","model":"deepseek-v4-flash"}`,
		id, len(shadowed), shadowed[0], shadowed[len(shadowed)-1], seqs, 100*len(shadowed)), "", nil)
	g.replaceNodes(sessionlog.TypeUserMessage, fmt.Sprintf(`{"id":"m-ckpt-%d","role":"user","content":[{"type":"text","text":%q},{"type":"text","text":"Summary of %d nodes."},{"type":"text","text":"</compacted-summary>"}],"source":%s}`,
		turn, sessionlog.CheckpointPreamble+"\n\n<compacted-summary>", len(shadowed), sessionlog.CompactCheckpointSource(id, "")), 0, ei, start, summary)
	g.add(sessionlog.TypeCompactionEnd, fmt.Sprintf(`{"compactionId":%q,"turn":%d}`, id, turn), "", nil)
}

// EditPayload returns p with one random edit: a byte replaced, dropped or
// inserted (from bytes that matter to JSON), one of keys recased, or one
// of keys given a null value ahead of its own.
func EditPayload(r *rand.Rand, p string, keys []string) string {
	const alphabet = "{}[]:,\"\\ 0123456789-.eEnultrx\x00\x1f\x7f\xc3\xa9\xff"
	if p == "" {
		return p
	}
	b := []byte(p)
	i := r.IntN(len(b))
	k := keys[r.IntN(len(keys))]
	switch r.IntN(5) {
	case 0:
		b[i] = alphabet[r.IntN(len(alphabet))]
	case 1:
		b = append(b[:i], b[i+1:]...)
	case 2:
		b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
	case 3:
		return strings.Replace(p, k, strings.ToUpper(k), 1)
	default:
		return strings.Replace(p, k+":", k+":null,"+k+":", 1)
	}
	return string(b)
}
