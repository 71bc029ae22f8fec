package surface

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
)

// checkMessageShapeSplit is CheckMessageShape as it read a message before
// readMessage: the payload split into its members, then the message, its
// source and a tool result's block, each split again. It is the oracle
// of the one walk.
func checkMessageShapeSplit(e *sessionlog.Event, subject func() string) error {
	if !isMessageType(e.Type) {
		return nil
	}
	fail := func(format string, args ...any) error {
		return eventErrorf(e.Seq, "%s %s", subject(), fmt.Sprintf(format, args...))
	}
	split := func(raw []byte) (map[string][]byte, bool) {
		fields, ok := fastjson.SplitObject(raw)
		m := map[string][]byte{}
		for _, f := range fields { // a repeated key's last value
			m[f.Key] = f.Val
		}
		return m, ok
	}
	isArray := func(raw []byte) bool {
		i := fastjson.SkipSpace(raw, 0)
		return i < len(raw) && raw[i] == '['
	}
	msgRaw := []byte(e.Data)
	if e.Type != sessionlog.TypeUserMessage {
		data, ok := split(e.Data)
		if !ok {
			return fail("lacks an identified message")
		}
		msgRaw = data["message"]
	}
	msg, ok := split(msgRaw)
	if !ok {
		return fail("lacks an identified message")
	}
	if id, ok := jsonString(msg["id"]); !ok || id == "" {
		return fail("lacks an identified message")
	}
	wantRole := "user"
	if e.Type == sessionlog.TypeAssistantMessage {
		wantRole = "assistant"
	}
	if role, ok := jsonString(msg["role"]); !ok || role != wantRole {
		return fail("message must have role %q", wantRole)
	}
	source, ok := split(msg["source"])
	if !ok {
		return fail("message has invalid source")
	}
	kind, ok := jsonString(source["kind"])
	if !ok || kind == "" {
		return fail("message has invalid source")
	}
	if !isArray(msg["content"]) {
		return fail("message has invalid content")
	}
	switch e.Type {
	case sessionlog.TypeAssistantMessage:
		provider, ok1 := jsonString(source["provider"])
		model, ok2 := jsonString(source["model"])
		if kind != "model" || !ok1 || !ok2 || provider == "" || model == "" {
			return fail("message must have model source")
		}
	case sessionlog.TypeToolResult:
		callID, ok := jsonString(source["callId"])
		if kind != "tool" || !ok || callID == "" {
			return fail("message must have tool source")
		}
		first, ok := fastjson.SoleElement(msg["content"])
		if !ok {
			return fail("message must contain one tool-result block")
		}
		block, ok := split(first)
		if !ok {
			return fail("message must contain one tool-result block")
		}
		if typ, _ := jsonString(block["type"]); typ != "tool-result" || !isArray(block["content"]) {
			return fail("message must contain one tool-result block")
		}
		if id, ok := jsonString(block["toolCallId"]); !ok || id != callID {
			return fail("message has mismatched tool call ids")
		}
	}
	return nil
}

// messageTypes are the types whose payloads CheckMessageShape reads.
var messageTypes = []string{sessionlog.TypeUserMessage, sessionlog.TypeSteeringMessage, sessionlog.TypeAssistantMessage, sessionlog.TypeToolResult}

// checkReadMessage holds the one walk of payload to the split oracle and
// to losslessJSON, as each message type.
func checkReadMessage(t *testing.T, payload []byte) {
	t.Helper()
	valid := json.Valid(payload)
	for _, typ := range messageTypes {
		m, lossless, ok := readMessage(payload, typ == sessionlog.TypeUserMessage, typ == sessionlog.TypeToolResult)
		if !valid {
			continue // it must only not panic nor read past the payload
		}
		if ok && lossless != losslessJSON(payload) {
			t.Fatalf("%s %s: the walk says lossless %v, losslessJSON %v", typ, payload, lossless, !lossless)
		}
		if !ok && m.object {
			t.Fatalf("%s %s: a walk that failed found a message", typ, payload)
		}
		e := &sessionlog.Event{Type: typ, Seq: 3, Data: payload}
		subject := func() string { return "seed at index 3" }
		got, want := fmt.Sprint(CheckMessageShape(e, subject)), fmt.Sprint(checkMessageShapeSplit(e, subject))
		if got != want {
			t.Fatalf("%s %s:\n the walk: %s\nthe split: %s", typ, payload, got, want)
		}
		if got, want := fmt.Sprint(checkMessage(e, &m, subject)), want; got != want {
			t.Fatalf("%s %s: on the walk's facts: %s, the split: %s", typ, payload, got, want)
		}
	}
}

