package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbToolCall is the tool-call verb.
//
//	tool-call ID NAME ARGSJSON [--as NAME]
//
// Appends tool/call {turn, step, callId:ID, name:NAME, arguments:ARGSJSON}
// (arguments is the raw JSON string). Its card renders when an
// append-origin assistant/message advertised ID; a call nobody advertised
// is an orphan that replay skips.
//
// Example:
//
//	tool-call call-1 bash '{"command":"ls"}'
func verbToolCall(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "tool-call", func(s *script) error {
		p, err := parseArgs("tool-call", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 3 {
			return fmt.Errorf("usage: tool-call ID NAME ARGSJSON [--as NAME]")
		}
		argsJSON, err := textArg(ts, "tool-call", p.pos[2])
		if err != nil {
			return err
		}
		data := logbuild.ToolCall(s.turn, s.step, p.pos[0], p.pos[1], argsJSON)
		out, err := s.appendLabelled(ts, p, 0, logOnly(sessionlog.TypeToolCall, data))
		if err != nil {
			return err
		}
		s.calls[p.pos[0]] = out[0].Seq
		return nil
	})
}
