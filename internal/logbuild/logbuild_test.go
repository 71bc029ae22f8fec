package logbuild

import (
	"testing"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

func TestShapes(t *testing.T) {
	code := "E1"
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"turn start", TurnStart(1, nil), `{"turn":1}`},
		{"older trigger", TurnStart(2, Trigger("message", UserSource())),
			`{"turn":2,"trigger":{"kind":"message","source":{"kind":"user"}}}`},
		{"retry trigger", Trigger("retry", nil), `{"kind":"retry"}`},
		{"step", Step(1, 2), `{"turn":1,"step":2}`},
		{"error end", TurnEnd(1, EndReason{Kind: "error", Step: new(int64(2)),
			Failure: &Failure{Message: "m", Code: &code, Status: 503}}.Object()),
			`{"turn":1,"reason":{"kind":"error","step":2,"failure":{"message":"m","code":"E1","status":503}}}`},
		{"plain end", EndReason{Kind: "error", Plain: &Failure{Message: "m"}}.Object(), `{"kind":"error","message":"m"}`},
		{"sorted end", SortedObject(EndReason{Kind: "aborted", Cause: new("user"), Error: &Failure{Message: "m", Code: &code}}.Object()),
			`{"error":{"code":"E1","message":"m"},"kind":"aborted","reason":{"kind":"user"}}`},
		{"normal retry", Retry{Turn: 1, Step: 1, Mode: RetryNormal, PolicyKey: "default", N: 1, Max: 3, DelayMs: 500, Failure: "x"}.Data(),
			`{"turn":1,"step":1,"provider":"deepseek-official","mode":"normal","policyKey":"default","retry":1,"maxRetries":3,"delayMs":500,"failure":{"message":"x"}}`},
		{"always retry", Retry{Mode: RetryAlways, PolicyKey: "p", N: 2, Max: 9, DelayMs: 1}.Data(),
			`{"turn":0,"step":0,"provider":"deepseek-official","mode":"always","policyKey":"p","retry":2,"delayMs":1,"failure":{"message":""}}`},
		{"empty assistant", Assistant{Turn: 1, Step: 1, Message: ModelMessage("a-1", nil, DefaultModel), Interrupted: true}.Data(),
			`{"turn":1,"step":1,"message":{"id":"a-1","role":"assistant","content":[],"source":{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"}},"interrupted":true}`},
		{"tool result", ToolResult{Turn: 1, Step: 2, ID: "r", CallID: "c", Content: []jsonobj.Object{TextBlock("t")},
			Error: ToolError("X"), Meta: FromMap(map[string]any{"z": 1, "a": 2})}.Data(),
			`{"turn":1,"step":2,"message":{"id":"r","role":"user","content":[{"type":"tool-result","toolCallId":"c","content":[{"type":"text","text":"t"}]}],"source":{"kind":"tool","callId":"c"}},"error":{"name":"ToolError","code":"X"},"meta":{"a":2,"z":1}}`},
		{"older tool result block", ToolResultBlock("c", []jsonobj.Object{}, false, true),
			`{"type":"tool-result","toolCallId":"c","content":[],"isError":false}`},
		{"tool call delta", Chunk(1, 1, ToolCallDelta(0, "c", "", "{")),
			`{"turn":1,"step":1,"chunk":{"type":"tool-call-delta","index":0,"id":"c","argumentsDelta":"{"}}`},
		{"finish", Finish("stop"), `{"type":"finish","reason":{"kind":"stop"}}`},
		{"session ref", SessionRef{SessionID: "s", CapturedThroughSeq: 1, InputIndex: 2}.Object(),
			`{"sessionId":"s","capturedThroughSeq":1,"compacted":false,"originalMessages":0,"retainedMessages":0,"omittedMessages":0,"omittedBytes":0,"inputIndex":2}`},
		{"with replaces", PluginSource("a").With("form", "f").With("plugin", "b"), `{"kind":"plugin","plugin":"b","form":"f"}`},
		{"ids", []string{SeqID("user", 3), SeqCallID(4, 1), SeqCompactionID(2), GenMessageID(5, 0x12345), GenCallID(6, 0xabcdef12), GenCommandID(1)},
			`["user-3","call-4-1","cmp-2","msg-5-2345","call_6_cdef12","cmd-1"]`},
	} {
		got, err := jsonobj.Marshal(tc.v)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// With copies: the receiver is unchanged.
func TestWithCopies(t *testing.T) {
	a := PluginSource("a")
	_ = a.With("plugin", "b")
	if a[1].Value != "a" {
		t.Fatalf("With changed its receiver: %v", a)
	}
}
