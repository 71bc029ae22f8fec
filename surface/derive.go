package surface

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dshtest/dshtest/sessionlog"
)

// ModelMessage is one message of the model's view: the surface node it
// comes from and the message JSON, verbatim from the log.
type ModelMessage struct {
	Seq     int64
	Message json.RawMessage
}

// DeriveEventMessage is the per-event projection of log.md §7:
//
//   - user/message: data, verbatim (producers bake any framing into it);
//   - steering/message (older logs), tool/result: data.message;
//   - assistant/message: data.message, or nothing when message.content is
//     empty (a usage-only max-tokens host);
//   - anything else: nothing.
//
// ok is false when the event contributes no message.
func DeriveEventMessage(e *sessionlog.Event) (msg json.RawMessage, ok bool) {
	return deriveMessage(e.Type, e.Data)
}

func deriveMessage(typ string, data json.RawMessage) (json.RawMessage, bool) {
	switch typ {
	case sessionlog.TypeUserMessage:
		return data, true
	case sessionlog.TypeSteeringMessage, sessionlog.TypeToolResult, sessionlog.TypeAssistantMessage:
		var d struct {
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(data, &d) != nil || !present(d.Message) {
			return nil, false
		}
		if typ == sessionlog.TypeAssistantMessage {
			var m struct {
				Content []json.RawMessage `json:"content"`
			}
			if json.Unmarshal(d.Message, &m) != nil || len(m.Content) == 0 {
				return nil, false
			}
		}
		return bytes.TrimSpace(d.Message), true
	}
	return nil, false
}

// DeriveMessages maps the surface nodes, in surface order, through
// DeriveEventMessage (log.md §7). It returns the model's message list after
// the system prompt and tools.
//
// A surface folded without its payloads (NewCountFolder) has no messages to
// derive: DeriveMessages panics on one; MessageCount counts them.
func (s *Surface) DeriveMessages() []ModelMessage {
	if s.lean {
		panic("surface: DeriveMessages of a surface folded without its payloads")
	}
	out := make([]ModelMessage, 0, s.n)
	for n := s.head; n != nil; n = n.next {
		if m, ok := deriveMessage(n.typ, n.data); ok {
			out = append(out, ModelMessage{Seq: n.seq, Message: m})
		}
	}
	return out
}

// MessageCount is len(s.DeriveMessages()), also for a surface folded
// without its payloads.
func (s *Surface) MessageCount() int {
	n := 0
	for nd := s.head; nd != nil; nd = nd.next {
		ok := nd.msg
		if !s.lean {
			_, ok = deriveMessage(nd.typ, nd.data)
		}
		if ok {
			n++
		}
	}
	return n
}

// DeriveMessages is the whole-log form: nodes (as returned by Fold) are
// looked up in events, a contiguous run of the log whose first event's seq
// is the base. A node outside events is an error.
func DeriveMessages(events []sessionlog.Event, nodes []int64) ([]ModelMessage, error) {
	out := make([]ModelMessage, 0, len(nodes))
	if len(nodes) == 0 {
		return out, nil
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("surface: derive messages: node seq %d is not in the log", nodes[0])
	}
	base := events[0].Seq
	for _, seq := range nodes {
		i := seq - base
		if i < 0 || i >= int64(len(events)) || events[i].Seq != seq {
			return nil, fmt.Errorf("surface: derive messages: node seq %d is not in the log", seq)
		}
		if m, ok := DeriveEventMessage(&events[i]); ok {
			out = append(out, ModelMessage{Seq: seq, Message: m})
		}
	}
	return out, nil
}
