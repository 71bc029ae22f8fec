package transcript

import "testing"

// TestTurnEndNotice pins turn/end's notice for every reason shape, current
// and older (docs/spec/terminal.md §12).
func TestTurnEndNotice(t *testing.T) {
	for _, tc := range []struct {
		data  string
		level Level
		text  string
	}{
		{`{"turn":1,"reason":{"kind":"completed"}}`, 0, ""},
		{`{"turn":1,"reason":{"kind":"error","error":{"message":"snapshot disk full","code":"UNKNOWN"}}}`, LevelError, "snapshot disk full"},
		{`{"turn":1,"reason":{"kind":"error","step":2,"failure":{"message":"overloaded"}}}`, LevelError, "overloaded"},
		{`{"turn":1,"reason":{"kind":"error","step":2,"message":"stream closed","code":"x"}}`, LevelError, "stream closed"},
		{`{"turn":1,"reason":{"kind":"error","error":{"message":""},"message":"plain"}}`, LevelError, "plain"},
		{`{"turn":1,"reason":{"kind":"aborted","reason":{"kind":"disposed"}}}`, LevelWarning, "Turn stopped: the agent was disposed."},
		{`{"turn":1,"reason":{"kind":"aborted","reason":{"kind":"user"}}}`, LevelWarning, "Turn cancelled."},
		{`{"turn":1,"reason":{"kind":"aborted","reason":{"kind":"hook","reason":"stop"}}}`, LevelWarning, "Turn cancelled."},
		{`{"turn":1,"reason":{"kind":"aborted"}}`, LevelWarning, "Turn cancelled."},
		{`{"turn":1,"reason":{"kind":"aborted","reason":"disposed"}}`, LevelWarning, "Turn cancelled."},
		{`{"turn":1,"reason":{"kind":"disposed"}}`, LevelWarning, "Turn stopped: the agent was disposed."},
		{`{"turn":1,"reason":{"kind":"blocked"}}`, LevelWarning, "Turn ended: blocked."},
		{`{"turn":1,"reason":{"kind":"max-tokens"}}`, LevelWarning, "The model reached its output-token limit."},
		{`{"turn":1,"reason":{"kind":"interrupted"}}`, LevelWarning, "The previous process ended during this turn."},
		{`{"turn":1,"reason":{"kind":"mystery","error":7}}`, LevelWarning, "Turn ended: mystery."},
	} {
		n := trTurnEndNotice([]byte(tc.data))
		switch {
		case n == nil && tc.level != 0:
			t.Errorf("%s: no notice, want %q", tc.data, tc.text)
		case n != nil && (n.Level != tc.level || n.Text != tc.text):
			t.Errorf("%s: got %v %q, want %v %q", tc.data, n.Level, n.Text, tc.level, tc.text)
		}
	}
}
