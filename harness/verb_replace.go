package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbReplace is the replace verb.
//
//	replace SEQ [--to END] --plugin NAME TEXT [--as NAME]
//
// Appends a foreign plugin's replacement: user/message with source
// {kind:"plugin", plugin:NAME}, surfaceOp replace SEQ..END (END defaults to
// SEQ) and sourceEventSeqs the shadowed surface nodes. It is not a
// checkpoint (only plugin "compact" is), so it renders nothing and adds
// no marker.
//
// Example:
//
//	replace reminder --plugin reminders 'Refreshed reminder.'
func verbReplace(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "replace", func(s *script) error {
		p, err := parseArgs("replace", args, flagSpec{values: []string{"to", "plugin", "as"}})
		if err != nil {
			return err
		}
		plugin, ok := p.get("plugin")
		if len(p.pos) != 2 || !ok {
			return fmt.Errorf("usage: replace SEQ [--to END] --plugin NAME TEXT [--as NAME]")
		}
		from, err := s.seqArg("replace", p.pos[0])
		if err != nil {
			return err
		}
		to := from
		if v, ok := p.get("to"); ok {
			if to, err = s.seqArg("replace", v); err != nil {
				return err
			}
		}
		text, err := textArg(ts, "replace", p.pos[1])
		if err != nil {
			return err
		}
		msg := logbuild.UserMessage(logbuild.SeqID("replacement", s.nextSeq()),
			[]jsonobj.Object{logbuild.TextBlock(text)}, logbuild.PluginSource(plugin))
		_, err = s.appendLabelled(ts, p, 0, surfaceReplace(sessionlog.TypeUserMessage, msg, from, to, s.shadowed(from, to)))
		return err
	})
}