// messageSeeds are message payloads, well and badly shaped.
var messageSeeds = []string{
	`{"id":"m1","role":"user","content":[{"type":"text","text":"hi -0"}],"source":{"kind":"user"}}`,
	`{"turn":1,"step":1,"message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"ok"}],"source":{"kind":"model","provider":"p","model":"m"}}}`,
	`{"message":{"id":"m3","role":"user","content":[{"type":"tool-result","toolCallId":"c1","content":[{"type":"text","text":"out"}],"isError":false}],"source":{"kind":"tool","callId":"c1"}},"turn":1,"step":1}`,
	`{"message":{"id":"m3","role":"user","content":[{"type":"tool-result","toolCallId":"c1","content":[]},{"type":"tool-result"}],"source":{"kind":"tool","callId":"c1"}}}`,
	`{"message":{"id":"m3","role":"user","content":[1],"source":{"kind":"tool","callId":"c1"}}}`,
	`{"message":{"id":"m3","role":"user","content":[{"type":"tool-result","toolCallId":"c2","content":[-0]}],"source":{"kind":"tool","callId":"c1"}}}`,
	` { "message" : { "id" : "m4" , "role" : "assistant" , "content" : [ ] , "source" : { "kind" : "model" , "provider" : "p" , "model" : "m" } } , "n" : 1e400 } `,
	`{"message":{"\u0069d":"m5","role":"user","content":[],"source":{"kind":"user"},"source":1}}`,
	`{"message":{"id":"m6","id":"","role":"user","content":{},"content":[],"source":{"kind":""}},"message":{"id":"m7","role":"user","content":[],"source":{"kind":"user"}}}`,
	`{"message":{"id":"m9","role":"user","content":[{"type":"tool-result","toolCallId":"c1","content":[]}],"content":[{"toolCallId":"c1","content":[]}],"source":{"kind":"tool","callId":"c1"}}}`,
	`{"message":[]}`, `{"message":null}`, `{}`, `[]`, `1`, `"x"`, `{"message":{}}`, `[-0]`, `{"a":[{"b":[-1e999,true,null]}]}`,
	`{"message":{"id":"m8","role":"user","content":[ {"type":"tool-result","toolCallId":"c\u0031","content":[]} ],"source":{"kind":"tool","callId":"c1"}}}`,
}

// TestReadMessage holds the one walk to the split oracle and to
// losslessJSON on the seeds, random edits of them, and the corpus's
// message payloads.
func TestReadMessage(t *testing.T) {
	for _, s := range messageSeeds {
		checkReadMessage(t, []byte(s))
	}
	r := rand.New(rand.NewPCG(11, 12))
	keys := []string{`"message"`, `"id"`, `"role"`, `"source"`, `"kind"`, `"content"`, `"type"`, `"toolCallId"`, `"callId"`, `"model"`}
	for range 30_000 {
		p := messageSeeds[r.IntN(len(messageSeeds))]
		for range 1 + r.IntN(3) {
			p = synthlog.EditPayload(r, p, keys)
		}
		checkReadMessage(t, []byte(p))
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "upstream-logs", "*.jsonl"))
	n := 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			typ, _ := fastjson.Type([]byte(line))
			data, ok := fastjson.Find([]byte(line), "data")
			if ok && isMessageType(typ) {
				checkReadMessage(t, data)
				n++
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d corpus payloads", n)
	}
}

// FuzzReadMessage: on any payload the walk neither panics nor reads past
// it, and on valid JSON it agrees with the split oracle and losslessJSON.
func FuzzReadMessage(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkReadMessage)
}
