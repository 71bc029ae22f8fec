package surface

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/sessionlog"
)

// steppingClock returns 1000, 1001, … on successive calls.
func steppingClock() sessionlog.Clock {
	t := int64(999)
	return func() int64 { t++; return t }
}

func TestLoadErrors(t *testing.T) {
	good := readTestLog(t, "example-session.jsonl").Events
	// with returns the example log with event i replaced.
	with := func(i int, mod func(e *sessionlog.Event)) []sessionlog.Event {
		events := append([]sessionlog.Event(nil), good...)
		e := events[i]
		mod(&e)
		events[i] = e
		return events
	}
	data := func(s string) func(e *sessionlog.Event) {
		return func(e *sessionlog.Event) { e.Data = json.RawMessage(s) }
	}
	tool := func(old, new string) func(e *sessionlog.Event) {
		return func(e *sessionlog.Event) { e.Data = json.RawMessage(strings.Replace(string(e.Data), old, new, 1)) }
	}
	tests := []struct {
		name   string
		events []sessionlog.Event
		want   string
	}{
		{"empty type", with(3, func(e *sessionlog.Event) { e.Type = "" }), "seed event at index 3 has an invalid event envelope"},
		{"negative seq", with(3, func(e *sessionlog.Event) { e.Seq = -1 }), "seed event at index 3 has an invalid event envelope"},
		{"unsafe seq", with(3, func(e *sessionlog.Event) { e.Seq = 1 << 53 }), "seed event at index 3 has an invalid event envelope"},
		{"absent data", with(3, func(e *sessionlog.Event) { e.Data = nil }), "seed event at index 3 has an invalid event envelope"},
		{"invalid data", with(3, data(`{"a":`)), "seed event at index 3 has an invalid event envelope"},
		{"negative zero", with(3, data(`{"a":[1,-0]}`)), "seed event at index 3 has an invalid event envelope"},
		{"negative zero float", with(3, data(`{"a":-0.0e3}`)), "seed event at index 3 has an invalid event envelope"},
		{"infinite number", with(3, data(`{"a":1e400}`)), "seed event at index 3 has an invalid event envelope"},
		{"invalid surfaceOp JSON", with(2, func(e *sessionlog.Event) { e.SurfaceOp = json.RawMessage(`"app`) }), "seed event at index 2 has an invalid event envelope"},
		{"legacy type", with(3, func(e *sessionlog.Event) { e.Type = sessionlog.TypeLegacyHeaderDelta }), "seed event at index 3 uses unsupported legacy request/header-delta format"},
		{"seq gap", with(3, func(e *sessionlog.Event) { e.Seq = 7 }), "seed event at index 3 has seq 7 (expected 3); seed must be contiguous from 0"},
		{"user without id", with(2, tool(`"id":"m-u1",`, ``)), "seed user/message at index 2 lacks an identified message"},
		{"user with empty id", with(2, tool(`"id":"m-u1"`, `"id":""`)), "seed user/message at index 2 lacks an identified message"},
		{"user data not an object", with(2, data(`[]`)), "seed user/message at index 2 lacks an identified message"},
		{"assistant without message", with(14, data(`{"turn":1,"step":2}`)), "seed assistant/message at index 14 lacks an identified message"},
		{"user with assistant role", with(2, tool(`"role":"user"`, `"role":"assistant"`)), `seed user/message at index 2 message must have role "user"`},
		{"assistant with user role", with(14, tool(`"role":"assistant"`, `"role":"user"`)), `seed assistant/message at index 14 message must have role "assistant"`},
		{"source without kind", with(2, tool(`{"kind":"user"}`, `{"kind":""}`)), "seed user/message at index 2 message has invalid source"},
		{"source not an object", with(2, tool(`{"kind":"user"}`, `"user"`)), "seed user/message at index 2 message has invalid source"},
		{"content not an array", with(2, tool(`"content":[{"type":"text","text":"List the files"}]`, `"content":"List the files"`)), "seed user/message at index 2 message has invalid content"},
		{"assistant with user source", with(14, tool(`"source":{"kind":"model","provider":"deepseek-official",`, `"source":{"kind":"user","provider":"deepseek-official",`)), "seed assistant/message at index 14 message must have model source"},
		{"assistant without model", with(14, tool(`,"model":"deepseek-v4-flash"`, ``)), "seed assistant/message at index 14 message must have model source"},
		{"tool result with user source", with(11, tool(`{"kind":"tool","callId":"call-1"}`, `{"kind":"user","callId":"call-1"}`)), "seed tool/result at index 11 message must have tool source"},
		{"tool result without callId", with(11, tool(`{"kind":"tool","callId":"call-1"}`, `{"kind":"tool"}`)), "seed tool/result at index 11 message must have tool source"},
		{"tool result with two blocks", with(11, tool(`"isError":false}]`, `"isError":false},{"type":"text","text":"x"}]`)), "seed tool/result at index 11 message must contain one tool-result block"},
		{"tool result with a text block", with(11, tool(`"type":"tool-result"`, `"type":"text"`)), "seed tool/result at index 11 message must contain one tool-result block"},
		{"tool result block content not an array", with(11, tool(`"content":[{"type":"text","text":"README.md\nsrc"}]`, `"content":"README.md"`)), "seed tool/result at index 11 message must contain one tool-result block"},
		{"mismatched call ids", with(11, tool(`"toolCallId":"call-1"`, `"toolCallId":"call-9"`)), "seed tool/result at index 11 message has mismatched tool call ids"},
		{"steering with assistant role", append(good[:3:3], ev(sessionlog.TypeSteeringMessage, 3, `{"turn":1,"message":{"id":"s","role":"assistant","content":[],"source":{"kind":"user"}}}`, `"append"`, "")),
			`seed steering/message at index 3 message must have role "user"`},
		{"unknown type", with(3, func(e *sessionlog.Event) { e.Type = "x-vendor/telemetry" }), `session event at seq 3 has unknown type "x-vendor/telemetry" and is not marked ignorable`},
		{"fold error", with(38, func(e *sessionlog.Event) { e.SourceEventSeqs = nil }), "surface replace: sourceEventSeqs must include every shadowed surface node; missing 37"},
		{"first failure wins", with(5, func(e *sessionlog.Event) { e.Seq = 9 })[:6], "seed event at index 5 has seq 9 (expected 5); seed must be contiguous from 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Load(tt.events, frozenClock)
			if err == nil {
				t.Fatalf("Load succeeded; want %q", tt.want)
			}
			if s != nil {
				t.Error("Load returned a session with its error")
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %q\nwant %q", err.Error(), tt.want)
			}
			var ee *sessionlog.Error
			if !errors.As(err, &ee) {
				t.Errorf("error type %T, want *sessionlog.Error", err)
			}
		})
	}
}

