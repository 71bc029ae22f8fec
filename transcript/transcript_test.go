package transcript_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// ---------------------------------------------------------------------------
// The worked example (example-session.expected.md §3).

func TestProjectExample(t *testing.T) {
	events := trLoad(t, "example-session.jsonl")
	const now = 1784630605302
	tests := []struct {
		name string
		opts transcript.Options
		want []string
	}{{
		name: "eager",
		opts: transcript.Options{EagerSteps: true},
		want: []string{
			`[1] Assistant 1/1 reasoning="Run ls."`,
			`[2] You: "List the files"`,
			`[10] Tool bash call-1 ok result="README.md\nsrc"`,
			`[1f] Footer 1/1: Model wait 0.0s · Thinking 0.0s · Tools 0.1s · Completed 2026-07-21 10:40:00`,
			`[13] Assistant 1/2 text="Two entries: README.md and src."`,
			`[13f] Footer 1/2: Model wait 0.1s · Completed 2026-07-21 10:40:00`,
			`[18] Assistant 2/1 (empty)`,
			`[19] You: "Show README.md"`,
			`[21] Tool bash call-2 ok result=<12248 runes>`,
			`[18f] Footer 2/1: Model wait 0.1s · Tools 0.1s · Completed 2026-07-21 10:41:40`,
			`[24] Assistant 2/2 text="The README describes a demo."`,
			`[24f] Footer 2/2: Model wait 0.1s · Completed 2026-07-21 10:41:40`,
			`[33] Marker summary=32 items=4 tokens=1900 text=<54 runes>`,
			`[35] Assistant 3/1 text="A demo project."`,
			`[35f] Footer 3/1: Model wait 0.2s · Completed 2026-07-21 10:43:25`,
			`[36] You: "Summarize the README in one line"`,
		},
	}, {
		name: "lazy",
		want: []string{
			`[2] You: "List the files"`,
			`[5] Assistant 1/1 reasoning="Run ls."`,
			`[10] Tool bash call-1 ok result="README.md\nsrc"`,
			`[5f] Footer 1/1: Model wait 0.0s · Thinking 0.0s · Tools 0.1s · Completed 2026-07-21 10:40:00`,
			`[14] Assistant 1/2 text="Two entries: README.md and src."`,
			`[14f] Footer 1/2: Model wait 0.1s · Completed 2026-07-21 10:40:00`,
			`[19] You: "Show README.md"`,
			`[20] Assistant 2/1 (empty)`,
			`[21] Tool bash call-2 ok result=<12248 runes>`,
			`[20f] Footer 2/1: Model wait 0.1s · Tools 0.1s · Completed 2026-07-21 10:41:40`,
			`[25] Assistant 2/2 text="The README describes a demo."`,
			`[25f] Footer 2/2: Model wait 0.1s · Completed 2026-07-21 10:41:40`,
			`[33] Marker summary=32 items=4 tokens=1900 text=<54 runes>`,
			`[36] You: "Summarize the README in one line"`,
			`[37] Assistant 3/1 text="A demo project."`,
			`[37f] Footer 3/1: Model wait 0.2s · Completed 2026-07-21 10:43:25`,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := transcript.Project(events, tt.opts)
			trCheckRows(t, trRows(tr, now), tt.want)

			// Live streams chunks 5–8 but ends with the same transcript.
			p := transcript.NewProjector(tt.opts)
			for i := range events {
				p.Apply(&events[i])
			}
			trCheckRows(t, trRows(p.Transcript(), now), tt.want)

			for _, it := range tr.Items {
				if slices.Contains([]int64{29, 30, 31, 32, 34, 38, 3, 4, 0, 17, 28}, it.ID.Seq) {
					t.Errorf("item %v comes from seq %d, which renders nothing", it.Kind, it.ID.Seq)
				}
			}
		})
	}
}

