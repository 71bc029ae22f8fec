package surface

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/sessionlog"
)

func TestDeriveMessagesExample(t *testing.T) {
	events := readTestLog(t, "example-session.jsonl").Events
	res, err := Fold(events, 0)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := DeriveMessages(events, res.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Seq  int64
		ID   string
		Role string
		Text string
	}
	var got []row
	for _, m := range msgs {
		var msg sessionlog.Message
		if err := json.Unmarshal(m.Message, &msg); err != nil {
			t.Fatal(err)
		}
		got = append(got, row{m.Seq, msg.ID, msg.Role, sessionlog.ContentText(msg.Content)[:min(20, len(sessionlog.ContentText(msg.Content)))]})
	}
	want := []row{
		{33, "m-ckpt", "user", "This is an automatic"},
		{19, "m-u2", "user", "Show README.md"},
		{20, "m-a3", "assistant", `bash({"command":"cat`},
		{30, "m-t2", "user", "# demo\n\n0001 The dem"},
		{25, "m-a4", "assistant", "The README describes"},
		{36, "m-u3", "user", "Summarize the README"},
		{38, "m-a5r", "assistant", "A small demo project"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DeriveMessages (-want +got):\n%s", diff)
	}
	// The checkpoint is data verbatim.
	if string(msgs[0].Message) != string(events[33].Data) {
		t.Error("checkpoint message is not the event's data verbatim")
	}
	// The incremental surface derives the same list.
	s, err := Load(events, frozenClock)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(msgs, s.DeriveMessages()); diff != "" {
		t.Errorf("Surface.DeriveMessages differs:\n%s", diff)
	}
}

func TestDeriveEventMessage(t *testing.T) {
	tests := []struct {
		name string
		e    sessionlog.Event
		want string // "" for no message
	}{
		{"user is data verbatim", ev(sessionlog.TypeUserMessage, 0, `{"id":"u","x":[1]}`, `"append"`, ""), `{"id":"u","x":[1]}`},
		{"steering is data.message", ev(sessionlog.TypeSteeringMessage, 0, `{"turn":1,"message":{"id":"s"}}`, `"append"`, ""), `{"id":"s"}`},
		{"tool result is data.message", ev(sessionlog.TypeToolResult, 0, `{"message":{"id":"t","content":[]}}`, `"append"`, ""), `{"id":"t","content":[]}`},
		{"assistant is data.message", ev(sessionlog.TypeAssistantMessage, 0, `{"message":{"id":"a","content":[{"type":"text","text":""}]}}`, `"append"`, ""), `{"id":"a","content":[{"type":"text","text":""}]}`},
		{"assistant with empty content", ev(sessionlog.TypeAssistantMessage, 0, `{"message":{"id":"a","content":[]},"usage":{"inputTokens":1,"outputTokens":0}}`, `"append"`, ""), ""},
		{"log-only", ev(sessionlog.TypeToolCall, 0, `{"callId":"c"}`, "", ""), ""},
		{"unknown", ev("x/y", 0, `{"message":{"id":"m"}}`, "", ""), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := DeriveEventMessage(&tt.e)
			if ok != (tt.want != "") || string(got) != tt.want {
				t.Errorf("DeriveEventMessage = %s, %v; want %s", got, ok, tt.want)
			}
		})
	}
}

func TestDeriveMessagesSkipsEmptyAssistant(t *testing.T) {
	s := NewSession(steppingClock())
	for _, e := range []sessionlog.Event{
		ev(sessionlog.TypeUserMessage, 0, userData, `"append"`, ""),
		ev(sessionlog.TypeAssistantMessage, 0, `{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":[],"source":{"kind":"model","provider":"p","model":"m"}}}`, `"append"`, "[]"),
	} {
		if _, err := s.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	msgs := s.DeriveMessages()
	if len(msgs) != 1 || msgs[0].Seq != 0 || s.Surface().Len() != 2 {
		t.Errorf("DeriveMessages = %v over %v", msgs, s.Surface().Nodes())
	}
}

func TestDeriveMessagesNodeOutsideLog(t *testing.T) {
	events := readTestLog(t, "example-session.jsonl").Events
	if _, err := DeriveMessages(events[10:], []int64{2}); err == nil {
		t.Error("node before the window: no error")
	}
	if _, err := DeriveMessages(nil, []int64{2}); err == nil {
		t.Error("empty log: no error")
	}
	if msgs, err := DeriveMessages(nil, nil); err != nil || len(msgs) != 0 {
		t.Errorf("no nodes: %v, %v", msgs, err)
	}
}
