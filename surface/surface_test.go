package surface

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// testdataDir holds the example logs, beside the log vocabulary they show.
const testdataDir = "../sessionlog/testdata"

// frozenClock is the clock of every test session.
func frozenClock() int64 { return 1784630700000 }

// readTestLog decodes a file of testdata/ and fails the test on any error.
func readTestLog(t testing.TB, name string) *jsonl.Log {
	t.Helper()
	path := filepath.Join(testdataDir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := jsonl.ParseLog(data, path)
	if err != nil {
		t.Fatalf("ParseLog(%s): %v", name, err)
	}
	return log
}

type surfaceRow struct {
	seq   int64
	nodes []int64
	gen   int
}

// expectedSurfaceRows parses the table of example-session.expected.md §1.
func expectedSurfaceRows(t *testing.T) []surfaceRow {
	t.Helper()
	md, err := os.ReadFile(testdataDir + "/example-session.expected.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(md)
	section = section[strings.Index(section, "## 1."):strings.Index(section, "## 2.")]
	row := regexp.MustCompile("(?m)^\\| (\\d+) \\| .* \\| `\\[([0-9,]*)\\]` \\| (\\d+) \\|$")
	var rows []surfaceRow
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		seq, _ := strconv.ParseInt(m[1], 10, 64)
		gen, _ := strconv.Atoi(m[3])
		rows = append(rows, surfaceRow{seq: seq, nodes: parseSeqList(t, m[2]), gen: gen})
	}
	if len(rows) != 13 {
		t.Fatalf("parsed %d surface rows from expected.md §1, want 13", len(rows))
	}
	return rows
}

func parseSeqList(t *testing.T, s string) []int64 {
	t.Helper()
	out := []int64{}
	for _, f := range strings.Split(s, ",") {
		if f == "" {
			continue
		}
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// expectedReplacements parses the replacement list of expected.md §1.
func expectedReplacements(t *testing.T) []Replacement {
	t.Helper()
	md, err := os.ReadFile(testdataDir + "/example-session.expected.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\{seq:(\d+), start:(\d+), end:(\d+), shadowedSeqs:\[([0-9,]*)\]\}`)
	var out []Replacement
	for _, m := range re.FindAllStringSubmatch(string(md), -1) {
		seq, _ := strconv.ParseInt(m[1], 10, 64)
		start, _ := strconv.ParseInt(m[2], 10, 64)
		end, _ := strconv.ParseInt(m[3], 10, 64)
		out = append(out, Replacement{Seq: seq, Start: start, End: end, ShadowedSeqs: parseSeqList(t, m[4])})
	}
	if len(out) != 3 {
		t.Fatalf("parsed %d replacements, want 3", len(out))
	}
	return out
}

func TestExampleSurfaceAfterEverySurfaceEvent(t *testing.T) {
	log := readTestLog(t, "example-session.jsonl")
	rows := expectedSurfaceRows(t)
	s := New(0)
	var got []surfaceRow
	for i := range log.Events {
		e := &log.Events[i]
		beforeNodes, beforeGen := s.Nodes(), s.Generation()
		if err := s.Apply(e); err != nil {
			t.Fatalf("Apply(seq %d): %v", e.Seq, err)
		}
		if !sessionlog.IsSurfaceEvent(e) {
			if !cmp.Equal(s.Nodes(), beforeNodes) || s.Generation() != beforeGen {
				t.Errorf("log-only seq %d changed the surface", e.Seq)
			}
			continue
		}
		got = append(got, surfaceRow{seq: e.Seq, nodes: s.Nodes(), gen: s.Generation()})
	}
	if diff := cmp.Diff(rows, got, cmp.AllowUnexported(surfaceRow{})); diff != "" {
		t.Errorf("surface rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(expectedReplacements(t), s.Replacements()); diff != "" {
		t.Errorf("replacements (-want +got):\n%s", diff)
	}
	if s.Len() != 7 || s.NextSeq() != 41 {
		t.Errorf("Len, NextSeq = %d, %d; want 7, 41", s.Len(), s.NextSeq())
	}
}

func TestExampleFold(t *testing.T) {
	log := readTestLog(t, "example-session.jsonl")
	res, err := Fold(log.Events, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := FoldResult{Nodes: []int64{33, 19, 20, 30, 25, 36, 38}, Replacements: expectedReplacements(t)}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("Fold (-want +got):\n%s", diff)
	}
}

func TestExampleWindowFoldFails(t *testing.T) {
	// log.md §13: a per-window fold of the first history page (seqs 25–40)
	// fails at the pruned copy.
	log := readTestLog(t, "example-session.jsonl")
	_, err := Fold(log.Events[25:], 25)
	if err == nil || err.Error() != "surface replace: start seq 22 not found in surface" {
		t.Fatalf("window fold error = %v", err)
	}
}

func TestUpstreamCompactionFold(t *testing.T) {
	log := readTestLog(t, "upstream-compaction-scenario.jsonl")
	res, err := Fold(log.Events, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := FoldResult{
		Nodes:        []int64{6},
		Replacements: []Replacement{{Seq: 6, Start: 2, End: 5, ShadowedSeqs: []int64{2, 3, 5}}},
	}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("Fold (-want +got):\n%s", diff)
	}
}

// ev builds an event for tests.
func ev(typ string, seq int64, data string, op string, sources string) sessionlog.Event {
	e := sessionlog.Event{Type: typ, Seq: seq, Time: 1784630400000 + seq, Data: json.RawMessage(data)}
	if op != "" {
		e.SurfaceOp = json.RawMessage(op)
	}
	if sources != "" {
		e.SourceEventSeqs = json.RawMessage(sources)
	}
	return e
}

const (
	userData  = `{"id":"u","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}}`
	asstData  = `{"turn":3,"step":1,"message":{"id":"a","role":"assistant","content":[{"type":"text","text":"x"}],"source":{"kind":"model","provider":"p","model":"m"}}}`
	stepData  = `{"turn":3,"step":1}`
	toolData0 = `{"turn":2,"step":1,"message":{"id":"m-t2","role":"user","content":[{"type":"tool-result","toolCallId":"call-2","content":[{"type":"text","text":"short"}],"isError":false}],"source":{"kind":"tool","callId":"call-2"}}}`
)

// TestFoldErrors has one case per error of log.md §4–§6. Every candidate
// is offered to the example log's surface after seq 30 (nodes
// [2,9,11,14,19,20,30,25], generation 1) and must be rejected with the
// exact text, leaving the surface unchanged.
func TestFoldErrors(t *testing.T) {
	log := readTestLog(t, "example-session.jsonl")
	prefix := log.Events[:31]
	tests := []struct {
		name string
		e    sessionlog.Event
		want string
	}{
		{"seq not contiguous", ev(sessionlog.TypeStepStart, 32, stepData, "", ""),
			"session event seq 32 is not contiguous; expected 31"},
		{"seq repeated", ev(sessionlog.TypeStepStart, 30, stepData, "", ""),
			"session event seq 30 is not contiguous; expected 31"},
		{"log-only with surfaceOp", ev(sessionlog.TypeToolCall, 31, stepData, `"append"`, ""),
			`session event "tool/call" is not surface-eligible and cannot carry surfaceOp`},
		{"log-only with surfaceOp and sources", ev(sessionlog.TypeCompactionStart, 31, `{"turn":3}`, `"append"`, `[1]`),
			`session event "compaction/start" is not surface-eligible and cannot carry surfaceOp`},
		{"log-only with sourceEventSeqs", ev(sessionlog.TypeAssistantChunk, 31, stepData, "", `[5]`),
			`session event "assistant/chunk" is not surface-eligible and cannot carry sourceEventSeqs`},
		{"unknown type with surfaceOp", ev("x/vendor", 31, `{}`, `"append"`, ""),
			`session event "x/vendor" is not surface-eligible and cannot carry surfaceOp`},
		{"missing surfaceOp", ev(sessionlog.TypeUserMessage, 31, userData, "", ""),
			`session event "user/message" is surface-eligible and requires a surfaceOp marker`},
		{"invalid surfaceOp string", ev(sessionlog.TypeUserMessage, 31, userData, `"prepend"`, ""),
			`session event "user/message" carries an invalid surfaceOp`},
		{"invalid surfaceOp number", ev(sessionlog.TypeAssistantMessage, 31, asstData, `7`, ""),
			`session event "assistant/message" carries an invalid surfaceOp`},
		{"invalid surfaceOp null", ev(sessionlog.TypeUserMessage, 31, userData, `null`, ""),
			`session event "user/message" carries an invalid surfaceOp`},
		{"invalid surfaceOp array", ev(sessionlog.TypeUserMessage, 31, userData, `["append"]`, ""),
			`session event "user/message" carries an invalid surfaceOp`},
		{"replace with extra key", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":2,"end":9,"x":1}`, `[2,9]`),
			`session event "user/message" carries an invalid replace surfaceOp`},
		{"replace with startSeq", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","startSeq":2,"endSeq":9}`, `[2,9]`),
			`session event "user/message" carries an invalid replace surfaceOp`},
		{"replace with wrong op", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"append","start":2,"end":9}`, `[2,9]`),
			`session event "user/message" carries an invalid replace surfaceOp`},
		{"replace with negative start", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":-1,"end":9}`, `[2,9]`),
			`session event "user/message" carries an invalid replace surfaceOp`},
		{"replace with unsafe end", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":2,"end":9007199254740992}`, `[2]`),
			`session event "user/message" carries an invalid replace surfaceOp`},
		{"start not found (shadowed earlier)", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":22,"end":25}`, `[22,25]`),
			"surface replace: start seq 22 not found in surface"},
		{"end not found (log-only seq)", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":2,"end":21}`, `[2]`),
			"surface replace: end seq 21 not found in surface"},
		{"start after end", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":30,"end":20}`, `[20,30]`),
			"surface replace: start seq 30 (index 6) is after end seq 20 (index 5)"},
		{"sources not an array", ev(sessionlog.TypeToolResult, 31, toolData0, `"append"`, `{"0":21}`),
			"sourceEventSeqs on event at seq 31 must be an array when present"},
		{"sources null", ev(sessionlog.TypeUserMessage, 31, userData, `"append"`, `null`),
			"sourceEventSeqs on event at seq 31 must be an array when present"},
		{"sources empty", ev(sessionlog.TypeUserMessage, 31, userData, `"append"`, `[]`),
			"sourceEventSeqs must not be empty except on assistant/message"},
		{"sources bad entry", ev(sessionlog.TypeUserMessage, 31, userData, `"append"`, `[3,-1]`),
			`session event "user/message" sourceEventSeqs must densely contain non-negative safe integers`},
		{"sources fraction", ev(sessionlog.TypeAssistantMessage, 31, asstData, `"append"`, `[1.5]`),
			`session event "assistant/message" sourceEventSeqs must densely contain non-negative safe integers`},
		{"sources string", ev(sessionlog.TypeUserMessage, 31, userData, `"append"`, `["3"]`),
			`session event "user/message" sourceEventSeqs must densely contain non-negative safe integers`},
		{"sources duplicate", ev(sessionlog.TypeUserMessage, 31, userData, `"append"`, `[3,4,3]`),
			"sourceEventSeqs must not contain duplicates"},
		{"sources later event", ev(sessionlog.TypeUserMessage, 31, userData, `"append"`, `[3,40,31]`),
			"sourceEventSeqs must reference earlier events: 40 >= current seq 31"},
		{"sources self", ev(sessionlog.TypeUserMessage, 31, userData, `"append"`, `[31]`),
			"sourceEventSeqs must reference earlier events: 31 >= current seq 31"},
		{"replace missing shadowed", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":9,"end":19}`, `[1,11]`),
			"surface replace: sourceEventSeqs must include every shadowed surface node; missing 9, 14, 19"},
		{"replace without sources", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":30,"end":25}`, ""),
			"surface replace: sourceEventSeqs must include every shadowed surface node; missing 30, 25"},
		{"replace with empty sources", ev(sessionlog.TypeAssistantMessage, 31, asstData, `{"op":"replace","start":25,"end":25}`, `[]`),
			"surface replace: sourceEventSeqs must include every shadowed surface node; missing 25"},
		{"tool/result rewrites two nodes", ev(sessionlog.TypeToolResult, 31, toolData0, `{"op":"replace","start":30,"end":25}`, `[30,25]`),
			"tool/result surface replacement must rewrite exactly one current node"},
		{"tool/result targets an assistant", ev(sessionlog.TypeToolResult, 31, toolData0, `{"op":"replace","start":20,"end":20}`, `[20]`),
			"tool/result surface replacement must target a current tool/result"},
		{"tool/result changes isError", ev(sessionlog.TypeToolResult, 31,
			strings.Replace(toolData0, `"isError":false`, `"isError":true`, 1), `{"op":"replace","start":30,"end":30}`, `[30]`),
			"tool/result surface replacement may change only content"},
		{"tool/result changes step", ev(sessionlog.TypeToolResult, 31,
			strings.Replace(toolData0, `"step":1`, `"step":2`, 1), `{"op":"replace","start":30,"end":30}`, `[30]`),
			"tool/result surface replacement may change only content"},
		{"tool/result adds meta", ev(sessionlog.TypeToolResult, 31,
			strings.Replace(toolData0, `"turn":2,`, `"turn":2,"meta":{},`, 1), `{"op":"replace","start":30,"end":30}`, `[30]`),
			"tool/result surface replacement may change only content"},
		{"tool/result changes message id", ev(sessionlog.TypeToolResult, 31,
			strings.Replace(toolData0, `"m-t2"`, `"m-t3"`, 1), `{"op":"replace","start":30,"end":30}`, `[30]`),
			"tool/result surface replacement may change only content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(0)
			for i := range prefix {
				if err := s.Apply(&prefix[i]); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(s)
			err := s.Apply(&tt.e)
			if err == nil {
				t.Fatalf("Apply succeeded; want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %q\nwant %q", err.Error(), tt.want)
			}
			if _, ok := err.(*sessionlog.Error); !ok {
				t.Errorf("error type %T, want *sessionlog.Error", err)
			}
			if diff := cmp.Diff(before, snapshot(s)); diff != "" {
				t.Errorf("rejected candidate changed the surface (-before +after):\n%s", diff)
			}
			// The surface still accepts the real next event.
			if err := s.Apply(&log.Events[31]); err != nil {
				t.Errorf("Apply(seq 31) after rejection: %v", err)
			}
		})
	}
}

// surfaceState is everything observable about a Surface.
type surfaceState struct {
	Nodes        []int64
	Generation   int
	NextSeq      int64
	Replacements []Replacement
}

func snapshot(s *Surface) surfaceState {
	return surfaceState{s.Nodes(), s.Generation(), s.NextSeq(), s.Replacements()}
}

func TestFoldAccepts(t *testing.T) {
	log := readTestLog(t, "example-session.jsonl")
	prefix := log.Events[:31] // nodes [2,9,11,14,19,20,30,25]
	tests := []struct {
		name  string
		e     sessionlog.Event
		nodes []int64
	}{
		{"numerically reversed range", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":30,"end":25}`, `[30,25]`),
			[]int64{2, 9, 11, 14, 19, 20, 31}},
		{"keys in any order, extra sources", ev(sessionlog.TypeUserMessage, 31, userData, `{"end":14,"start":2,"op":"replace"}`, `[0, 14,11,9,2]`),
			[]int64{31, 19, 20, 30, 25}},
		{"pruned copy of a pruned copy", ev(sessionlog.TypeToolResult, 31,
			`{"message":{"source":{"callId":"call-2","kind":"tool"},"id":"m-t2","role":"user","content":[{"isError":false,"content":[],"toolCallId":"call-2","type":"tool-result"}]},"step":1,"turn":2}`,
			`{"op":"replace","start":30,"end":30}`, `[30]`),
			[]int64{2, 9, 11, 14, 19, 20, 31, 25}},
		{"assistant with empty sources appends", ev(sessionlog.TypeAssistantMessage, 31, asstData, `"append"`, `[]`),
			[]int64{2, 9, 11, 14, 19, 20, 30, 25, 31}},
		{"whole surface", ev(sessionlog.TypeUserMessage, 31, userData, `{"op":"replace","start":2,"end":25}`, `[2,9,11,14,19,20,30,25]`),
			[]int64{31}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(0)
			for i := range prefix {
				if err := s.Apply(&prefix[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Apply(&tt.e); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.nodes, s.Nodes()); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSurfacePlanDoesNotMutate(t *testing.T) {
	log := readTestLog(t, "example-session.jsonl")
	s := New(0)
	for i := range log.Events[:33] {
		if err := s.Apply(&log.Events[i]); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(s)
	p, err := s.Validate(&log.Events[33])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, snapshot(s)); diff != "" {
		t.Fatalf("Validate changed the surface:\n%s", diff)
	}
	if got, want := p.String(), "seq 33: replace 2..14 shadowing [2 9 11 14]"; got != want {
		t.Errorf("plan = %q, want %q", got, want)
	}
	if err := s.Commit(p); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(p); err == nil {
		t.Error("committing a plan twice succeeded")
	}
	if err := New(0).Commit(p); err == nil {
		t.Error("committing another surface's plan succeeded")
	}
	if got := s.Nodes(); !cmp.Equal(got, []int64{33, 19, 20, 30, 25}) {
		t.Errorf("nodes = %v", got)
	}
	var all []int64
	for seq := range s.All() {
		all = append(all, seq)
	}
	if !cmp.Equal(all, s.Nodes()) || !s.Contains(33) || s.Contains(2) {
		t.Errorf("All = %v, Contains(33) = %v, Contains(2) = %v", all, s.Contains(33), s.Contains(2))
	}
}
