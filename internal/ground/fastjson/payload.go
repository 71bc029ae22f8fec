package fastjson

import (
	"bytes"
	"encoding/json"

	"github.com/dshtest/dshtest/sessionlog"
)

// The scanners below read the usual shapes of the payloads a projection
// decodes most after chunks: tool results, assistant messages, user
// messages, the turn and step of step events, and a turn/end's reason. Each says ok only where json.Unmarshal into the struct its
// caller used before would succeed and give the same values; anything
// else (null, whitespace, a repeated key, a key that matches a field only
// when case is ignored, a value of another type, malformed JSON) is left
// to json.Unmarshal. TestFastDecoders and FuzzFastDecoders hold them to
// that.

// Field names json.Unmarshal matches keys against, per struct.
var (
	resultFields        = []string{"message", "error", "meta"}
	resultMessageFields = []string{"content", "source"}
	resultContentFields = []string{"content", "isError"}
	assistantFields     = []string{"turn", "step", "message"}
	turnStepFields      = []string{"turn", "step"}
	turnEndFields       = []string{"reason"}
	turnEndReasonFields = []string{"kind", "error", "failure", "message", "reason"}
	assistantMsgFields  = []string{"content"}
	userFields          = []string{"content", "source"}
	toolCallFields      = []string{"turn", "step", "callId", "name", "arguments"}
	messageFields       = []string{"id", "role", "content", "source"}
	assistantDataFields = []string{"turn", "step", "message", "usage", "interrupted"}
	sourceFields        = []string{"source"}
)

// raw reads any value but null as a json.RawMessage (a copy, as
// json.Unmarshal makes it).
func (s *chunkScanner) raw(v *json.RawMessage) bool {
	if s.peek('n') {
		return false
	}
	start := s.i
	if !s.skip() {
		return false
	}
	*v = bytes.Clone(s.b[start:s.i])
	return true
}

// resultContent is one element of a tool/result message's content.
type resultContent struct {
	Content []sessionlog.ContentBlock
	IsError bool
}

// ToolResult is a tool/result as a tool card reads it: the call id from
// message.source.callId, the first content element's result and error flag,
// and the raw error and meta.
type ToolResult struct {
	CallID  string
	IsError bool
	Result  []sessionlog.ContentBlock
	Meta    json.RawMessage
	Error   json.RawMessage
}

// ScanToolResult reads a tool/result payload in one pass:
// message.content[].{content,isError}, message.source, error, meta.
func ScanToolResult(b []byte) (r ToolResult, ok bool) {
	s := &chunkScanner{b: b}
	var top, msg onceSet
	var source json.RawMessage
	var first *resultContent
	ok = s.object(func(key []byte) bool {
		switch string(key) {
		case "message":
			return top.first(1) && s.object(func(key []byte) bool {
				switch string(key) {
				case "content":
					return msg.first(1) && s.array(func() bool {
						var c resultContent
						var seen onceSet
						if !s.peek('{') || !s.object(func(key []byte) bool {
							switch string(key) {
							case "content":
								return seen.first(1) && s.contentBlocks(&c.Content)
							case "isError":
								return seen.first(2) && s.boolean(&c.IsError)
							}
							return s.skipUnknown(key, resultContentFields)
						}) {
							return false
						}
						if first == nil {
							first = &c
						}
						return true
					})
				case "source":
					return msg.first(2) && s.raw(&source)
				}
				return s.skipUnknown(key, resultMessageFields)
			})
		case "error":
			return top.first(2) && s.raw(&r.Error)
		case "meta":
			return top.first(4) && s.raw(&r.Meta)
		}
		return s.skipUnknown(key, resultFields)
	})
	if !ok || s.i != len(b) {
		return ToolResult{}, false
	}
	r.CallID = DecodeSource(source).CallID
	if first != nil {
		r.Result, r.IsError = first.Content, first.IsError
	}
	return r, true
}

// ScanAssistant reads an assistant/message payload as {turn, step,
// message: {content}}.
func ScanAssistant(b []byte) (turn, step int64, content []sessionlog.ContentBlock, ok bool) {
	s := &chunkScanner{b: b}
	var top, msg onceSet
	ok = s.object(func(k []byte) bool {
		switch string(k) {
		case "turn":
			return top.first(1) && s.integer(&turn)
		case "step":
			return top.first(2) && s.integer(&step)
		case "message":
			return top.first(4) && s.object(func(k []byte) bool {
				if string(k) == "content" {
					return msg.first(1) && s.contentBlocks(&content)
				}
				return s.skipUnknown(k, assistantMsgFields)
			})
		}
		return s.skipUnknown(k, assistantFields)
	})
	if !ok || s.i != len(b) {
		return 0, 0, nil, false
	}
	return turn, step, content, true
}

