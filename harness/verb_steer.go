package harness

import (
	"github.com/rogpeppe/go-internal/testscript"
)

// verbSteer is the steer verb.
//
//	steer TEXT [--as NAME]
//
// Appends an older-generation steering message: steering/message {turn,
// message:{id, role:"user", content:[text], source:{kind:"user"}}} with
// surfaceOp "append". It renders like a prompt headed "Steering".
//
// Example:
//
//	steer 'Use the staging database instead.'
func verbSteer(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "steer", func(s *script) error {
		p, err := parseArgs("steer", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		text, err := oneText(ts, "steer", p.pos)
		if err != nil {
			return err
		}
		data := struct {
			Turn    int64   `json:"turn"`
			Message message `json:"message"`
		}{s.turn, message{ID: msgID("steer", s.nextSeq()), Role: "user",
			Content: []any{textBlock{"text", text}}, Source: kindSource{"user"}}}
		_, err = s.appendLabelled(ts, p, 0, surfaceAppend("steering/message", data, nil))
		return err
	})
}