func TestLoadKeepsIgnorableUnknown(t *testing.T) {
	events := readTestLog(t, "example-session.jsonl").Events[:5]
	events = append(events, sessionlog.Event{Type: "x-vendor/telemetry", Seq: 5, Data: json.RawMessage(`{"k":1}`), Ignorable: true})
	s, err := Load(events, frozenClock)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 6 || s.Events()[5].Type != "x-vendor/telemetry" {
		t.Errorf("events = %+v", s.Events())
	}
	// Known types may carry the marker too.
	events[4].Ignorable = true
	if _, err := Load(events, frozenClock); err != nil {
		t.Error(err)
	}
}

func TestLoadAndResume(t *testing.T) {
	events := readTestLog(t, "example-session.jsonl").Events
	s, err := Load(events, frozenClock)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 41 {
		t.Errorf("Load appended: %d events", s.Len())
	}
	r, err := Resume(events, frozenClock)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Events()
	if len(got) != 42 {
		t.Fatalf("Resume: %d events, want 42", len(got))
	}
	want := sessionlog.Event{Type: sessionlog.TypeSessionEndSeed, Seq: 41, Time: frozenClock(), Data: json.RawMessage(`{}`)}
	if diff := cmp.Diff(want, got[41]); diff != "" {
		t.Errorf("end-seed (-want +got):\n%s", diff)
	}
	// Resuming a log that already ends with end-seed appends nothing.
	r2, err := Resume(got, frozenClock)
	if err != nil || r2.Len() != 42 {
		t.Errorf("second Resume: %d events, %v", r2.Len(), err)
	}
	// An empty seed gets the marker too.
	r3, err := Resume(nil, frozenClock)
	if err != nil || r3.Len() != 1 || r3.Events()[0].Type != sessionlog.TypeSessionEndSeed {
		t.Errorf("Resume(nil): %+v, %v", r3.Events(), err)
	}
	// Surfaces agree.
	if !cmp.Equal(s.Surface().Nodes(), r.Surface().Nodes()) {
		t.Error("Resume changed the surface")
	}
}

