package logbuild

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is a {id, role, content, source} message. A nil content is
// written as an empty array.
func Message(id, role string, content []jsonobj.Object, source any) jsonobj.Object {
	if content == nil {
		content = []jsonobj.Object{}
	}
	return jsonobj.Object{{"id", id}, {"role", role}, {"content", content}, {"source", source}}
}

// UserMessage is a user-role message: a prompt, context, a tool result or
// a replacement, told apart by source.
func UserMessage(id string, content []jsonobj.Object, source any) jsonobj.Object {
	return Message(id, RoleUser, content, source)
}

// ModelMessage is an assistant message from model (of DefaultProvider).
func ModelMessage(id string, content []jsonobj.Object, model string) jsonobj.Object {
	return Message(id, RoleAssistant, content, ModelSource(model))
}

// Sources.

// KindSource is a {kind} source; UserSource is {kind:"user"}, a prompt.
func KindSource(kind string) jsonobj.Object { return jsonobj.Object{{"kind", kind}} }

// UserSource is the source of a person's prompt.
func UserSource() jsonobj.Object { return KindSource("user") }

// PluginSource is {kind:"plugin", plugin}: context or a replacement a
// plugin wrote.
func PluginSource(plugin any) jsonobj.Object {
	return jsonobj.Object{{"kind", "plugin"}, {"plugin", plugin}}
}

// ModelSource is {kind:"model", provider, model}.
func ModelSource(model string) jsonobj.Object {
	return jsonobj.Object{{"kind", "model"}, {"provider", DefaultProvider}, {"model", model}}
}

// ToolSource is {kind:"tool", callId}: a tool result's source.
func ToolSource(callID string) jsonobj.Object {
	return jsonobj.Object{{"kind", "tool"}, {"callId", callID}}
}

// SessionRef is one reference of a session-reference source.
type SessionRef struct {
	SessionID string
	Label     any // usually a string; nil writes no label (a malformed reference)

	CapturedThroughSeq int
	Compacted          bool
	OriginalMessages   int
	RetainedMessages   int
	OmittedMessages    int
	OmittedBytes       int
	InputIndex         int
}

// Object is the reference's JSON object.
func (r SessionRef) Object() jsonobj.Object {
	o := jsonobj.Object{{"sessionId", r.SessionID}}
	if r.Label != nil {
		o = append(o, jsonobj.Field{"label", r.Label})
	}
	return append(o, jsonobj.Field{"capturedThroughSeq", r.CapturedThroughSeq}, jsonobj.Field{"compacted", r.Compacted},
		jsonobj.Field{"originalMessages", r.OriginalMessages}, jsonobj.Field{"retainedMessages", r.RetainedMessages},
		jsonobj.Field{"omittedMessages", r.OmittedMessages}, jsonobj.Field{"omittedBytes", r.OmittedBytes},
		jsonobj.Field{"inputIndex", r.InputIndex})
}

// SessionRefSource is {kind:"session-reference", version:1, references}.
func SessionRefSource(refs []jsonobj.Object) jsonobj.Object {
	return jsonobj.Object{{"kind", "session-reference"}, {"version", 1}, {"references", refs}}
}

// Blocks.

// ReasoningBlock is a {"type":"reasoning","text":…} content block.
func ReasoningBlock(text string) jsonobj.Object {
	return jsonobj.Object{{"type", "reasoning"}, {"text", text}}
}

// ToolCallBlock is a {"type":"tool-call",id,name,arguments} content block;
// arguments is the raw JSON text the model wrote.
func ToolCallBlock(id, name, arguments string) jsonobj.Object {
	return jsonobj.Object{{"type", "tool-call"}, {"id", id}, {"name", name}, {"arguments", arguments}}
}

// ImageBlock is a {"type":"image",mediaType,data} content block.
func ImageBlock(mediaType, data string) jsonobj.Object {
	return jsonobj.Object{{"type", "image"}, {"mediaType", mediaType}, {"data", data}}
}

// ToolResultBlock is a {"type":"tool-result",toolCallId,content,isError}
// block. isError is written when true or when always is set (the older
// writer, and the harness, always write it; the newer writer omits a false
// one).
func ToolResultBlock(callID string, content []jsonobj.Object, isError, always bool) jsonobj.Object {
	o := jsonobj.Object{{"type", "tool-result"}, {"toolCallId", callID}, {"content", content}}
	if isError || always {
		o = append(o, jsonobj.Field{"isError", isError})
	}
	return o
}
