package recovery

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func feed(lines ...string) *Recoverer {
	var r Recoverer
	for _, l := range lines {
		r.Feed([]byte(l))
	}
	return &r
}

const (
	turn1  = `{"type":"turn/start","seq":0,"time":100,"data":{"turn":1}}`
	user1  = `{"type":"user/message","seq":1,"time":101,"data":{"id":"u","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`
	step1  = `{"type":"step/start","seq":2,"time":102,"data":{"turn":1,"step":1}}`
	asst2  = `{"type":"assistant/message","seq":3,"time":103,"data":{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":[{"type":"text","text":"x"},{"type":"tool-call","id":"c1","name":"bash","arguments":"{}"},{"type":"tool-call","id":"c2","name":"read","arguments":"{}"}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}`
	call1  = `{"type":"tool/call","seq":4,"time":104,"data":{"turn":1,"step":1,"callId":"c1","name":"bash","arguments":"{}"}}`
	res1   = `{"type":"tool/result","seq":5,"time":105,"data":{"turn":1,"step":1,"message":{"id":"r","role":"user","content":[],"source":{"kind":"tool","callId":"c1"}}},"surfaceOp":"append","sourceEventSeqs":[4]}`
	chunk  = `{"type":"assistant/chunk","seq":6,"time":106,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"y"}}}`
	stepE  = `{"type":"step/end","seq":5,"time":105,"data":{"turn":1,"step":1}}`
	turnE  = `{"type":"turn/end","seq":6,"time":106,"data":{"turn":1,"reason":{"kind":"completed"}}}`
	notRun = "The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed."
)

func TestClosers(t *testing.T) {
	unknownResult := func(call string, seq, src, tm string) string {
		return `{"type":"tool/result","seq":` + seq + `,"time":` + tm + `,"data":{"turn":1,"step":1,"message":{"id":"interrupted-tool-result-` + call + `-` + seq + `","role":"user","source":{"kind":"tool","callId":"` + call + `"},"content":[{"type":"tool-result","toolCallId":"` + call + `","isError":true,"content":[{"type":"text","text":"` + TextOutcomeUnknown + `"}]}]},"error":{"name":"ToolOutcomeUnknownError","code":"TOOL_OUTCOME_UNKNOWN"}},"surfaceOp":"append","sourceEventSeqs":[` + src + `]}`
	}
	notStarted := func(call, seq, tm string) string {
		return `{"type":"tool/result","seq":` + seq + `,"time":` + tm + `,"data":{"turn":1,"step":1,"message":{"id":"interrupted-tool-result-` + call + `-` + seq + `","role":"user","source":{"kind":"tool","callId":"` + call + `"},"content":[{"type":"tool-result","toolCallId":"` + call + `","isError":true,"content":[{"type":"text","text":"` + notRun + `"}]}]},"error":{"name":"ToolNotStartedError","code":"TOOL_NOT_STARTED"}},"surfaceOp":"append"}`
	}
	stepEnd := func(seq, tm string) string {
		return `{"type":"step/end","seq":` + seq + `,"time":` + tm + `,"data":{"turn":1,"step":1}}`
	}
	turnEnd := func(seq, tm string) string {
		return `{"type":"turn/end","seq":` + seq + `,"time":` + tm + `,"data":{"turn":1,"reason":{"kind":"interrupted"}}}`
	}
	tests := []struct {
		name  string
		lines []string
		want  []string
		kinds []Kind
	}{
		{"empty log", nil, nil, nil},
		{"balanced", []string{turn1, user1, step1, stepE, turnE}, nil, nil},
		{"no turn open, trailing events", []string{turn1, turnE, `{"type":"session/title","seq":7,"time":9,"data":{}}`}, nil, nil},
		{"turn open, no step", []string{turn1, user1}, []string{turnEnd("2", "101")}, []Kind{TurnEnd}},
		{"step open", []string{turn1, user1, step1}, []string{stepEnd("3", "102"), turnEnd("4", "102")}, []Kind{StepEnd, TurnEnd}},
		{"mid stream", []string{turn1, user1, step1, strings.Replace(chunk, `"seq":6`, `"seq":3`, 1)},
			[]string{stepEnd("4", "106"), turnEnd("5", "106")}, []Kind{StepEnd, TurnEnd}},
		{"pending calls in order, one recorded",
			[]string{turn1, user1, step1, asst2, call1},
			[]string{unknownResult("c1", "5", "4", "104"), notStarted("c2", "6", "104"), stepEnd("7", "104"), turnEnd("8", "104")},
			[]Kind{ToolOutcomeUnknown, ToolNotStarted, StepEnd, TurnEnd}},
		{"answered call is not pending",
			[]string{turn1, user1, step1, asst2, call1, res1},
			[]string{notStarted("c2", "6", "105"), stepEnd("7", "105"), turnEnd("8", "105")},
			[]Kind{ToolNotStarted, StepEnd, TurnEnd}},
		{"step/end clears pending calls",
			[]string{turn1, user1, step1, asst2, strings.Replace(stepE, `"seq":5`, `"seq":4`, 1)},
			[]string{turnEnd("5", "105")}, []Kind{TurnEnd}},
		{"a new turn forgets the old one's calls",
			[]string{turn1, user1, step1, asst2, `{"type":"turn/start","seq":4,"time":200,"data":{"turn":2}}`},
			[]string{`{"type":"turn/end","seq":5,"time":200,"data":{"turn":2,"reason":{"kind":"interrupted"}}}`}, []Kind{TurnEnd}},
		{"a re-requested call keeps its place and forgets its tool/call",
			[]string{turn1, user1, step1, asst2, call1, strings.Replace(asst2, `"seq":3`, `"seq":5`, 1)},
			[]string{notStarted("c1", "6", "103"), notStarted("c2", "7", "103"), stepEnd("8", "103"), turnEnd("9", "103")},
			[]Kind{ToolNotStarted, ToolNotStarted, StepEnd, TurnEnd}},
		{"a null turn is no open turn", []string{`{"type":"turn/start","seq":0,"time":1,"data":{"turn":null}}`}, nil, nil},
		{"key order of the input does not matter",
			[]string{`{"seq":0,"data":{"turn":1},"time":100,"type":"turn/start"}`, `{"data":{"step":1,"turn":1},"type":"step/start","time":102,"seq":1}`},
			[]string{stepEnd("2", "102"), turnEnd("3", "102")}, []Kind{StepEnd, TurnEnd}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := feed(tt.lines...)
			got, err := r.Closers()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d closers, want %d: %v", len(got), len(tt.want), got)
			}
			if r.Open() != (len(tt.want) > 0) {
				t.Errorf("Open() = %v", r.Open())
			}
			for i, c := range got {
				if string(c.Line) != tt.want[i] {
					t.Errorf("closer %d\ngot  %s\nwant %s", i, c.Line, tt.want[i])
				}
				if c.Kind != tt.kinds[i] || !c.Synthetic || !json.Valid(c.Line) {
					t.Errorf("closer %d: kind %v synthetic %v", i, c.Kind, c.Synthetic)
				}
				var env struct {
					Type string
					Seq  int64
				}
				if err := json.Unmarshal(c.Line, &env); err != nil || env.Type != c.Type || env.Seq != c.Seq {
					t.Errorf("closer %d: Type %q Seq %d, line says %+v", i, c.Type, c.Seq, env)
				}
			}
		})
	}
}