// TestProjectExampleDetails pins what the rows above abbreviate: the exact
// bucket totals of §3.3, the full (unpruned) output of call-2 and the
// marker's summary data.
func TestProjectExampleDetails(t *testing.T) {
	events := trLoad(t, "example-session.jsonl")
	tr := transcript.Project(events, transcript.Options{})

	timings := map[string]transcript.Timing{}
	var card *transcript.ToolCard
	var markers []*transcript.Marker
	for _, it := range tr.Items {
		switch it.Kind {
		case transcript.KindFooter:
			timings[fmt.Sprintf("%d/%d", it.Footer.Turn, it.Footer.Step)] = it.Footer.Timing
		case transcript.KindToolCard:
			if it.Tool.CallID == "call-2" {
				card = it.Tool
			}
		case transcript.KindMarker:
			markers = append(markers, it.Marker)
		}
	}
	wantTimings := map[string]transcript.Timing{
		"1/1": {WaitMs: 99, ThinkingMs: 32, ToolsMs: 169},
		"1/2": {WaitMs: 199},
		"2/1": {WaitMs: 100, ToolsMs: 100},
		"2/2": {WaitMs: 199},
		"3/1": {WaitMs: 298},
	}
	if diff := cmp.Diff(wantTimings, timings); diff != "" {
		t.Errorf("footer timings (-want +got):\n%s", diff)
	}

	var orig struct {
		Message struct {
			Content []sessionlog.ContentBlock `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(events[22].Data, &orig); err != nil {
		t.Fatal(err)
	}
	full := orig.Message.Content[0].Content[0].Text
	if card == nil || len(card.Result) != 1 || card.Result[0].Text != full {
		t.Fatalf("call-2's card does not hold seq 22's full output")
	}
	if n := utf8.RuneCountInString(full); n != 12248 || strings.Contains(full, "pruned") {
		t.Errorf("call-2 output: %d runes, pruned marker %v", n, strings.Contains(full, "pruned"))
	}
	if card.Name != "bash" || card.Arguments != `{"command":"cat README.md"}` || card.IsError || card.Orphan {
		t.Errorf("call-2 card = %+v", *card)
	}

	summary := "User asked to list files; ls showed README.md and src."
	want := []*transcript.Marker{{Seq: 33, Time: 1784630605001, SummaryEventSeq: ptr[int64](32),
		Summary: &summary, ShadowedItemCount: ptr(4), ShadowedTokenCount: ptr[int64](1900)}}
	if diff := cmp.Diff(want, markers); diff != "" {
		t.Errorf("markers (-want +got):\n%s", diff)
	}
}

func ptr[T any](v T) *T { return &v }

// TestProjectUpstreamCompaction is terminal.md §10.5 under the eager rule:
// an empty Assistant block above You, the card, the footer, the marker.
func TestProjectUpstreamCompaction(t *testing.T) {
	events := trLoad(t, "upstream-compaction-scenario.jsonl")
	tests := []struct {
		name   string
		events []sessionlog.Event
		want   []string
	}{{
		name:   "before",
		events: events[:6],
		want: []string{
			`[1] Assistant 1/1 (empty)`,
			`[2] You: "Old prompt with a long line that exercises wrapping and stays visible after compaction."`,
			`[4] Tool bash old-tool ok result="shadowed step tool output"`,
			`[1f] Footer 1/1: Model wait 0.0s`,
		},
	}, {
		name:   "after",
		events: events,
		want: []string{
			`[1] Assistant 1/1 (empty)`,
			`[2] You: "Old prompt with a long line that exercises wrapping and stays visible after compaction."`,
			`[4] Tool bash old-tool ok result="shadowed step tool output"`,
			`[1f] Footer 1/1: Model wait 0.0s`,
			`[6] Marker (no summary)`,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := transcript.Options{EagerSteps: true}
			trCheckRows(t, trRows(transcript.Project(tt.events, opts), 1784644800000), tt.want)
		})
	}
}

// TestProjectLogs pins the lazy-rule transcript of each of this package's own
// logs at its end (now = the last event's time).
func TestProjectLogs(t *testing.T) {
	tests := []struct {
		file string
		opts transcript.Options
		want []string
	}{{
		file: "older-vocabulary.jsonl",
		want: []string{
			`[1] You: "Fix the bug in a.go"`,
			`[3] Assistant 1/1 text="Looking now."`,
			`[8] Tool read c1 ok result="package a\n\nfunc A() {}"`,
			`[9] Steering: "Also check b.go"`,
			`[3f] Footer 1/1: Model wait 0.1s · Response 0.0s · Tools 0.0s · Completed 2026-07-22 06:00:00`,
			`[13] Assistant 1/2 text="Done."`,
			`[13f] Footer 1/2: Model wait 1.2s · Completed 2026-07-22 06:00:01`,
			`[18] Marker summary=17 items=5 tokens=800 text="Fixed a bug in a.go."`,
			`[21] Context · reminder: "<system-reminder>\nRemember the tests.\n</system-reminder>"`,
			`[23] You: "Run the tests"`,
			`[26] Marker summary=25 items=3 tokens=300 text=<47 runes>`,
			`[29] Assistant 2/1 text="All green."`,
			`[29f] Footer 2/1: Model wait 0.0s · Completed 2026-07-22 06:00:01`,
		},
	}, {
		file: "compaction-failed.jsonl",
		want: []string{
			`[2] You: "Hello"`,
			`[3] Assistant 1/1 text="Hi."`,
			`[3f] Footer 1/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[7] warning notice: "Compaction failed: summarizer failed: timeout"`,
			`[10] warning notice: "Compaction failed: region too small\x1b[31m"`,
			`[12] You: "Again"`,
			`[13] Assistant 2/1 text="Sure."`,
			`[13f] Footer 2/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
		},
	}, {
		file: "compaction-open-tail.jsonl",
		want: []string{
			`[2] You: "Hi"`,
			`[3] Assistant 1/1 text="Hello."`,
			`[3f] Footer 1/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[8] Marker summary=7 items=2 tokens=20 text="Greetings."`,
			`progress since seq 12`,
		},
	}, {
		file: "stream-cut.jsonl",
		want: []string{
			`[2] You: "Write a poem"`,
			`[3] Assistant 1/1 reasoning="Thinking about rhymes." text="Roses are red," streaming`,
			`[3f] Footer 1/1: Model wait 0.3s · Thinking 0.2s · Response 0.0s`,
		},
	}, {
		file: "stream-cut.jsonl",
		opts: transcript.Options{EagerSteps: true},
		want: []string{
			`[1] Assistant 1/1 reasoning="Thinking about rhymes." text="Roses are red," streaming`,
			`[1f] Footer 1/1: Model wait 0.3s · Thinking 0.2s · Response 0.0s`,
			`[2] You: "Write a poem"`,
		},
	}, {
		file: "stream-unsettled.jsonl",
		want: []string{
			`[2] You: "Count"`,
			`[3] Assistant 1/1 text="1, 2," streaming`,
			`[3f] Footer 1/1: Model wait 0.1s · Response 0.0s · Completed 2026-07-22 06:00:00`,
			`[6] warning notice: "Turn cancelled."`,
			`[9] You: "Again"`,
			`[13] warning notice: "The previous process ended during this turn."`,
			`[16] You: "Once more"`,
			`[17] Assistant 3/1 text="One, two."`,
			`[17f] Footer 3/1: Model wait 0.1s · Response 0.1s`,
			`[20] Assistant 3/1 text="And three."`,
			`[20f] Footer 3/1: Model wait 0.1s · Response 0.1s · Completed 2026-07-22 06:01:00`,
		},
	}, {
		file: "retries.jsonl",
		want: []string{
			`[2] You: "Ping"`,
			`[5] warning notice: "Retrying model request (1/3) in 500ms: provider overloaded"`,
			`[6] Assistant 1/1 text="Pong"`,
			`[6f] Footer 1/1: Model wait 0.1s · Response 0.5s · Completed 2026-07-22 06:00:00`,
			`[13] warning notice: "Retrying model request (2/∞) in 1000ms: rate limited"`,
			`[15] Assistant 1/3 text="Done again"`,
			`[15f] Footer 1/3: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[20] You: "Pong?"`,
			`[21] warning notice: "Retrying model request (1/5) in 250ms: connection reset"`,
			`[22] Assistant 2/1 text="ok"`,
			`[22f] Footer 2/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
		},
	}, {
		file: "retries.jsonl",
		opts: transcript.Options{EagerSteps: true},
		want: []string{
			`[2] You: "Ping"`,
			`[5] warning notice: "Retrying model request (1/3) in 500ms: provider overloaded"`,
			`[6] Assistant 1/1 text="Pong"`,
			`[6f] Footer 1/1: Model wait 0.1s · Response 0.5s · Completed 2026-07-22 06:00:00`,
			`[13] warning notice: "Retrying model request (2/∞) in 1000ms: rate limited"`,
			`[14] Assistant 1/3 text="Done again"`,
			`[14f] Footer 1/3: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[20] You: "Pong?"`,
			`[21] warning notice: "Retrying model request (1/5) in 250ms: connection reset"`,
			`[22] Assistant 2/1 text="ok"`,
			`[22f] Footer 2/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
		},
	}, {
		file: "turn-ends.jsonl",
		want: []string{
			`[2] You: "one"`,
			`[5] error notice: "provider exploded"`,
			`[8] You: "two"`,
			`[10] error notice: "bad request"`,
			`[13] You: "turn 3"`,
			`[14] Assistant 3/1 text="answer 3"`,
			`[14f] Footer 3/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[16] warning notice: "Turn cancelled."`,
			`[19] You: "turn 4"`,
			`[20] Assistant 4/1 text="answer 4"`,
			`[20f] Footer 4/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[22] warning notice: "The model reached its output-token limit."`,
			`[25] You: "turn 5"`,
			`[26] Assistant 5/1 text="answer 5"`,
			`[26f] Footer 5/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[28] warning notice: "Turn stopped: the agent was disposed."`,
			`[31] You: "turn 6"`,
			`[32] Assistant 6/1 text="answer 6"`,
			`[32f] Footer 6/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[34] warning notice: "The previous process ended during this turn."`,
			`[37] You: "turn 7"`,
			`[38] Assistant 7/1 text="answer 7"`,
			`[38f] Footer 7/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[40] warning notice: "Turn ended: blocked."`,
			`[43] You: "turn 8"`,
			`[44] Assistant 8/1 text="answer 8"`,
			`[44f] Footer 8/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
		},
	}, {
		file: "orphans.jsonl",
		want: []string{
			`[2] You: "Go"`,
			`[3] Assistant 1/1 (empty)`,
			`[4] Tool bash c1 ok result="a\nb"`,
			`[7] Tool tool c9 ok orphan result="never advertised"`,
			`[8] Tool tool c7 error orphan result="no call at all"`,
			`[3f] Footer 1/1: Model wait 0.0s · Tools 0.0s · Completed 2026-07-22 06:00:00`,
			`[11] Assistant 1/2 (empty)`,
			`[14] Tool bash c2 error result="/workspace"`,
			`[16] Tool tool c3 ok orphan result="uid=0"`,
			`[11f] Footer 1/2: Model wait 0.0s · Tools 0.0s · Completed 2026-07-22 06:00:00`,
		},
	}, {
		file: "replacements.jsonl",
		want: []string{
			`[2] Referenced sessions · s-1, Design chat (s-2)`,
			`[3] Context · session-reference: "<session-reference>\nbody of s-3\n</session-reference>"`,
			`[4] You: "Summarize both"`,
			`[5] Context · compact: "A compact-plugin note that appends."`,
			`[6] Context · agent-instructions: "Use tabs."`,
			`[7] Assistant 1/1 reasoning="Read first."`,
			`[8] Tool read c1 ok result=<9199 runes>`,
			`[7f] Footer 1/1: Model wait 0.0s · Tools 0.4s · Completed 2026-07-22 06:00:00`,
			`[12] Assistant 1/2 text="Both are about X."`,
			`[12f] Footer 1/2: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[20] Marker summary=19 items=7 tokens=900 text="First "`,
			`[23] You: "More"`,
			`[24] Assistant 2/1 text="Sure, more."`,
			`[24f] Footer 2/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
			`[31] Marker summary=30 items=4 tokens=400 text="Second, re-compacting the first."`,
			`[35] You: "Last"`,
			`[36] Assistant 3/1 text="Bye."`,
			`[36f] Footer 3/1: Model wait 0.0s · Completed 2026-07-22 06:00:00`,
		},
	}}
	for _, tt := range tests {
		name := strings.TrimSuffix(tt.file, ".jsonl")
		if tt.opts.EagerSteps {
			name += "/eager"
		}
		t.Run(name, func(t *testing.T) {
			events := trLoad(t, tt.file)
			now := events[len(events)-1].Time
			trCheckRows(t, trRows(transcript.Project(events, tt.opts), now), tt.want)
		})
	}
}

