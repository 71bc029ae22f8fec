package harness

import (
	"encoding/json"
	"fmt"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbRegenerate is the regenerate verb.
//
//	regenerate SEQ TEXT [--as NAME]
//
// Appends a regenerated assistant/message: a fresh message with TEXT,
// surfaceOp replace SEQ..SEQ and sourceEventSeqs [SEQ] (log.md §8.2). It
// keeps the replaced message's turn and step. It is model-only: the
// transcript shows the original and nothing for the copy.
//
// Example:
//
//	assistant 'A demo project.' --as answer
//	regenerate answer 'A small demo project.'
func verbRegenerate(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "regenerate", func(s *script) error {
		p, err := parseArgs("regenerate", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 2 {
			return fmt.Errorf("usage: regenerate SEQ TEXT [--as NAME]")
		}
		seq, err := s.seqArg("regenerate", p.pos[0])
		if err != nil {
			return err
		}
		text, err := textArg(ts, "regenerate", p.pos[1])
		if err != nil {
			return err
		}
		at := turnStep{s.turn, s.step}
		if e, err := s.event("regenerate", seq); err == nil && e.Type == sessionlog.TypeAssistantMessage {
			_ = json.Unmarshal(e.Data, &at)
		}
		data := logbuild.Assistant{Turn: at.Turn, Step: at.Step, Message: logbuild.ModelMessage(
			logbuild.SeqID("regenerated", s.nextSeq()), []jsonobj.Object{logbuild.TextBlock(text)}, logbuild.DefaultModel)}
		_, err = s.appendLabelled(ts, p, 0, surfaceReplace(sessionlog.TypeAssistantMessage, data.Data(), seq, seq, []int64{seq}))
		return err
	})
}