// TestAppendReplaysExample appends the example log event by event and gets
// the same log back, with fresh seqs and times.
func TestAppendReplaysExample(t *testing.T) {
	events := readTestLog(t, "example-session.jsonl").Events
	s := NewSession(steppingClock())
	var seen []int64
	cancel := s.Subscribe(func(e sessionlog.Event) { seen = append(seen, e.Seq) })
	defer cancel()
	for _, e := range events {
		in := e
		in.Seq, in.Time = 999, 0 // ignored
		got, err := s.Append(in)
		if err != nil {
			t.Fatalf("Append(seq %d): %v", e.Seq, err)
		}
		want := e
		want.Time = 1000 + e.Seq
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Append(seq %d) (-want +got):\n%s", e.Seq, diff)
		}
	}
	if len(seen) != 41 || seen[40] != 40 {
		t.Errorf("listener saw %d events", len(seen))
	}
	msgs := s.DeriveMessages()
	if len(msgs) != 7 || msgs[0].Seq != 33 {
		t.Errorf("DeriveMessages = %v", msgs)
	}
}

func TestAppendRejects(t *testing.T) {
	events := readTestLog(t, "example-session.jsonl").Events
	s, err := Load(events[:31], steppingClock())
	if err != nil {
		t.Fatal(err)
	}
	var published int
	s.Subscribe(func(sessionlog.Event) { published++ })
	tests := []struct {
		name string
		e    sessionlog.Event
		want string
	}{
		{"absent data", sessionlog.Event{Type: sessionlog.TypeStepStart}, "session event at seq 31 has an invalid event envelope"},
		{"empty type", sessionlog.Event{Data: json.RawMessage(`{}`)}, "session event at seq 31 has an invalid event envelope"},
		{"negative zero", sessionlog.Event{Type: sessionlog.TypeStepStart, Data: json.RawMessage(`{"turn":-0}`)}, "session event at seq 31 has an invalid event envelope"},
		{"legacy", sessionlog.Event{Type: sessionlog.TypeLegacyHeaderDelta, Data: json.RawMessage(`{}`)}, "session event at seq 31 uses unsupported legacy request/header-delta format"},
		{"shape", ev(sessionlog.TypeUserMessage, 0, `{"role":"user"}`, `"append"`, ""), "session event at seq 31 lacks an identified message"},
		{"shape tool ids", ev(sessionlog.TypeToolResult, 0, strings.Replace(toolData0, `"toolCallId":"call-2"`, `"toolCallId":"call-3"`, 1), `"append"`, `[21]`),
			"session event at seq 31 message has mismatched tool call ids"},
		{"unknown type", sessionlog.Event{Type: "x/new", Data: json.RawMessage(`{}`)}, `session event at seq 31 has unknown type "x/new" and is not marked ignorable`},
		{"fold", ev(sessionlog.TypeUserMessage, 0, userData, `{"op":"replace","start":22,"end":22}`, `[22]`), "surface replace: start seq 22 not found in surface"},
		{"log-only with op", ev(sessionlog.TypeTurnEnd, 0, `{"turn":3,"reason":{"kind":"completed"}}`, `"append"`, ""), `session event "turn/end" is not surface-eligible and cannot carry surfaceOp`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(s.Surface())
			_, err := s.Append(tt.e)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error:\n got %v\nwant %q", err, tt.want)
			}
			if s.Len() != 31 || published != 0 {
				t.Errorf("rejected event entered the log: len %d, published %d", s.Len(), published)
			}
			if diff := cmp.Diff(before, snapshot(s.Surface())); diff != "" {
				t.Errorf("surface changed:\n%s", diff)
			}
		})
	}
	// The next valid event still gets seq 31.
	got, err := s.Append(events[31])
	if err != nil || got.Seq != 31 || published != 1 {
		t.Errorf("Append after rejections: %+v, %v", got, err)
	}
	// An ignorable unknown event is accepted.
	if _, err := s.Append(sessionlog.Event{Type: "x/new", Data: json.RawMessage(`{}`), Ignorable: true}); err != nil {
		t.Error(err)
	}
}