// ScanToolCall reads a tool/call payload as sessionlog.ToolCallData.
func ScanToolCall(b []byte) (c sessionlog.ToolCallData, ok bool) {
	s := &chunkScanner{b: b}
	var top onceSet
	ok = s.object(func(k []byte) bool {
		switch string(k) {
		case "turn":
			return top.first(1) && s.integer(&c.Turn)
		case "step":
			return top.first(2) && s.integer(&c.Step)
		case "callId":
			return top.first(4) && s.str(&c.CallID)
		case "name":
			return top.first(8) && s.str(&c.Name)
		case "arguments":
			return top.first(16) && s.str(&c.Arguments)
		}
		return s.skipUnknown(k, toolCallFields)
	})
	if !ok || s.i != len(b) {
		return sessionlog.ToolCallData{}, false
	}
	return c, true
}

// message reads an object as sessionlog.Message.
func (s *chunkScanner) message(m *sessionlog.Message) bool {
	var seen onceSet
	return s.peek('{') && s.object(func(k []byte) bool {
		switch string(k) {
		case "id":
			return seen.first(1) && s.str(&m.ID)
		case "role":
			return seen.first(2) && s.word(&m.Role)
		case "content":
			return seen.first(4) && s.contentBlocks(&m.Content)
		case "source":
			return seen.first(8) && s.raw(&m.Source)
		}
		return s.skipUnknown(k, messageFields)
	})
}

// ScanMessage reads a user/message payload (or any message) as
// sessionlog.Message.
func ScanMessage(b []byte) (m sessionlog.Message, ok bool) {
	s := &chunkScanner{b: b}
	if !s.message(&m) || s.i != len(b) {
		return sessionlog.Message{}, false
	}
	return m, true
}

// ScanAssistantMessage reads an assistant/message payload as
// sessionlog.AssistantMessageData.
func ScanAssistantMessage(b []byte) (d sessionlog.AssistantMessageData, ok bool) {
	s := &chunkScanner{b: b}
	var top onceSet
	ok = s.object(func(k []byte) bool {
		switch string(k) {
		case "turn":
			return top.first(1) && s.integer(&d.Turn)
		case "step":
			return top.first(2) && s.integer(&d.Step)
		case "message":
			return top.first(4) && s.message(&d.Message)
		case "usage":
			return top.first(8) && s.raw(&d.Usage)
		case "interrupted":
			return top.first(16) && s.boolean(&d.Interrupted)
		}
		return s.skipUnknown(k, assistantDataFields)
	})
	if !ok || s.i != len(b) {
		return sessionlog.AssistantMessageData{}, false
	}
	return d, true
}

// ScanSource reads a message payload's source member alone, as
// json.Unmarshal into struct{Source json.RawMessage} does: absent gives
// nil.
func ScanSource(b []byte) (source json.RawMessage, ok bool) {
	s := &chunkScanner{b: b}
	var top onceSet
	ok = s.object(func(k []byte) bool {
		if string(k) == "source" {
			return top.first(1) && s.raw(&source)
		}
		return s.skipUnknown(k, sourceFields)
	})
	if !ok || s.i != len(b) {
		return nil, false
	}
	return source, true
}

// IsCheckpoint is sessionlog.IsCheckpoint, the payload's source read by
// ScanSource: a checkpoint's payload is a whole summary, which
// json.Unmarshal would check and scan only to find the source.
func IsCheckpoint(e *sessionlog.Event) bool {
	if !sessionlog.MayBeCheckpoint(e) {
		return false
	}
	if source, ok := ScanSource(e.Data); ok {
		return sessionlog.IsCompactCheckpointSource(source)
	}
	return sessionlog.IsCheckpoint(e)
}

// Summary is a compact/summary payload as a checkpoint's marker reads it.
type Summary struct {
	Summary            []sessionlog.ContentBlock
	ShadowedSeqs       []int64
	ShadowedTokenCount int64
}

// ScanSummary reads a compact/summary payload as json.Unmarshal into a
// map of raw members, then each of summary, shadowedSeqs and
// shadowedTokenCount into its field, reads it; every one must be there
// and none null.
func ScanSummary(b []byte) (sum Summary, ok bool) {
	s := &chunkScanner{b: b}
	var top onceSet
	ok = s.object(func(k []byte) bool {
		switch string(k) {
		case "summary":
			return top.first(1) && s.contentBlocks(&sum.Summary)
		case "shadowedSeqs":
			return top.first(2) && s.integers(&sum.ShadowedSeqs)
		case "shadowedTokenCount":
			return top.first(4) && s.integer(&sum.ShadowedTokenCount)
		}
		return s.skip() // a map takes every other key as it is
	})
	if !ok || s.i != len(b) || top != 7 {
		return Summary{}, false
	}
	return sum, true
}