func TestClosersBadSeq(t *testing.T) {
	r := feed(turn1, `{"type":"step/start","seq":"x","time":1,"data":{"turn":1,"step":1}}`)
	if _, err := r.Closers(); err == nil || !strings.HasPrefix(err.Error(), "recovery: ") {
		t.Fatalf("err = %v", err)
	}
}

// TestUpstreamExample checks the closers against the ones upstream's loader
// wrote into a real log (containers.md §6): the corpus file
// tool-outcome-unknown/session.expected.jsonl holds them at seqs 5–7 after
// the interrupted prefix at seqs 0–4.
func TestUpstreamExample(t *testing.T) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "..", "..", "..", "shared", "corpus", "upstream-logs",
		"examples__headless-agent__tests__semantic-checkpoint-snapshots__tool-outcome-unknown__session.expected.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("the corpus is absent (../shared/corpus next to the repository): %v", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) < 9 {
		t.Fatalf("%d lines", len(lines))
	}
	r := feed(lines[1:6]...) // seqs 0–4, after the header
	got, err := r.Closers()
	if err != nil {
		t.Fatal(err)
	}
	want := lines[6:9]
	if len(got) != len(want) {
		t.Fatalf("%d closers, want %d", len(got), len(want))
	}
	for i := range want {
		if string(got[i].Line) != want[i] {
			t.Errorf("closer %d\ngot  %s\nwant %s", i, got[i].Line, want[i])
		}
	}
}

// FuzzRecoverer: on any sequence of lines, feeding never panics, the closers
// are valid JSON with seqs that continue the log, and once they are fed the
// turn is closed.
func FuzzRecoverer(f *testing.F) {
	f.Add([]byte(strings.Join([]string{turn1, user1, step1, asst2, call1}, "\n")))
	f.Add([]byte(strings.Join([]string{turn1, step1, res1, chunk}, "\n")))
	f.Add([]byte(`{"type":"turn/start","seq":0,"time":"t","data":{}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Recoverer
		for l := range strings.SplitSeq(string(b), "\n") {
			r.Feed([]byte(l))
		}
		closers, err := r.Closers()
		if err != nil || len(closers) == 0 {
			return
		}
		for i, c := range closers {
			if !json.Valid(c.Line) {
				t.Fatalf("closer %d is not JSON: %s", i, c.Line)
			}
			if i > 0 && c.Seq != closers[i-1].Seq+1 {
				t.Fatalf("closer seqs %d then %d", closers[i-1].Seq, c.Seq)
			}
			r.Feed(c.Line)
		}
		if closers[len(closers)-1].Kind != TurnEnd || r.Open() {
			t.Fatalf("turn still open after the closers")
		}
		if more, _ := r.Closers(); len(more) != 0 {
			t.Fatalf("%d more closers after the closers", len(more))
		}
	})
}

// TestFeedChunk: a chunk fed by its seq and time leaves the recoverer as
// the chunk's line does.
func TestFeedChunk(t *testing.T) {
	prefixes := [][]string{nil, {turn1}, {turn1, user1, step1}, {turn1, user1, step1, asst2, call1}}
	for _, pre := range prefixes {
		for _, st := range [][2]int64{{0, 0}, {7, 1784630400002}, {9007199254740991, -5}} {
			line := `{"type":"assistant/chunk","seq":` + strconv.FormatInt(st[0], 10) + `,"time":` +
				strconv.FormatInt(st[1], 10) + `,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"y"}}}`
			byLine, bySeq := feed(append(slices.Clone(pre), line)...), feed(pre...)
			bySeq.FeedChunk(st[0], st[1])
			if !reflect.DeepEqual(byLine, bySeq) {
				t.Errorf("after %d lines, chunk %v: FeedChunk left %+v, Feed %+v", len(pre), st, bySeq, byLine)
			}
		}
	}
}
