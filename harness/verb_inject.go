package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbInject is the inject verb.
//
//	inject PLUGIN TEXT [--as NAME]
//	inject --kind KIND TEXT [--as NAME]
//
// Appends injected context: user/message with source {kind:"plugin",
// plugin:PLUGIN} (or {kind:KIND} with --kind) and surfaceOp "append". It
// renders as a context card "Context · PLUGIN" (or KIND). Even a
// plugin:"compact" source is only context when it appends: only a
// replacement is a checkpoint.
//
// Example:
//
//	inject reminders '"<system-reminder>\nRun the tests first.\n</system-reminder>"'
//	inject --kind agent-instructions @AGENTS.md
func verbInject(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "inject", func(s *script) error {
		p, err := parseArgs("inject", args, flagSpec{values: []string{"kind", "as"}})
		if err != nil {
			return err
		}
		var source jsonobj.Object
		pos := p.pos
		if kind, ok := p.get("kind"); ok {
			source = logbuild.KindSource(kind)
		} else {
			if len(pos) != 2 {
				return fmt.Errorf("usage: inject PLUGIN TEXT [--as NAME] or inject --kind KIND TEXT")
			}
			plugin, err := textArg(ts, "inject", pos[0])
			if err != nil {
				return err
			}
			source = logbuild.PluginSource(plugin)
			pos = pos[1:]
		}
		text, err := oneText(ts, "inject", pos)
		if err != nil {
			return err
		}
		msg := logbuild.UserMessage(logbuild.SeqID("context", s.nextSeq()),
			[]jsonobj.Object{logbuild.TextBlock(text)}, source)
		_, err = s.appendLabelled(ts, p, 0, surfaceAppend(sessionlog.TypeUserMessage, msg, nil))
		return err
	})
}