// integers reads an array of integers ([] is an empty, non-nil slice).
func (s *chunkScanner) integers(v *[]int64) bool {
	out := []int64{}
	if !s.array(func() bool {
		var n int64
		if !s.integer(&n) {
			return false
		}
		out = append(out, n)
		return true
	}) {
		return false
	}
	*v = out
	return true
}

// ScanTurnStep reads a step/start or step/end payload as {turn, step}.
func ScanTurnStep(b []byte) (turn, step int64, ok bool) {
	s := &chunkScanner{b: b}
	var top onceSet
	ok = s.object(func(k []byte) bool {
		switch string(k) {
		case "turn":
			return top.first(1) && s.integer(&turn)
		case "step":
			return top.first(2) && s.integer(&step)
		}
		return s.skipUnknown(k, turnStepFields)
	})
	if !ok || s.i != len(b) {
		return 0, 0, false
	}
	return turn, step, true
}

// ScanTurnEndKind reads a turn/end payload whose reason is {kind} alone,
// the usual shape, and returns the kind. A reason with any other member
// json.Unmarshal would decode (error, failure, message, reason) is left to
// it.
func ScanTurnEndKind(b []byte) (kind string, ok bool) {
	s := &chunkScanner{b: b}
	var top, reason onceSet
	ok = s.object(func(k []byte) bool {
		if string(k) != "reason" {
			return s.skipUnknown(k, turnEndFields)
		}
		return top.first(1) && s.object(func(k []byte) bool {
			if string(k) == "kind" {
				return reason.first(1) && s.word(&kind)
			}
			return s.skipUnknown(k, turnEndReasonFields)
		})
	})
	if !ok || s.i != len(b) || top == 0 || reason == 0 {
		return "", false
	}
	return kind, true
}

// ScanUser reads a user/message payload as {content, source} with source a
// map of raw values (a repeated source key keeps its last value, as a map
// does).
func ScanUser(b []byte) (content []sessionlog.ContentBlock, src map[string]json.RawMessage, ok bool) {
	s := &chunkScanner{b: b}
	var top onceSet
	ok = s.object(func(k []byte) bool {
		switch string(k) {
		case "content":
			return top.first(1) && s.contentBlocks(&content)
		case "source":
			if !top.first(2) {
				return false
			}
			src = map[string]json.RawMessage{}
			return s.peek('{') && s.object(func(k []byte) bool {
				var v json.RawMessage
				if !s.raw(&v) {
					return false
				}
				src[string(k)] = v
				return true
			})
		}
		return s.skipUnknown(k, userFields)
	})
	if !ok || s.i != len(b) {
		return nil, nil, false
	}
	return content, src, true
}

// Valid is json.Valid, faster on the usual log line: JSON without white
// space, which the scanner checks in one pass. Anything the scanner does not
// take (white space, deep nesting, an escaped or non-ASCII key) goes to
// json.Valid, so the answer is always json.Valid's.
func Valid(b []byte) bool {
	s := &chunkScanner{b: b}
	if s.skip() && s.i == len(b) {
		return true
	}
	return json.Valid(b)
}

// ValidMembers is Valid for the usual log line, a JSON object without white
// space whose keys need no unescaping, checked in the same one pass that
// hands member each top-level member: its key as it stands in b (quoted) and
// where its value lies, b[start:end]. false says the pass did not take b
// (not such an object, or not valid JSON): member may have been called for
// some members, and the caller must check b with Valid and walk it itself.
func ValidMembers(b []byte, member func(key []byte, start, end int)) bool {
	s := &chunkScanner{b: b, depth: 1} // as Valid's skip of the object
	return s.peek('{') && s.object(func(k []byte) bool {
		start := s.i
		if !s.skip() {
			return false
		}
		member(b[start-len(k)-3:start-1], start, s.i) // "k" before the ':'
		return true
	}) && s.i == len(b)
}

// scanSource reads a message source as sessionlog.DecodeSource does: an
// object whose kind, plugin, callId, provider and model are strings (a
// repeated key keeps its last value, as the map DecodeSource decodes into
// does; keys are matched exactly, as map keys are). Any other value of those
// keys is left to DecodeSource.
func scanSource(b []byte) (src sessionlog.Source, ok bool) {
	s := &chunkScanner{b: b}
	ok = s.peek('{') && s.object(func(k []byte) bool {
		switch string(k) {
		case "kind":
			return s.word(&src.Kind)
		case "plugin":
			return s.str(&src.Plugin)
		case "callId":
			return s.str(&src.CallID)
		case "provider":
			return s.str(&src.Provider)
		case "model":
			return s.str(&src.Model)
		}
		return s.skip()
	})
	return src, ok && s.i == len(b)
}

// DecodeSource is sessionlog.DecodeSource with scanSource's fast path.
func DecodeSource(b []byte) sessionlog.Source {
	if src, ok := scanSource(b); ok {
		return src
	}
	return sessionlog.DecodeSource(b)
}
