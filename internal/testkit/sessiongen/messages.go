package sessiongen

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file writes messages: prompts, steering, context and references.

func (g *gen) prompt() {
	g.tick(0, 20)
	content := []jsonobj.Object{logbuild.TextBlock(g.txt.prompt())}
	if g.chance(0.05) {
		content = append(content, logbuild.ImageBlock("image/png", "iVBORw0KGgo="))
	}
	if g.chance(0.05) {
		content = append(content, logbuild.TextBlock(g.txt.sentence()))
	}
	src := logbuild.UserSource()
	if g.chance(0.2) {
		src = src.With("rpcId", fmt.Sprintf("rpc-%d", g.intn(1000))).With("clientTimeZone", "Europe/Berlin")
	}
	g.appendSurface(sessionlog.TypeUserMessage, logbuild.UserMessage(g.msgID(), content, src), nil, &nodeMeta{})
}

// context appends injected context. primary is the message of an
// injection-triggered turn.
func (g *gen) context(primary bool) {
	g.tick(0, 20)
	body := g.txt.text()
	if g.chance(0.5) {
		name := pick(g, []string{"system-reminder", "agents-md", "ns:tag.v1-x"})
		body = "<" + name + ">\n" + body + "\n</" + name + ">"
	}
	if g.chance(0.05) {
		body = pick(g, []string{"", "  \n", "<system-reminder>\n\n</system-reminder>"})
	}
	var src jsonobj.Object
	switch g.intn(9) {
	case 0, 1:
		src = logbuild.PluginSource("memory").With("form", "instructions")
	case 2:
		src = logbuild.PluginSource("skills").With("form", "catalog")
	case 3:
		if g.older {
			src = logbuild.KindSource("workspace-instructions").With("changes", []any{"AGENTS.md"})
		} else {
			src = logbuild.KindSource("agent-instructions").With("form", "instructions").
				With("changes", []any{jsonobj.Object{{"path", "AGENTS.md"}}})
		}
	case 4:
		src = logbuild.KindSource("goal").With("goalId", g.uuid()).With("revision", 1).With("round", g.between(1, 5))
	case 5:
		// A lookalike: the compact plugin's source, appended. Not a
		// checkpoint; it renders as a context card.
		src = logbuild.PluginSource("compact")
	case 6:
		src = logbuild.PluginSource(g.txt.hostileBit() + "plug")
	case 7:
		src = logbuild.PluginSource(7)
	default:
		src = logbuild.KindSource("x-custom-source")
	}
	if primary && src[0].Value == "plugin" {
		src = src.With("plugin", "goal")
	}
	g.appendSurface(sessionlog.TypeUserMessage, logbuild.UserMessage(g.msgID(),
		[]jsonobj.Object{logbuild.TextBlock(body)}, src), nil, &nodeMeta{})
}

func (g *gen) sessionReference() {
	g.tick(0, 20)
	var refs []jsonobj.Object
	for i := range g.between(1, 3) {
		id := g.uuid()
		label := id
		if g.chance(0.6) {
			label = pick(g, []string{"bugfix session", "yesterday", g.txt.hostileBit()})
		}
		ref := logbuild.SessionRef{SessionID: id, Label: label, CapturedThroughSeq: g.intn(500),
			Compacted: g.chance(0.3), OriginalMessages: 10, RetainedMessages: 8,
			OmittedMessages: 2, OmittedBytes: 1234, InputIndex: i}
		if g.chance(0.1) {
			ref.Label = 42 // malformed: the message becomes a context card
		}
		refs = append(refs, ref.Object())
	}
	src := logbuild.SessionRefSource(refs)
	g.appendSurface(sessionlog.TypeUserMessage, logbuild.UserMessage(g.msgID(),
		[]jsonobj.Object{logbuild.TextBlock("<session-reference>\n" + g.txt.plain() + "\n</session-reference>")}, src), nil, &nodeMeta{})
}
