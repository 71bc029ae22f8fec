package sessiongen

import (
	"fmt"

	"github.com/dshtest/dshtest/sessionlog"
)

// This file writes messages: prompts, steering, context and references.

func (g *gen) prompt() {
	g.tick(0, 20)
	content := []obj{textBlock(g.txt.prompt())}
	if g.chance(0.05) {
		content = append(content, obj{{"type", "image"}, {"mediaType", "image/png"}, {"data", "iVBORw0KGgo="}})
	}
	if g.chance(0.05) {
		content = append(content, textBlock(g.txt.sentence()))
	}
	src := userSource
	if g.chance(0.2) {
		src = obj{{"kind", "user"}, {"rpcId", fmt.Sprintf("rpc-%d", g.intn(1000))}, {"clientTimeZone", "Europe/Berlin"}}
	}
	g.appendSurface(sessionlog.TypeUserMessage, userMsg(g.msgID(), content, src), nil, &nodeMeta{})
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
	var src obj
	switch g.intn(9) {
	case 0, 1:
		src = obj{{"kind", "plugin"}, {"plugin", "memory"}, {"form", "instructions"}}
	case 2:
		src = obj{{"kind", "plugin"}, {"plugin", "skills"}, {"form", "catalog"}}
	case 3:
		if g.older {
			src = obj{{"kind", "workspace-instructions"}, {"changes", []any{"AGENTS.md"}}}
		} else {
			src = obj{{"kind", "agent-instructions"}, {"form", "instructions"}, {"changes", []any{obj{{"path", "AGENTS.md"}}}}}
		}
	case 4:
		src = obj{{"kind", "goal"}, {"goalId", g.uuid()}, {"revision", 1}, {"round", g.between(1, 5)}}
	case 5:
		// A lookalike: the compact plugin's source, appended. Not a
		// checkpoint; it renders as a context card.
		src = obj{{"kind", "plugin"}, {"plugin", "compact"}}
	case 6:
		src = obj{{"kind", "plugin"}, {"plugin", g.txt.hostileBit() + "plug"}}
	case 7:
		src = obj{{"kind", "plugin"}, {"plugin", 7}}
	default:
		src = obj{{"kind", "x-custom-source"}}
	}
	if primary && src[0].v == "plugin" {
		src = src.set("plugin", "goal")
	}
	g.appendSurface(sessionlog.TypeUserMessage, userMsg(g.msgID(), []obj{textBlock(body)}, src), nil, &nodeMeta{})
}

func (g *gen) sessionReference() {
	g.tick(0, 20)
	var refs []any
	for i := range g.between(1, 3) {
		id := g.uuid()
		label := id
		if g.chance(0.6) {
			label = pick(g, []string{"bugfix session", "yesterday", g.txt.hostileBit()})
		}
		ref := obj{{"sessionId", id}, {"label", label}, {"capturedThroughSeq", g.intn(500)},
			{"compacted", g.chance(0.3)}, {"originalMessages", 10}, {"retainedMessages", 8},
			{"omittedMessages", 2}, {"omittedBytes", 1234}, {"inputIndex", i}}
		if g.chance(0.1) {
			ref = ref.set("label", 42) // malformed: the message becomes a context card
		}
		refs = append(refs, ref)
	}
	src := obj{{"kind", "session-reference"}, {"version", 1}, {"references", refs}}
	g.appendSurface(sessionlog.TypeUserMessage, userMsg(g.msgID(),
		[]obj{textBlock("<session-reference>\n" + g.txt.plain() + "\n</session-reference>")}, src), nil, &nodeMeta{})
}
