package viewer

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/projection"
	"github.com/dshtest/dshtest/projection/terminal"
)

// SurfacePager is view --surface: a pager over the model's messages in
// WriteSurface's block format, titled with the session's id. The id and
// every text go through the one escaper.
func SurfacePager(sessionID string, msgs []projection.ModelMessage, width, height int) *Pager {
	var b strings.Builder
	WriteSurface(&b, msgs)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	title := "dshtest · " + terminal.EscapeInline(sessionID) + " · model view (surface): " +
		strconv.Itoa(len(msgs)) + " messages"
	return NewPager(title, lines, width, height)
}

// WriteSurface writes the model's messages, one block per message:
//
//	seq 33 user (plugin:compact)
//	  text: This is an automatically generated checkpoint …
//
// Each content block is one "kind: text" line; a multi-line text continues
// on lines indented to match.
func WriteSurface(w io.Writer, msgs []projection.ModelMessage) {
	for i, m := range msgs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		var msg projection.Message
		_ = json.Unmarshal(m.Message, &msg)
		src := projection.DecodeSource(msg.Source)
		label := src.Kind
		switch {
		case src.Plugin != "":
			label += ":" + src.Plugin
		case src.CallID != "":
			label += ":" + src.CallID
		case src.Model != "":
			label += ":" + src.Provider + "/" + src.Model
		}
		fmt.Fprintf(w, "seq %d %s (%s)\n", m.Seq, terminal.EscapeInline(msg.Role), terminal.EscapeInline(label))
		if len(msg.Content) == 0 {
			fmt.Fprintln(w, "  (no content)")
		}
		for _, b := range msg.Content {
			writeBlock(w, b, "  ")
		}
	}
}

func writeBlock(w io.Writer, b projection.ContentBlock, indent string) {
	var head, body string
	switch b.Type {
	case "text", "reasoning":
		head, body = b.Type, b.Text
	case "tool-call":
		head, body = "tool-call "+terminal.EscapeInline(b.ID), b.Name+"("+b.Arguments+")"
	case "tool-result":
		head = "tool-result " + terminal.EscapeInline(b.ToolCallID)
		if b.IsError {
			head += " (error)"
		}
		body = projection.ContentText(b.Content)
	default:
		head, body = terminal.EscapeInline(b.Type), "["+b.Type+"]"
	}
	lines := strings.Split(terminal.Escape(body), "\n")
	fmt.Fprintf(w, "%s%s: %s\n", indent, head, lines[0])
	pad := indent + strings.Repeat(" ", len(head)+2)
	for _, l := range lines[1:] {
		fmt.Fprintln(w, strings.TrimRight(pad+l, " "))
	}
}
