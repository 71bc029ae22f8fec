package harness

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbToolResult is the tool-result verb.
//
//	tool-result ID [--error] [--exit N] [--signal S] [--meta JSON] [TEXT] [--as NAME]
//
// Appends tool/result {turn, step, message, meta?} for call ID: message
// {id, role:"user", content:[{type:"tool-result", toolCallId:ID,
// content:[{type:"text",text:TEXT}], isError}], source:{kind:"tool",
// callId:ID}}, surfaceOp "append", and sourceEventSeqs [the tool/call's
// seq] when this scenario wrote that call. --exit N (N ≠ 0) and --signal S
// end the text with the marker line bash writes, "\n[exit code: N]" or
// "\n[killed by signal: S]" (presenters.md §2.1), which a bash card shows
// as its "[exit N]" or "[signal S]" pill ("[exit 0]" without one); they
// also set meta {exitCode:N, signal:S}. --meta JSON (an object) sets the
// rest of the result's meta: read windows, edit diffs. A result whose call
// was never seen is an orphan: it renders as a generic card named "tool".
//
// Example:
//
//	tool-result call-1 --exit 0 '"README.md\nsrc"'
//	tool-result call-2 --error 'permission denied'
func verbToolResult(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "tool-result", func(s *script) error {
		p, err := parseArgs("tool-result", args, flagSpec{bools: []string{"error"}, values: []string{"exit", "signal", "meta", "as"}})
		if err != nil {
			return err
		}
		if len(p.pos) < 1 || len(p.pos) > 2 {
			return fmt.Errorf("usage: tool-result ID [--error] [--exit N] [--signal S] [--meta JSON] [TEXT] [--as NAME]")
		}
		id := p.pos[0]
		text := ""
		if len(p.pos) == 2 {
			if text, err = textArg(ts, "tool-result", p.pos[1]); err != nil {
				return err
			}
		}
		meta := map[string]any{}
		if v, ok := p.get("meta"); ok {
			if err := json.Unmarshal([]byte(v), &meta); err != nil {
				return fmt.Errorf("tool-result: --meta is not a JSON object: %s", v)
			}
		}
		if v, ok := p.get("exit"); ok {
			n, err := intArg("tool-result", "exit code", v)
			if err != nil {
				return err
			}
			meta["exitCode"] = n
			if n != 0 { // bash writes no marker for a zero exit
				text += "\n[exit code: " + strconv.FormatInt(n, 10) + "]"
			}
		}
		if v, ok := p.get("signal"); ok {
			sig, err := textArg(ts, "tool-result", v)
			if err != nil {
				return err
			}
			meta["signal"] = sig
			text += "\n[killed by signal: " + sig + "]"
		}
		seq := s.nextSeq()
		data := logbuild.ToolResult{Turn: s.turn, Step: s.step, ID: logbuild.SeqID("result", seq), CallID: id,
			Content: []jsonobj.Object{logbuild.TextBlock(text)}, IsError: p.has("error"), AlwaysIsError: true,
			Meta: logbuild.FromMap(meta)}
		var sources []int64
		if c, ok := s.calls[id]; ok {
			sources = []int64{c}
		}
		_, err = s.appendLabelled(ts, p, 0, surfaceAppend(sessionlog.TypeToolResult, data.Data(), sources))
		return err
	})
}
