package logbuild

// Assistant is an assistant/message payload.
type Assistant struct {
	Turn, Step  int64
	Message     Object // see ModelMessage
	Usage       any    // written when non-nil
	Interrupted bool   // written when set
}

// Data is the payload of assistant/message: turn, step, message, usage,
// interrupted.
func (a Assistant) Data() Object {
	o := Object{{"turn", a.Turn}, {"step", a.Step}, {"message", a.Message}}
	if a.Usage != nil {
		o = append(o, Field{"usage", a.Usage})
	}
	if a.Interrupted {
		o = append(o, Field{"interrupted", true})
	}
	return o
}

// Steering is the payload of steering/message.
func Steering(turn int64, message Object) Object {
	return Object{{"turn", turn}, {"message", message}}
}

// Chunk is the payload of assistant/chunk: one stream chunk c of a step.
func Chunk(turn, step int64, c Object) Object {
	return Object{{"turn", turn}, {"step", step}, {"chunk", c}}
}

// Stream chunks.

// BlockStart opens the content block at index.
func BlockStart(index int, blockType string) Object {
	return Object{{"type", "block-start"}, {"index", index}, {"blockType", blockType}}
}

// Delta adds text to the text or reasoning block at index.
func Delta(blockType string, index int, text string) Object {
	return Object{{"type", blockType + "-delta"}, {"index", index}, {"text", text}}
}

// ToolCallDelta adds argument text to the tool call at index; name is
// written when non-empty (the first delta of a call).
func ToolCallDelta(index int, id, name, argumentsDelta string) Object {
	o := Object{{"type", "tool-call-delta"}, {"index", index}, {"id", id}}
	if name != "" {
		o = append(o, Field{"name", name})
	}
	return append(o, Field{"argumentsDelta", argumentsDelta})
}

// BlockEnd closes the block at index with its settled form.
func BlockEnd(index int, block Object) Object {
	return Object{{"type", "block-end"}, {"index", index}, {"block", block}}
}

// UsageChunk reports the stream's usage.
func UsageChunk(usage any) Object { return Object{{"type", "usage"}, {"usage", usage}} }

// Finish ends the stream with reason {kind}.
func Finish(kind string) Object { return Object{{"type", "finish"}, {"reason", KindSource(kind)}} }

// ToolCall is the payload of tool/call.
func ToolCall(turn, step int64, callID, name, arguments string) Object {
	return Object{{"turn", turn}, {"step", step}, {"callId", callID}, {"name", name}, {"arguments", arguments}}
}

// ToolError is a tool result's {name:"ToolError", code} error.
func ToolError(code string) Object { return Object{{"name", "ToolError"}, {"code", code}} }

// ToolResult is a tool/result payload.
type ToolResult struct {
	Turn, Step int64
	ID         string // the message id
	CallID     string
	Content    []Object
	IsError    bool
	// AlwaysIsError writes isError also when false (see ToolResultBlock).
	AlwaysIsError bool
	Error         Object // written when non-nil, see ToolError
	Meta          Object // written when non-empty (exitCode, signal, …)
}

// Data is the payload of tool/result: turn, step, message, error, meta.
func (r ToolResult) Data() Object {
	block := ToolResultBlock(r.CallID, r.Content, r.IsError, r.AlwaysIsError)
	o := Object{{"turn", r.Turn}, {"step", r.Step},
		{"message", UserMessage(r.ID, []Object{block}, ToolSource(r.CallID))}}
	if r.Error != nil {
		o = append(o, Field{"error", r.Error})
	}
	if len(r.Meta) > 0 {
		o = append(o, Field{"meta", r.Meta})
	}
	return o
}
