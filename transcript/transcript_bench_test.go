package transcript_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// trSynth builds a synthetic session log in the newer vocabulary that the
// surface fold accepts: turns of a streamed reasoning + tool-call step and a
// streamed answer step, a retried request every 13th turn, a pruned tool
// result every 7th, and a standalone head-anchored compaction every 20th.
// With light set, payloads are empty objects (enough for paging, which reads
// only the envelope).
type trSynth struct {
	events []sessionlog.Event
	nodes  []int64 // the surface, to write valid replacements
	time   int64
	light  bool
}

func trSynthLog(n int, light bool) []sessionlog.Event {
	g := &trSynth{time: 1784700000000, light: light, events: make([]sessionlog.Event, 0, n+64)}
	for turn := 1; len(g.events) < n; turn++ {
		g.turn(turn)
	}
	return g.events[:n]
}

func (g *trSynth) add(typ, data string, op json.RawMessage, sources []int64) int64 {
	g.time += 7
	seq := int64(len(g.events))
	e := sessionlog.Event{Type: typ, Seq: seq, Time: g.time, Data: json.RawMessage(data), SurfaceOp: op}
	if g.light {
		e.Data = json.RawMessage(`{}`)
	}
	if sources != nil {
		b, _ := json.Marshal(sources)
		e.SourceEventSeqs = b
	}
	g.events = append(g.events, e)
	if op != nil {
		if sessionlog.ParseOp(op).Kind == sessionlog.OpAppend {
			g.nodes = append(g.nodes, seq)
		}
	}
	return seq
}

// replace splices seq over nodes[i..j].
func (g *trSynth) replaceNodes(i, j int, seq int64) {
	g.nodes = append(g.nodes[:i], append([]int64{seq}, g.nodes[j+1:]...)...)
}

func seqList(seqs []int64) string {
	b, _ := json.Marshal(seqs)
	return string(b)
}

func (g *trSynth) chunk(ts, c string) int64 {
	return g.add("assistant/chunk", `{`+ts+`,"chunk":`+c+`}`, nil, nil)
}

const trSynthModel = `{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"}`