func TestAppendReentrancy(t *testing.T) {
	s := NewSession(steppingClock())
	var inner error
	var order []string
	s.Subscribe(func(e sessionlog.Event) {
		order = append(order, "a")
		_, inner = s.Append(sessionlog.Event{Type: sessionlog.TypeStepStart, Data: json.RawMessage(`{}`)})
	})
	cancelB := s.Subscribe(func(sessionlog.Event) { order = append(order, "b") })
	if _, err := s.Append(sessionlog.Event{Type: sessionlog.TypeTurnStart, Data: json.RawMessage(`{"turn":1}`)}); err != nil {
		t.Fatal(err)
	}
	if inner == nil || inner.Error() != "session append cannot reenter while another append is being published" {
		t.Errorf("reentrant append error = %v", inner)
	}
	if s.Len() != 1 || !cmp.Equal(order, []string{"a", "b"}) {
		t.Errorf("len %d, order %v", s.Len(), order)
	}
	// After the publish, appends work again; a cancelled listener is not called.
	cancelB()
	cancelB()
	if _, err := s.Append(sessionlog.Event{Type: sessionlog.TypeTurnEnd, Data: json.RawMessage(`{"turn":1,"reason":{"kind":"completed"}}`)}); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(order, []string{"a", "b", "a"}) {
		t.Errorf("order %v", order)
	}
}

func TestCancelDuringPublish(t *testing.T) {
	s := NewSession(steppingClock())
	var calls []string
	var cancelB func()
	s.Subscribe(func(sessionlog.Event) {
		calls = append(calls, "a")
		cancelB()
		s.Subscribe(func(sessionlog.Event) { calls = append(calls, "c") }) // from the next event on
	})
	cancelB = s.Subscribe(func(sessionlog.Event) { calls = append(calls, "b") })
	if _, err := s.Append(sessionlog.Event{Type: sessionlog.TypeTurnStart, Data: json.RawMessage(`{"turn":1}`)}); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(calls, []string{"a"}) {
		t.Errorf("calls = %v", calls)
	}
}

func TestAppendCopiesAndViewsAreStable(t *testing.T) {
	s := NewSession(steppingClock())
	data := []byte(`{"turn":1}`)
	if _, err := s.Append(sessionlog.Event{Type: sessionlog.TypeTurnStart, Data: data}); err != nil {
		t.Fatal(err)
	}
	data[2] = 'X'
	view := s.Events()
	if _, err := s.Append(sessionlog.Event{Type: sessionlog.TypeStepStart, Data: json.RawMessage(`{"turn":1,"step":1}`)}); err != nil {
		t.Fatal(err)
	}
	if string(view[0].Data) != `{"turn":1}` || len(view) != 1 || s.Len() != 2 {
		t.Errorf("view = %+v", view)
	}
}
