package projection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// synthLog returns a realistic, valid log of exactly n events in the newer
// vocabulary. Each turn is a prompt and one to three steps; a step streams
// 5–20 text chunks, settles an assistant/message citing them, and (except
// the last) calls a tool whose result is 1–3 KB. Every 5th turn prunes the
// oldest unpruned tool result on the surface (compaction/prune + pruned
// copy); every 10th turn compacts the first two thirds of the surface
// (compaction/start, summary, checkpoint, end), so the surface stays
// bounded as real sessions do. The output is deterministic.
func synthLog(n int) []Event { return synthLogSeed(n, 0) }

// synthLogSeed is synthLog with another random seed: same shape, other
// sizes and texts.
func synthLogSeed(n int, seed uint64) []Event {
	g := &synth{events: make([]Event, 0, n+64), rng: seed}
	for turn := int64(1); len(g.events) < n; turn++ {
		g.turn(turn)
	}
	return g.events[:n]
}

type synth struct {
	events []Event
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
	e := Event{Type: typ, Seq: seq, Time: 1784630400000 + seq*37, Data: json.RawMessage(data)}
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
	seq := g.add(typ, data, string(ReplaceOp(start, end)), append(extra, shadowed...))
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
	g.add(TypeTurnStart, fmt.Sprintf(`{"turn":%d}`, turn), "", nil)
	if turn%5 == 0 {
		g.prune()
	}
	if turn%10 == 0 && len(g.nodes) >= 3 {
		g.compact(turn)
	}
	g.add(TypeStepStart, fmt.Sprintf(`{"turn":%d,"step":1}`, turn), "", nil)
	g.appendNode(TypeUserMessage, fmt.Sprintf(`{"id":"m-u%d","role":"user","content":[{"type":"text","text":"Prompt %d: please look at file %d and explain what it does."}],"source":{"kind":"user"}}`, turn, turn, g.rand(1000)), nil)
	if turn%7 == 1 {
		g.add(TypeRequestContext, `{"provider":"deepseek-official","model":"deepseek-v4-flash","contextWindow":128000}`, "", nil)
	}
	steps := int64(1 + g.rand(3))
	for step := int64(1); step <= steps; step++ {
		if step > 1 {
			g.add(TypeStepStart, fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "", nil)
		}
		var chunks []int64
		chunks = append(chunks, g.add(TypeAssistantChunk, fmt.Sprintf(`{"turn":%d,"step":%d,"chunk":{"type":"block-start","index":0,"blockType":"text"}}`, turn, step), "", nil))
		var text strings.Builder
		for k := 0; k < 5+g.rand(16); k++ {
			word := fmt.Sprintf(" word%d", g.rand(500))
			text.WriteString(word)
			chunks = append(chunks, g.add(TypeAssistantChunk, fmt.Sprintf(`{"turn":%d,"step":%d,"chunk":{"type":"text-delta","index":0,"text":%q}}`, turn, step, word), "", nil))
		}
		chunks = append(chunks, g.add(TypeAssistantChunk, fmt.Sprintf(`{"turn":%d,"step":%d,"chunk":{"type":"finish","reason":{"kind":"stop"}}}`, turn, step), "", nil))
		callID := fmt.Sprintf("call-%d-%d", turn, step)
		content := fmt.Sprintf(`[{"type":"text","text":%q}]`, text.String())
		if step < steps {
			content = fmt.Sprintf(`[{"type":"text","text":%q},{"type":"tool-call","id":"%s","name":"bash","arguments":"{\"command\":\"cat f%d\"}"}]`, text.String(), callID, step)
		}
		g.appendNode(TypeAssistantMessage, fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"id":"m-a%d-%d","role":"assistant","content":%s,%s},"usage":{"inputTokens":%d,"outputTokens":%d}}`,
			turn, step, turn, step, content, synthModel, 1000+g.rand(9000), 10+g.rand(500)), chunks)
		if step < steps {
			call := g.add(TypeToolCall, fmt.Sprintf(`{"turn":%d,"step":%d,"callId":"%s","name":"bash","arguments":"{\"command\":\"cat f%d\"}"}`, turn, step, callID, step), "", nil)
			out := strings.Repeat(fmt.Sprintf("line %d of the output of %s\n", g.rand(100), callID), 30+g.rand(60))
			g.appendNode(TypeToolResult, synthToolData(turn, step, callID, out), []int64{call})
		}
		g.add(TypeStepEnd, fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "", nil)
	}
	g.add(TypeTurnEnd, fmt.Sprintf(`{"turn":%d,"reason":{"kind":"completed"}}`, turn), "", nil)
}

// prune replaces the oldest unpruned tool/result node with a shorter copy.
func (g *synth) prune() {
	for i, seq := range g.nodes {
		e := g.events[seq]
		if e.Type != TypeToolResult || g.pruned[seq] {
			continue
		}
		var d ToolResultData
		if json.Unmarshal(e.Data, &d) != nil {
			panic("synth: bad tool result")
		}
		text := ContentText(d.Message.Content)
		short := text[:len(text)/4] + "\n\n[... tool result middle pruned ...]\n\n" + text[len(text)-len(text)/8:]
		g.add(TypeCompactionPrune, fmt.Sprintf(`{"shadowedRange":{"start":%d,"end":%d},"shadowedSeqs":[%d],"shadowedTokenCount":%d}`, seq, seq, seq, len(text)/4), "", nil)
		copySeq := g.replaceNodes(TypeToolResult, synthToolData(d.Turn, d.Step, DecodeSource(d.Message.Source).CallID, short), i, i)
		g.pruned[copySeq] = true
		return
	}
}

// compact replaces the first two thirds of the surface with a checkpoint.
func (g *synth) compact(turn int64) {
	id := fmt.Sprintf("cmp-%d", turn)
	ei := len(g.nodes)*2/3 - 1
	shadowed := g.nodes[:ei+1]
	start := g.add(TypeCompactionStart, fmt.Sprintf(`{"compactionId":%q,"turn":%d}`, id, turn), "", nil)
	seqs, _ := json.Marshal(shadowed)
	summary := g.add(TypeCompactionSummary, fmt.Sprintf(`{"compactionId":%q,"summary":[{"type":"text","text":"Summary of %d nodes."}],"shadowedRange":{"start":%d,"end":%d},"shadowedSeqs":%s,"shadowedTokenCount":%d,"provider":"deepseek-official","model":"deepseek-v4-flash"}`,
		id, len(shadowed), shadowed[0], shadowed[len(shadowed)-1], seqs, 100*len(shadowed)), "", nil)
	g.replaceNodes(TypeUserMessage, fmt.Sprintf(`{"id":"m-ckpt-%d","role":"user","content":[{"type":"text","text":%q},{"type":"text","text":"Summary of %d nodes."},{"type":"text","text":"</compacted-summary>"}],"source":%s}`,
		turn, CheckpointPreamble+"\n\n<compacted-summary>", len(shadowed), CompactCheckpointSource(id, "")), 0, ei, start, summary)
	g.add(TypeCompactionEnd, fmt.Sprintf(`{"compactionId":%q,"turn":%d}`, id, turn), "", nil)
}

func TestSynthLog(t *testing.T) {
	for _, n := range []int{1000, 10000} {
		events := synthLog(n)
		if len(events) != n {
			t.Fatalf("synthLog(%d) has %d events", n, len(events))
		}
		s, err := Load(events, frozenClock)
		if err != nil {
			t.Fatalf("synthLog(%d) does not load: %v", n, err)
		}
		sur := s.Surface()
		if sur.Generation() < n/200 || sur.Len() > 200 {
			t.Errorf("synthLog(%d): generation %d, surface %d nodes", n, sur.Generation(), sur.Len())
		}
		var b bytes.Buffer
		if err := WriteLog(&b, events); err != nil {
			t.Fatal(err)
		}
		log, err := ParseLog(b.Bytes(), "synth")
		if err != nil || len(log.Events) != n {
			t.Fatalf("round trip: %v", err)
		}
	}
}

func benchSizes() []int { return []int{1000, 10000, 100000} }

func sizeName(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("events=%dk", n/1000)
	}
	return fmt.Sprintf("events=%d", n)
}

// reportPerEvent reports wall and process CPU nanoseconds per event. The
// CPU figure (all threads, GC included) is the steadier one on a shared
// machine; run with -cpu 1 to keep it comparable across sizes.
func reportPerEvent(b *testing.B, n int, cpu0 int64) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/event")
	if cpu1 := processCPUTime(); cpu0 >= 0 && cpu1 >= 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/float64(n), "cpu-ns/event")
	}
}

// benchPool returns distinct synthetic logs of n events each, together at
// least 100k events, so that every size is measured on data that is not
// in the CPU cache (as a log loaded from disk is). Folding one small log
// over and over would measure a warm cache instead and make the small
// sizes look cheaper per event than they are.
func benchPool(n int) [][]Event {
	pool := make([][]Event, max(1, 100000/n))
	for i := range pool {
		pool[i] = synthLogSeed(n, uint64(i))
	}
	return pool
}

// BenchmarkFold measures the whole-log surface fold; ns/event should not
// grow with the log. Each op folds one n-event log, taken in turn from a
// pool (see benchPool).
func BenchmarkFold(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(sizeName(n), func(b *testing.B) {
			pool := benchPool(n)
			cpu0 := processCPUTime()
			i := 0
			for b.Loop() {
				if _, err := Fold(pool[i%len(pool)], 0); err != nil {
					b.Fatal(err)
				}
				i++
			}
			reportPerEvent(b, n, cpu0)
		})
	}
}

// BenchmarkAppend measures Session.Append (all checks, fold, push) over a
// whole log.
func BenchmarkAppend(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(sizeName(n), func(b *testing.B) {
			pool := benchPool(n)
			cpu0 := processCPUTime()
			i := 0
			for b.Loop() {
				s := NewSession(frozenClock)
				events := pool[i%len(pool)]
				i++
				for _, e := range events {
					if _, err := s.Append(e); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportPerEvent(b, n, cpu0)
		})
	}
}

// BenchmarkDecode measures ParseLog on the JSONL form of a synthetic log.
func BenchmarkDecode(b *testing.B) {
	for _, n := range benchSizes()[:2] {
		b.Run(sizeName(n), func(b *testing.B) {
			var buf bytes.Buffer
			if err := WriteLog(&buf, synthLog(n)); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(buf.Len()))
			cpu0 := processCPUTime()
			for b.Loop() {
				if _, err := ParseLog(buf.Bytes(), "bench"); err != nil {
					b.Fatal(err)
				}
			}
			reportPerEvent(b, n, cpu0)
		})
	}
}
