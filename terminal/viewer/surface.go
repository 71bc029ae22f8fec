package viewer

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal/display"
)

// SurfacePager is view --surface: a pager over the model's messages in
// WriteSurface's block format, titled with the session's id. The id and
// every text go through the one escaper.
func SurfacePager(sessionID string, msgs []surface.ModelMessage, width, height int) *Pager {
	var b strings.Builder
	WriteSurface(&b, msgs)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	title := "dshtest · " + display.EscapeInline(sessionID) + " · model view (surface): " +
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
func WriteSurface(w io.Writer, msgs []surface.ModelMessage) {
	for i, m := range msgs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		var msg sessionlog.Message
		_ = json.Unmarshal(m.Message, &msg)
		src := sessionlog.DecodeSource(msg.Source)
		label := src.Kind
		switch {
		case src.Plugin != "":
			label += ":" + src.Plugin
		case src.CallID != "":
			label += ":" + src.CallID
		case src.Model != "":
			label += ":" + src.Provider + "/" + src.Model
		}
		fmt.Fprintf(w, "seq %d %s (%s)\n", m.Seq, display.EscapeInline(msg.Role), display.EscapeInline(label))
		if len(msg.Content) == 0 {
			fmt.Fprintln(w, "  (no content)")
		}
		for _, b := range msg.Content {
			writeBlock(w, b, "  ")
		}
	}
}

func writeBlock(w io.Writer, b sessionlog.ContentBlock, indent string) {
	var head, body string
	switch b.Type {
	case "text", "reasoning":
		head, body = b.Type, b.Text
	case "tool-call":
		head, body = "tool-call "+display.EscapeInline(b.ID), b.Name+"("+b.Arguments+")"
	case "tool-result":
		head = "tool-result " + display.EscapeInline(b.ToolCallID)
		if b.IsError {
			head += " (error)"
		}
		body = sessionlog.ContentText(b.Content)
	default:
		head, body = display.EscapeInline(b.Type), "["+b.Type+"]"
	}
	lines := strings.Split(display.Escape(body), "\n")
	fmt.Fprintf(w, "%s%s: %s\n", indent, head, lines[0])
	pad := indent + strings.Repeat(" ", len(head)+2)
	for _, l := range lines[1:] {
		fmt.Fprintln(w, strings.TrimRight(pad+l, " "))
	}
}