// TestProjectMarkerData covers where a marker's data comes from (log.md
// §12.3): the cited summary when it is in the projected window and well
// formed, else nothing; never the checkpoint's own payload.
func TestProjectMarkerData(t *testing.T) {
	events := trLoad(t, "example-session.jsonl")
	summary := func(data string) sessionlog.Event {
		return sessionlog.Event{Type: "compaction/summary", Seq: 32, Time: 1, Data: json.RawMessage(data)}
	}
	checkpoint := events[33]
	tests := []struct {
		name   string
		events []sessionlog.Event
		want   string
	}{
		{"summary in window", events[32:], `[33] Marker summary=32 items=4 tokens=1900 text=<54 runes>`},
		{"summary before window", events[33:], `[33] Marker (no summary)`},
		{"blank summary text", []sessionlog.Event{summary(`{"summary":[{"type":"text","text":" \n"},{"type":"reasoning","text":"x"}],"shadowedSeqs":[2,9],"shadowedTokenCount":7}`), checkpoint},
			`[33] Marker summary=32 items=2 tokens=7 text="<nil>"`},
		{"text blocks joined without separator", []sessionlog.Event{summary(`{"summary":[{"type":"text","text":"a "},{"type":"text","text":"b"}],"shadowedSeqs":[],"shadowedTokenCount":0}`), checkpoint},
			`[33] Marker summary=32 items=0 tokens=0 text="a b"`},
		{"malformed token count", []sessionlog.Event{summary(`{"summary":[],"shadowedSeqs":[2],"shadowedTokenCount":"many"}`), checkpoint}, `[33] Marker (no summary)`},
		{"fractional token count", []sessionlog.Event{summary(`{"summary":[],"shadowedSeqs":[2],"shadowedTokenCount":1.5}`), checkpoint}, `[33] Marker (no summary)`},
		{"missing shadowedSeqs", []sessionlog.Event{summary(`{"summary":[],"shadowedTokenCount":1}`), checkpoint}, `[33] Marker (no summary)`},
		{"data not an object", []sessionlog.Event{summary(`[1,2]`), checkpoint}, `[33] Marker (no summary)`},
		{"older compact/summary", []sessionlog.Event{{Type: "compact/summary", Seq: 32, Data: json.RawMessage(`{"summary":[{"type":"text","text":"old"}],"shadowedSeqs":[2],"shadowedTokenCount":3}`)}, checkpoint},
			`[33] Marker summary=32 items=1 tokens=3 text="old"`},
		{"cited seq is not a summary", []sessionlog.Event{{Type: "compaction/start", Seq: 32, Data: json.RawMessage(`{"turn":null}`)}, checkpoint}, `[33] Marker (no summary)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, it := range transcript.Project(tt.events, transcript.Options{}).Items {
				if it.Kind == transcript.KindMarker {
					got = append(got, trRow(it, 0))
				}
			}
			trCheckRows(t, got, []string{tt.want})
		})
	}
}

func TestTranscriptToolCallIDs(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"example-session.jsonl", []string{"call-1", "call-2"}},
		{"orphans.jsonl", []string{"c1", "c2"}}, // c3 is advertised only by a replacement
		{"upstream-compaction-scenario.jsonl", []string{"old-tool"}},
	}
	for _, tt := range tests {
		ids := transcript.ToolCallIDs(trLoad(t, tt.file))
		var got []string
		for id := range ids {
			got = append(got, id)
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: TranscriptToolCallIDs = %v, want %v", tt.file, got, tt.want)
		}
	}
}

// TestProjectNeverFails feeds windows that start anywhere, including ones
// whose checkpoints and pruned copies replace events outside the window.
func TestProjectNeverFails(t *testing.T) {
	for _, name := range trLogFiles(t) {
		events := trLoad(t, name)
		for start := range events {
			for _, eager := range []bool{false, true} {
				tr := transcript.Project(events[start:], transcript.Options{EagerSteps: eager})
				for _, it := range tr.Items {
					if it.ID.Seq < int64(start) {
						t.Fatalf("%s[%d:]: item %v from seq %d outside the window", name, start, it.Kind, it.ID.Seq)
					}
				}
			}
		}
	}
}

// TestProjectMalformed pins what malformed payloads render: whatever part is
// well formed, never a failure.
func TestProjectMalformed(t *testing.T) {
	ev := func(seq int64, typ, data, op string) sessionlog.Event {
		e := sessionlog.Event{Type: typ, Seq: seq, Time: 1000 + seq, Data: json.RawMessage(data)}
		if op != "" {
			e.SurfaceOp = json.RawMessage(op)
		}
		return e
	}
	tests := []struct {
		name   string
		events []sessionlog.Event
		want   []string
	}{{
		name:   "a bad second block keeps the result",
		events: []sessionlog.Event{ev(0, "tool/result", `{"message":{"content":[{"type":"tool-result","content":[{"type":"text","text":"out"}],"isError":true},5],"source":{"kind":"tool","callId":"c1"}}}`, `"append"`)},
		want:   []string{`[0] Tool tool c1 error orphan result="out"`},
	}, {
		name:   "content not an array",
		events: []sessionlog.Event{ev(0, "tool/result", `{"message":{"content":"oops","source":{"kind":"tool","callId":"c1"}}}`, `"append"`)},
		want:   []string{`[0] Tool tool c1 ok orphan result=""`},
	}, {
		name: "source not an object",
		events: []sessionlog.Event{ev(0, "user/message", `{"content":[{"type":"text","text":"hi"}],"source":"user"}`, `"append"`),
			ev(1, "user/message", `{"content":[{"type":"text","text":"x"}],"source":{"kind":"plugin","plugin":7}}`, `"append"`),
			ev(2, "user/message", `{"content":[{"type":"text","text":"y"}],"source":{"kind":"plugin","plugin":""}}`, `"append"`),
			ev(3, "user/message", `{"content":[{"type":"text","text":"z"}],"source":{"kind":"session-reference","references":[]}}`, `"append"`)},
		want: []string{`[0] Context · context: "hi"`, `[1] Context · plugin: "x"`, `[2] Context · : "y"`, `[3] Referenced sessions · `},
	}, {
		name:   "assistant turn of the wrong type",
		events: []sessionlog.Event{ev(0, "assistant/message", `{"turn":"x","step":1,"message":{"content":[{"type":"text","text":"ok"}]}}`, `"append"`)},
		want:   []string{`[0] Assistant 0/1 text="ok"`, `[0f] Footer 0/1: Model wait 0.0s`}, // step survives the bad turn
	}, {
		name: "surface types without a marker render, with a bad marker they are replacements",
		events: []sessionlog.Event{ev(0, "user/message", `{"content":[{"type":"text","text":"unmarked"}],"source":{"kind":"user"}}`, ""),
			ev(1, "user/message", `{"content":[{"type":"text","text":"bogus op"}],"source":{"kind":"user"}}`, `"prepend"`)},
		want: []string{`[0] You: "unmarked"`},
	}, {
		name: "null data everywhere",
		events: []sessionlog.Event{ev(0, "turn/start", `null`, ""), ev(1, "step/start", `null`, ""), ev(2, "user/message", `null`, `"append"`),
			ev(3, "assistant/chunk", `null`, ""), ev(4, "assistant/message", `null`, `"append"`), ev(5, "tool/call", `null`, ""),
			ev(6, "tool/result", `null`, `"append"`), ev(7, "llm/retry", `null`, ""), ev(8, "turn/end", `null`, ""),
			ev(9, "compaction/start", `null`, ""), ev(10, "compaction/end", `null`, ""), ev(11, "steering/message", `null`, `"append"`)},
		want: []string{`[6] Tool tool  ok orphan result=""`, `[7] warning notice: "Retrying model request (0/∞) in 0ms: "`, `[8] warning notice: "Turn ended: ."`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, eager := range []bool{false, true} {
				if err := trCheckLive(tt.events, transcript.Options{EagerSteps: eager}); err != nil {
					t.Fatal(err)
				}
			}
			trCheckRows(t, trRows(transcript.Project(tt.events, transcript.Options{}), 0), tt.want)
		})
	}
}
