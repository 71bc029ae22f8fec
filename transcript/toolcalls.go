package transcript

import (
	"encoding/json"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// ToolCallIDs is the set of tool-call ids that the transcript may
// show a tool/call card for (terminal.md §1.3): the id of every tool-call block
// of every append-origin assistant/message in events. It reads the log, not
// surface membership, so a step shadowed by compaction keeps its cards.
//
// Project and the Projector apply this set as the log grows: a tool/call
// renders when an append-origin assistant/message before it advertised its
// id. That is the same set for every log whose assistant/message precedes its
// tool/call (every log the agent loop writes), and it is what lets the live
// path, which cannot see ahead, agree with replay on every prefix.
func ToolCallIDs(events []sessionlog.Event) map[string]struct{} {
	ids := map[string]struct{}{}
	for i := range events {
		e := &events[i]
		if e.Type != sessionlog.TypeAssistantMessage || !sessionlog.IsAppendSurfaceEvent(e) {
			continue
		}
		var m struct {
			Message json.RawMessage `json:"message"`
		}
		_ = json.Unmarshal(e.Data, &m)
		trAdvertise(ids, trToolCallIDs(trContent(m.Message)))
	}
	return ids
}

// trToolCallIDs lists the ids of content's tool-call blocks.
func trToolCallIDs(content []sessionlog.ContentBlock) []string {
	var ids []string
	for _, b := range content {
		if b.Type == "tool-call" {
			ids = append(ids, b.ID)
		}
	}
	return ids
}

func trAdvertise(set map[string]struct{}, ids []string) {
	for _, id := range ids {
		set[id] = struct{}{}
	}
}

func trAdvertised(set map[string]struct{}, id string) bool {
	_, ok := set[id]
	return ok
}

// trResult is a tool/result decoded for its card.
type trResult struct {
	CallID  string
	IsError bool
	Result  []sessionlog.ContentBlock
	Meta    json.RawMessage
	Error   json.RawMessage
}

// trDecodeResult decodes a tool/result's data: the call id from
// message.source.callId, the result from message.content[0]. Anything
// malformed reads as empty.
func trDecodeResult(data json.RawMessage) trResult {
	if r, ok := fastjson.ScanToolResult(data); ok {
		return trResult(r)
	}
	return trResultSlow(data)
}

// trResultJSON is the shape of a well-formed tool/result payload, as far
// as the transcript reads it.
type trResultJSON struct {
	Message struct {
		Content []struct {
			Content []sessionlog.ContentBlock `json:"content"`
			IsError bool                      `json:"isError"`
		} `json:"content"`
		Source json.RawMessage `json:"source"`
	} `json:"message"`
	Error json.RawMessage `json:"error"`
	Meta  json.RawMessage `json:"meta"`
}

// trResultSlow is fastjson.ScanToolResult by json.Unmarshal, keeping what is well formed
// of a malformed payload.
func trResultSlow(data json.RawMessage) trResult {
	var fast trResultJSON
	if json.Unmarshal(data, &fast) == nil {
		r := trResult{CallID: sessionlog.DecodeSource(fast.Message.Source).CallID, Meta: fast.Meta, Error: fast.Error}
		if c := fast.Message.Content; len(c) > 0 {
			r.Result, r.IsError = c[0].Content, c[0].IsError
		}
		return r
	}
	var d struct {
		Message json.RawMessage `json:"message"`
		Error   json.RawMessage `json:"error"`
		Meta    json.RawMessage `json:"meta"`
	}
	_ = json.Unmarshal(data, &d)
	var m struct {
		Content json.RawMessage `json:"content"`
		Source  json.RawMessage `json:"source"`
	}
	_ = json.Unmarshal(d.Message, &m)
	r := trResult{CallID: sessionlog.DecodeSource(m.Source).CallID, Meta: d.Meta, Error: d.Error}
	var content []json.RawMessage
	if json.Unmarshal(m.Content, &content) == nil && len(content) > 0 {
		var b struct {
			Content []sessionlog.ContentBlock `json:"content"`
			IsError bool                      `json:"isError"`
		}
		if json.Unmarshal(content[0], &b) == nil {
			r.Result, r.IsError = b.Content, b.IsError
		}
	}
	return r
}

// setOn gives card its result.
func (r *trResult) setOn(card *ToolCard) {
	card.HasResult = true
	card.IsError = r.IsError
	card.Result = r.Result
	card.Meta = r.Meta
	card.Error = r.Error
}
