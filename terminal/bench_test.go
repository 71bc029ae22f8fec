package terminal

import (
	"encoding/json"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// synthEvent returns event i of an endless synthetic session: turns of 14
// events (a prompt, a streamed step with reasoning, text and a tool call,
// its result, a second step with text, and the turn's end), with a manual
// compaction checkpoint every 50 turns.
func synthEvent(i int) sessionlog.Event {
	const perTurn = 14
	turn, pos := i/perTurn+1, i%perTurn
	e := sessionlog.Event{Seq: int64(i), Time: 1784630400000 + int64(i)*37}
	ts := func(step int) string { return fmt.Sprintf(`"turn":%d,"step":%d`, turn, step) }
	call := fmt.Sprintf("call-%d", turn)
	data := ""
	switch pos {
	case 0:
		e.Type, data = "turn/start", fmt.Sprintf(`{"turn":%d}`, turn)
	case 1:
		e.Type, data = "step/start", "{"+ts(1)+"}"
	case 2:
		e.Type = "user/message"
		data = fmt.Sprintf(`{"id":"u%d","role":"user","content":[{"type":"text","text":"Prompt %d: please look at the files and summarise what they do, in a few words."}],"source":{"kind":"user"}}`, turn, turn)
		if turn%50 == 0 {
			// A checkpoint replacing this turn's prompt: a marker.
			e.SurfaceOp = sessionlog.ReplaceOp(int64(i-perTurn+2), int64(i-perTurn+2))
			data = `{"id":"ck","role":"user","content":[{"type":"text","text":"<summary>x</summary>"}],"source":{"kind":"plugin","plugin":"compact"}}`
			e.SourceEventSeqs = json.RawMessage(fmt.Sprintf("[%d]", i-perTurn+2))
		}
	case 3:
		e.Type, data = "assistant/chunk", "{"+ts(1)+`,"chunk":{"type":"block-start","index":0,"blockType":"reasoning"}}`
	case 4:
		e.Type, data = "assistant/chunk", "{"+ts(1)+`,"chunk":{"type":"reasoning-delta","index":0,"text":"Reading the files first."}}`
	case 5:
		e.Type, data = "assistant/chunk", "{"+ts(1)+`,"chunk":{"type":"text-delta","index":1,"text":"Let me list them."}}`
	case 6:
		e.Type = "assistant/message"
		data = "{" + ts(1) + fmt.Sprintf(`,"message":{"id":"a%d","role":"assistant","content":[{"type":"reasoning","text":"Reading the files first."},{"type":"text","text":"Let me list them."},{"type":"tool-call","id":"%s","name":"bash","arguments":"{\"command\":\"ls -la\"}"}],"source":{"kind":"model","provider":"p","model":"m"}}}`, turn, call)
	case 7:
		e.Type, data = "tool/call", "{"+ts(1)+fmt.Sprintf(`,"callId":"%s","name":"bash","arguments":"{\"command\":\"ls -la\"}"}`, call)
	case 8:
		e.Type = "tool/result"
		data = "{" + ts(1) + fmt.Sprintf(`,"message":{"id":"t%d","role":"user","content":[{"type":"tool-result","toolCallId":"%s","content":[{"type":"text","text":"a\nb\nc\nd\ne\nf\ng\nh"}],"isError":false}],"source":{"kind":"tool","callId":"%s"}},"meta":{"exitCode":0}}`, turn, call, call)
	case 9:
		e.Type, data = "step/end", "{"+ts(1)+"}"
	case 10:
		e.Type, data = "step/start", "{"+ts(2)+"}"
	case 11:
		e.Type = "assistant/message"
		data = "{" + ts(2) + fmt.Sprintf(`,"message":{"id":"b%d","role":"assistant","content":[{"type":"text","text":"There are eight files, a to h; each holds `+"`one letter`"+`."}],"source":{"kind":"model","provider":"p","model":"m"}}}`, turn)
	case 12:
		e.Type, data = "step/end", "{"+ts(2)+"}"
	case 13:
		e.Type, data = "turn/end", fmt.Sprintf(`{"turn":%d,"reason":{"kind":"completed"}}`, turn)
	}
	if e.SurfaceOp == nil && (e.Type == "user/message" || e.Type == "assistant/message" || e.Type == "tool/result") {
		e.SurfaceOp = sessionlog.AppendOp()
	}
	e.Data = json.RawMessage(data)
	return e
}

func synthLog(n int) []sessionlog.Event {
	log := make([]sessionlog.Event, n)
	for i := range log {
		log[i] = synthEvent(i)
	}
	return log
}

func benchConfig(log []sessionlog.Event) Config {
	return Config{SessionID: "bench", Log: log, Width: 100, Height: 40, Clock: frozen}
}

// TestSynthLog checks that the benchmark's log projects to what it means
// to, live and replay alike.
func TestSynthLog(t *testing.T) {
	log := synthLog(14 * 51)
	live := New(benchConfig(nil))
	for _, e := range log {
		live.Update(EventMsg{Event: e})
	}
	replay := New(benchConfig(log))
	a, b := live.Document(), replay.Document()
	if fmt.Sprint(a.Lines) != fmt.Sprint(b.Lines) {
		t.Fatalf("live vs replay:\n%s", lineDiffText(a.Lines, b.Lines))
	}
	counts := map[transcript.ItemKind]int{}
	for _, it := range replay.Transcript().Items {
		counts[it.Kind]++
	}
	want := map[transcript.ItemKind]int{transcript.KindPrompt: 50, transcript.KindStep: 102,
		transcript.KindFooter: 102, transcript.KindToolCard: 51, transcript.KindMarker: 1}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("items %v, want %v", counts, want)
	}
}

// The mount, live-append and reasoning-toggle benchmarks that were here
// moved to the benchmarks package, which measures them on generated
// sessions of 1k to 100k events against naive baselines.

// TestRenderCost counts the items rendered: after a mount on a long
// session, a reasoning toggle, a scheme switch, a resize, a tool-mode change
// and a live append each render only about a screenful of items, not the
// session.
func TestRenderCost(t *testing.T) {
	const n = 20_000
	m := New(benchConfig(synthLog(n)))
	items := len(m.Transcript().Items)
	m.Screen()
	if m.misses > 40 {
		t.Errorf("mount rendered %d of %d items", m.misses, items)
	}
	next := n
	for _, tc := range []struct {
		name string
		msg  any
	}{
		{"ctrl+r", ctrlR},
		{"scheme", SchemeMsg{Scheme: display.SchemeLight}},
		{"resize", tea.WindowSizeMsg{Width: 80, Height: 40}},
		{"ctrl+o", ctrlO},
		{"ctrl+o to hidden", ctrlO},
		{"ctrl+r in hidden mode", ctrlR},
		{"live append", nil},
		{"live append", nil},
		{"pgup", pgUp},
		{"home", home},
		{"end", end},
	} {
		before := m.misses
		if tc.msg == nil {
			m.Update(EventMsg{Event: synthEvent(next)})
			next++
		} else {
			m.Update(tc.msg)
		}
		m.Screen()
		d := m.misses - before
		if d > 40 {
			t.Errorf("%s rendered %d of %d items", tc.name, d, items)
		}
		t.Logf("%s: %d of %d items rendered", tc.name, d, items)
	}
}
