package logbuild

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

// Assistant is an assistant/message payload.
type Assistant struct {
	Turn, Step  int64
	Message     jsonobj.Object // see ModelMessage
	Usage       any            // written when non-nil
	Interrupted bool           // written when set
}

// Data is the payload of assistant/message: turn, step, message, usage,
// interrupted.
func (a Assistant) Data() jsonobj.Object {
	o := jsonobj.Object{{"turn", a.Turn}, {"step", a.Step}, {"message", a.Message}}
	if a.Usage != nil {
		o = append(o, jsonobj.Field{"usage", a.Usage})
	}
	if a.Interrupted {
		o = append(o, jsonobj.Field{"interrupted", true})
	}
	return o
}

// Steering is the payload of steering/message.
func Steering(turn int64, message jsonobj.Object) jsonobj.Object {
	return jsonobj.Object{{"turn", turn}, {"message", message}}
}

// Chunk is the payload of assistant/chunk: one stream chunk c of a step.
func Chunk(turn, step int64, c jsonobj.Object) jsonobj.Object {
	return jsonobj.Object{{"turn", turn}, {"step", step}, {"chunk", c}}
}

// Stream chunks.

// BlockStart opens the content block at index.
func BlockStart(index int, blockType string) jsonobj.Object {
	return jsonobj.Object{{"type", "block-start"}, {"index", index}, {"blockType", blockType}}
}

// Delta adds text to the text or reasoning block at index.
func Delta(blockType string, index int, text string) jsonobj.Object {
	return jsonobj.Object{{"type", blockType + "-delta"}, {"index", index}, {"text", text}}
}

// ToolCallDelta adds argument text to the tool call at index; name is
// written when non-empty (the first delta of a call).
func ToolCallDelta(index int, id, name, argumentsDelta string) jsonobj.Object {
	o := jsonobj.Object{{"type", "tool-call-delta"}, {"index", index}, {"id", id}}
	if name != "" {
		o = append(o, jsonobj.Field{"name", name})
	}
	return append(o, jsonobj.Field{"argumentsDelta", argumentsDelta})
}

// BlockEnd closes the block at index with its settled form.
func BlockEnd(index int, block jsonobj.Object) jsonobj.Object {
	return jsonobj.Object{{"type", "block-end"}, {"index", index}, {"block", block}}
}

// UsageChunk reports the stream's usage.
func UsageChunk(usage any) jsonobj.Object { return jsonobj.Object{{"type", "usage"}, {"usage", usage}} }

// Finish ends the stream with reason {kind}.
func Finish(kind string) jsonobj.Object {
	return jsonobj.Object{{"type", "finish"}, {"reason", KindSource(kind)}}
}

// ToolCall is the payload of tool/call.
func ToolCall(turn, step int64, callID, name, arguments string) jsonobj.Object {
	return jsonobj.Object{{"turn", turn}, {"step", step}, {"callId", callID}, {"name", name}, {"arguments", arguments}}
}

// ToolError is a tool result's {name:"ToolError", code} error.
func ToolError(code string) jsonobj.Object {
	return jsonobj.Object{{"name", "ToolError"}, {"code", code}}
}

// ToolResult is a tool/result payload.
type ToolResult struct {
	Turn, Step int64
	ID         string // the message id
	CallID     string
	Content    []jsonobj.Object
	IsError    bool
	// AlwaysIsError writes isError also when false (see ToolResultBlock).
	AlwaysIsError bool
	Error         jsonobj.Object // written when non-nil, see ToolError
	Meta          jsonobj.Object // written when non-empty (exitCode, signal, …)
}

// Data is the payload of tool/result: turn, step, message, error, meta.
func (r ToolResult) Data() jsonobj.Object {
	block := ToolResultBlock(r.CallID, r.Content, r.IsError, r.AlwaysIsError)
	o := jsonobj.Object{{"turn", r.Turn}, {"step", r.Step},
		{"message", UserMessage(r.ID, []jsonobj.Object{block}, ToolSource(r.CallID))}}
	if r.Error != nil {
		o = append(o, jsonobj.Field{"error", r.Error})
	}
	if len(r.Meta) > 0 {
		o = append(o, jsonobj.Field{"meta", r.Meta})
	}
	return o
}
