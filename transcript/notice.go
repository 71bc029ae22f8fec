package transcript

import (
	"encoding/json"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// turnEndReason is turn/end's reason in every shape a log may carry: the
// current one ({kind:"error", error:{message,…}}, {kind:"aborted",
// reason:{kind:…}}) and the older ones ({kind:"error", failure:{message}},
// {kind:"error", message}, {kind:"disposed"}).
type turnEndReason struct {
	Kind    string              `json:"kind"`
	Error   *sessionlog.Failure `json:"error"`
	Failure *sessionlog.Failure `json:"failure"`
	Message string              `json:"message"`
	// Cause is the current aborted shape's cancel cause ({kind:"user"},
	// {kind:"disposed"}, …). It is decoded leniently: an older log may
	// carry a string there.
	Cause json.RawMessage `json:"reason"`
}

// trTurnEndNotice is turn/end's notice, nil for a completed turn
// (docs/spec/terminal.md §12):
//
//   - error: red, reason.error.message (current shape), else
//     reason.failure.message, else reason.message (older shapes);
//   - aborted with a disposed cause, and the older disposed kind: "Turn
//     stopped: the agent was disposed.";
//   - any other aborted: "Turn cancelled.";
//   - max-tokens and interrupted: their fixed texts;
//   - every other kind (blocked included): "Turn ended: <kind>.".
func trTurnEndNotice(data json.RawMessage) *Notice {
	var t struct {
		Reason turnEndReason `json:"reason"`
	}
	if kind, ok := fastjson.ScanTurnEndKind(data); ok {
		t.Reason.Kind = kind
	} else {
		_ = json.Unmarshal(data, &t)
	}
	if t.Reason.Kind == "" {
		// A malformed reason keeps what is well formed of its kind.
		var k struct {
			Reason struct {
				Kind string `json:"kind"`
			} `json:"reason"`
		}
		_ = json.Unmarshal(data, &k)
		t.Reason.Kind = k.Reason.Kind
	}
	r := &t.Reason
	switch r.Kind {
	case "completed":
		return nil
	case "error":
		text := r.Message
		switch {
		case r.Error != nil && r.Error.Message != "":
			text = r.Error.Message
		case r.Failure != nil && r.Failure.Message != "":
			text = r.Failure.Message
		}
		return &Notice{Level: LevelError, Text: text}
	case "aborted":
		if r.cause() == "disposed" {
			return &Notice{Level: LevelWarning, Text: "Turn stopped: the agent was disposed."}
		}
		return &Notice{Level: LevelWarning, Text: "Turn cancelled."}
	case "max-tokens":
		return &Notice{Level: LevelWarning, Text: "The model reached its output-token limit."}
	case "disposed":
		return &Notice{Level: LevelWarning, Text: "Turn stopped: the agent was disposed."}
	case "interrupted":
		return &Notice{Level: LevelWarning, Text: "The previous process ended during this turn."}
	}
	return &Notice{Level: LevelWarning, Text: "Turn ended: " + r.Kind + "."}
}

// cause is an aborted reason's cancel-cause kind, "" when there is none.
func (r *turnEndReason) cause() string {
	var c struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(r.Cause, &c) != nil {
		return ""
	}
	return c.Kind
}