func (g *trSynth) turn(turn int) {
	t := strconv.Itoa(turn)
	g.add("turn/start", `{"turn":`+t+`}`, nil, nil)
	if turn%7 == 0 && len(g.events) > 0 {
		g.prune()
	}
	ts := `"turn":` + t + `,"step":1`
	g.add("step/start", "{"+ts+"}", nil, nil)
	g.add("user/message", `{"id":"u`+t+`","role":"user","content":[{"type":"text","text":"Please look at file `+t+`.go and fix the failing test."}],"source":{"kind":"user"}}`, sessionlog.AppendOp(), nil)
	var chunks []int64
	if turn%13 == 0 {
		g.chunk(ts, `{"type":"block-start","index":0,"blockType":"reasoning"}`)
		g.add("llm/retry", `{`+ts+`,"provider":"deepseek-official","mode":"normal","policyKey":"overload","retry":1,"maxRetries":3,"delayMs":500,"failure":{"message":"overloaded"}}`, nil, nil)
	}
	chunks = append(chunks, g.chunk(ts, `{"type":"block-start","index":0,"blockType":"reasoning"}`))
	for _, w := range []string{"Let me ", "read the ", "file first."} {
		chunks = append(chunks, g.chunk(ts, `{"type":"reasoning-delta","index":0,"text":"`+w+`"}`))
	}
	chunks = append(chunks, g.chunk(ts, `{"type":"block-end","index":0,"block":{"type":"reasoning","text":"Let me read the file first."}}`))
	chunks = append(chunks, g.chunk(ts, `{"type":"block-start","index":1,"blockType":"text"}`))
	chunks = append(chunks, g.chunk(ts, `{"type":"text-delta","index":1,"text":"Reading it."}`))
	chunks = append(chunks, g.chunk(ts, `{"type":"block-end","index":1,"block":{"type":"text","text":"Reading it."}}`))
	args := `{\"path\":\"` + t + `.go\"}`
	chunks = append(chunks, g.chunk(ts, `{"type":"block-end","index":2,"block":{"type":"tool-call","id":"call-`+t+`","name":"read","arguments":"`+args+`"}}`))
	chunks = append(chunks, g.chunk(ts, `{"type":"finish","reason":{"kind":"tool-calls"}}`))
	g.add("assistant/message", `{`+ts+`,"message":{"id":"a`+t+`","role":"assistant","content":[{"type":"reasoning","text":"Let me read the file first."},{"type":"text","text":"Reading it."},{"type":"tool-call","id":"call-`+t+`","name":"read","arguments":"`+args+`"}],"source":`+trSynthModel+`},"usage":{"inputTokens":1200,"outputTokens":40}}`,
		sessionlog.AppendOp(), chunks)
	call := g.add("tool/call", `{`+ts+`,"callId":"call-`+t+`","name":"read","arguments":"`+args+`"}`, nil, nil)
	g.add("tool/result", g.resultData(ts, t, strings.Repeat("func f() { return }\\n", 12)), sessionlog.AppendOp(), []int64{call})
	g.add("step/end", "{"+ts+"}", nil, nil)

	ts = `"turn":` + t + `,"step":2`
	g.add("step/start", "{"+ts+"}", nil, nil)
	chunks = chunks[:0]
	chunks = append(chunks, g.chunk(ts, `{"type":"block-start","index":0,"blockType":"text"}`))
	chunks = append(chunks, g.chunk(ts, `{"type":"text-delta","index":0,"text":"Fixed: the test now passes."}`))
	chunks = append(chunks, g.chunk(ts, `{"type":"block-end","index":0,"block":{"type":"text","text":"Fixed: the test now passes."}}`))
	g.add("assistant/message", `{`+ts+`,"message":{"id":"b`+t+`","role":"assistant","content":[{"type":"text","text":"Fixed: the test now passes."}],"source":`+trSynthModel+`}}`, sessionlog.AppendOp(), chunks)
	g.add("step/end", "{"+ts+"}", nil, nil)
	g.add("turn/end", `{"turn":`+t+`,"reason":{"kind":"completed"}}`, nil, nil)
	if turn%20 == 0 {
		g.compact(turn)
	}
}

func (g *trSynth) resultData(ts, t, out string) string {
	return `{` + ts + `,"message":{"id":"r` + t + `","role":"user","content":[{"type":"tool-result","toolCallId":"call-` + t +
		`","content":[{"type":"text","text":"` + out + `"}],"isError":false}],"source":{"kind":"tool","callId":"call-` + t + `"}}}`
}

// prune replaces the newest tool result on the surface with a shorter copy.
func (g *trSynth) prune() {
	for i := len(g.nodes) - 1; i >= 0; i-- {
		orig := g.nodes[i]
		if g.events[orig].Type != "tool/result" || g.events[orig].SurfaceOp == nil || sessionlog.ParseOp(g.events[orig].SurfaceOp).Kind != sessionlog.OpAppend {
			continue
		}
		var d struct {
			sessionlog.TurnStep
			Message struct {
				ID string `json:"id"`
			} `json:"message"`
		}
		_ = json.Unmarshal(g.events[orig].Data, &d)
		g.add("compaction/prune", fmt.Sprintf(`{"shadowedRange":{"start":%d,"end":%d},"shadowedSeqs":[%d],"shadowedTokenCount":120}`, orig, orig, orig), nil, nil)
		ts := fmt.Sprintf(`"turn":%d,"step":%d`, d.Turn, d.Step)
		data := g.resultData(ts, strings.TrimPrefix(d.Message.ID, "r"), `func f() {\n\n[... tool result middle pruned ...]\n\n}`)
		seq := g.add("tool/result", data, sessionlog.ReplaceOp(orig, orig), []int64{orig})
		g.replaceNodes(i, i, seq)
		return
	}
}

