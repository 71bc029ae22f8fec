package harness

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbUser is the user verb.
//
//	user TEXT [--as NAME]
//
// Appends a human prompt: user/message {id, role:"user",
// content:[{type:"text",text:TEXT}], source:{kind:"user"}} with surfaceOp
// "append". TEXT may be '"a Go string\nliteral"' (escapes are decoded)
// or @FILE (a file of the archive); this holds for every TEXT argument.
// A TEXT that starts with "--" goes after a lone "--" (user -- '--help').
//
// Example:
//
//	user 'List the files'
//	user '"two\nlines"' --as prompt
func verbUser(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "user", func(s *script) error {
		p, err := parseArgs("user", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		text, err := oneText(ts, "user", p.pos)
		if err != nil {
			return err
		}
		msg := logbuild.UserMessage(logbuild.SeqID("user", s.nextSeq()),
			[]jsonobj.Object{logbuild.TextBlock(text)}, logbuild.UserSource())
		_, err = s.appendLabelled(ts, p, 0, surfaceAppend(sessionlog.TypeUserMessage, msg, nil))
		return err
	})
}
