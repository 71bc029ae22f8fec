package harness

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
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
		data := logbuild.Steering(s.turn, logbuild.UserMessage(logbuild.SeqID("steer", s.nextSeq()),
			[]jsonobj.Object{logbuild.TextBlock(text)}, logbuild.UserSource()))
		_, err = s.appendLabelled(ts, p, 0, surfaceAppend(sessionlog.TypeSteeringMessage, data, nil))
		return err
	})
}
