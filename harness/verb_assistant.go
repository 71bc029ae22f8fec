package harness

import (
	"fmt"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbAssistant is the assistant verb.
//
//	assistant [--reasoning R] [--tool NAME:ARGSJSON [--id CALLID]]... [--interrupted] [TEXT] [--as NAME]
//
// Appends assistant/message {turn, step, message} for the current turn and
// step. The content is the reasoning block (if any), the text block (if
// TEXT is given) and one tool-call block per --tool, in that order; a
// --tool takes the --id that follows it, else call-<seq>-<k>. The message
// only advertises the calls: write their tool/call events with tool-call.
// If chunks were streamed in this step (stream), the message settles them
// and cites their seqs in sourceEventSeqs.
//
// Example:
//
//	assistant --reasoning 'Run ls.' --tool 'bash:{"command":"ls"}' --id call-1
//	assistant 'Two entries: README.md and src.'
func verbAssistant(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "assistant", func(s *script) error {
		p, err := parseArgs("assistant", args, flagSpec{bools: []string{"interrupted"},
			values: []string{"reasoning", "tool", "id", "as"}})
		if err != nil {
			return err
		}
		if len(p.pos) > 1 {
			return fmt.Errorf("assistant: want at most one TEXT argument (quote it), got %d", len(p.pos))
		}
		seq := s.nextSeq()
		var content []jsonobj.Object
		if r, ok := p.get("reasoning"); ok {
			r, err := textArg(ts, "assistant", r)
			if err != nil {
				return err
			}
			content = append(content, logbuild.ReasoningBlock(r))
		}
		if len(p.pos) == 1 {
			t, err := textArg(ts, "assistant", p.pos[0])
			if err != nil {
				return err
			}
			content = append(content, logbuild.TextBlock(t))
		}
		calls, err := toolFlags(p, seq)
		if err != nil {
			return err
		}
		content = append(content, calls...)
		data := logbuild.Assistant{Turn: s.turn, Step: s.step,
			Message:     logbuild.ModelMessage(logbuild.SeqID("assistant", seq), content, logbuild.DefaultModel),
			Interrupted: p.has("interrupted")}
		var sources []int64
		if st := s.stream; st != nil && st.turn == s.turn && st.step == s.step {
			sources = st.seqs
		}
		if _, err := s.appendLabelled(ts, p, 0, surfaceAppend(sessionlog.TypeAssistantMessage, data.Data(), sources)); err != nil {
			return err
		}
		s.stream = nil
		return nil
	})
}

// toolFlags turns the --tool NAME:ARGS [--id ID] pairs into tool-call
// blocks.
func toolFlags(p parsed, seq int64) ([]jsonobj.Object, error) {
	type call struct{ id, name, args string }
	var out []jsonobj.Object
	var cur *call
	flush := func() {
		if cur != nil {
			out = append(out, logbuild.ToolCallBlock(cur.id, cur.name, cur.args))
			cur = nil
		}
	}
	for _, f := range p.flags {
		switch f.name {
		case "tool":
			flush()
			name, args, ok := strings.Cut(f.value, ":")
			if !ok || name == "" {
				return nil, fmt.Errorf("assistant: --tool %q: want NAME:ARGSJSON", f.value)
			}
			cur = &call{logbuild.SeqCallID(seq, len(out)+1), name, args}
		case "id":
			if cur == nil {
				return nil, fmt.Errorf("assistant: --id %q must follow a --tool", f.value)
			}
			cur.id = f.value
		}
	}
	flush()
	return out, nil
}