// compact writes a standalone compaction of the whole surface.
func (g *trSynth) compact(turn int) {
	id := `"compactionId":"cmp-` + strconv.Itoa(turn) + `"`
	start := g.add("compaction/start", `{`+id+`,"turn":null}`, nil, nil)
	shadowed := append([]int64(nil), g.nodes...)
	first, last := shadowed[0], shadowed[len(shadowed)-1]
	sum := g.add("compaction/summary", fmt.Sprintf(`{%s,"summary":[{"type":"text","text":"Turns up to %d fixed tests."}],"shadowedRange":{"start":%d,"end":%d},"shadowedSeqs":%s,"shadowedTokenCount":%d,"provider":"deepseek-official","model":"deepseek-v4-flash"}`,
		id, turn, first, last, seqList(shadowed), 90*len(shadowed)), nil, nil)
	seq := g.add("user/message", `{"id":"ck`+strconv.Itoa(turn)+`","role":"user","content":[{"type":"text","text":"`+sessionlog.CheckpointPreamble+`\n\n<compacted-summary>"},{"type":"text","text":"Turns fixed tests."},{"type":"text","text":"</compacted-summary>"}],"source":{"kind":"plugin","plugin":"compact",`+id+`}}`,
		sessionlog.ReplaceOp(first, last), append([]int64{start, sum}, shadowed...))
	g.replaceNodes(0, len(g.nodes)-1, seq)
	g.add("compaction/end", `{`+id+`,"turn":null}`, nil, nil)
}

// TestTranscriptSynthLog checks the generator: its logs project under both paths alike
// and hold every feature the benchmarks should pay for.
func TestTranscriptSynthLog(t *testing.T) {
	events := trSynthLog(2000, false)
	counts := map[string]int{}
	for _, e := range events {
		counts[e.Type]++
	}
	for _, typ := range []string{"compaction/summary", "compaction/prune", "llm/retry", "assistant/chunk", "tool/result"} {
		if counts[typ] == 0 {
			t.Errorf("no %s in the synthetic log", typ)
		}
	}
	for _, eager := range []bool{false, true} {
		opts := transcript.Options{EagerSteps: eager}
		p := transcript.NewProjector(opts)
		for i := range events {
			p.Apply(&events[i])
		}
		want := transcript.Project(events, opts)
		if !trEqualItems(want.Items, p.Transcript().Items) {
			t.Fatalf("eager=%v: live differs from replay on the synthetic log", eager)
		}
		markers := 0
		for _, it := range want.Items {
			if it.Kind == transcript.KindMarker {
				markers++
				if it.Marker.SummaryEventSeq == nil {
					t.Errorf("marker %d has no summary data", it.ID.Seq)
				}
			}
		}
		if markers != counts["compaction/summary"] {
			t.Errorf("%d markers for %d compactions", markers, counts["compaction/summary"])
		}
	}
}

// trReportPerEvent reports wall and process CPU time per event; cpu is the
// CPU time read before the loop.
func trReportPerEvent(b *testing.B, n int, cpu int64) {
	cpu = trCPUTime() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/event")
	b.ReportMetric(float64(cpu)/float64(b.N)/float64(n), "cpu-ns/event")
}

func BenchmarkProject(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		events := trSynthLog(n, false)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			cpu := trCPUTime()
			for b.Loop() {
				transcript.Project(events, transcript.Options{})
			}
			trReportPerEvent(b, n, cpu)
		})
	}
}

func BenchmarkProjectorApply(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		events := trSynthLog(n, false)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			cpu := trCPUTime()
			for b.Loop() {
				p := transcript.NewProjector(transcript.Options{})
				for i := range events {
					p.Apply(&events[i])
				}
			}
			trReportPerEvent(b, n, cpu)
		})
	}
}

// BenchmarkHistoryPage pages backwards through the log from the tail, as the
// client's loadOlder does, starting over at the tail after the oldest page.
func BenchmarkHistoryPage(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		h := history.New(trSynthLog(n, true))
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			before, pages, walks := int64(-1), 0, 0
			cpu := trCPUTime()
			for b.Loop() {
				p := h.Page(before, 50)
				pages++
				before = p.From
				if !p.HasMore {
					before = -1
					walks++
				}
			}
			b.ReportMetric(float64(trCPUTime()-cpu)/float64(b.N), "cpu-ns/page")
			b.ReportMetric(float64(pages)/float64(max(walks, 1)), "pages/walk")
		})
	}
}

// Random pages (BenchmarkHistoryPageRandom) are measured in the benchmarks
// package, on generated sessions of 1k to 1M events against the spec's scan.
