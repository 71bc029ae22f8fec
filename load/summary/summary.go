// Package summary counts what a session log holds: events by type, turns,
// messages by origin, replacements, compactions, its vocabulary and its
// folded surface. It is fed event by event as the log is read (load), so
// that a summary of a long log keeps none of its events.
package summary

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal/display"
)

// Framing is how a Zstandard log's frames cut its text.
type Framing struct {
	// Kind is container.Framing: "header+batches" (upstream's) or
	// "stream" (one frame of the whole log, or frames cut anywhere).
	Kind   string `json:"kind"`
	Frames int    `json:"frames"`
}

// Text is the framing's line in check's summary.
func (f *Framing) Text() string {
	switch container.Framing(f.Kind) {
	case container.FramingBatches:
		return fmt.Sprintf("a header frame, then %s (as dsh writes it)", words.Plural(f.Frames-1, "batch frame"))
	case container.FramingStream:
		if f.Frames == 1 {
			return "one frame of the whole log (as the zstd command writes it)"
		}
		return words.Plural(f.Frames, "frame") + " read as one stream of text"
	}
	return f.Kind
}

// Summary is what a valid log holds; its JSON form is dshtest check --json's.
type Summary struct {
	File       string         `json:"file"`
	OK         bool           `json:"ok"`
	Events     int            `json:"events"`
	Header     *Header        `json:"header,omitempty"`
	Form       string         `json:"form"`
	Framing    *Framing       `json:"framing,omitempty"`
	Upgraded   int            `json:"upgraded"`
	Synthetic  []string       `json:"synthetic"`
	Subagents  []string       `json:"subagents,omitempty"`
	Warnings   []string       `json:"warnings"`
	Vocabulary string         `json:"vocabulary"`
	Types      map[string]int `json:"types"`
	Turns      int            `json:"turns"`
	Messages   struct {
		Prompts     int `json:"prompts"`
		Assistant   int `json:"assistant"`
		ToolResults int `json:"toolResults"`
		Context     int `json:"context"`
	} `json:"messages"`
	Replacements struct {
		Checkpoints int `json:"checkpoints"`
		Pruned      int `json:"prunedToolResults"`
		Regenerated int `json:"regeneratedAssistant"`
		Other       int `json:"other"`
	} `json:"replacements"`
	Compactions struct {
		Landed int `json:"landed"`
		Failed int `json:"failed"`
		Open   int `json:"open"`
	} `json:"compactions"`
	Surface struct {
		Nodes      int `json:"nodes"`
		Messages   int `json:"messages"`
		Generation int `json:"generation"`
	} `json:"surface"`
}

// Header is the session header's id and version.
type Header struct {
	ID      string `json:"id,omitempty"`
	Version int64  `json:"version"`
}

// Tally is the part of a Summary read event by event, so that no event
// need be kept: it is fed as the log is read.
type Tally struct {
	s            Summary // the counting fields only
	older, newer bool
	open         map[string]int // compaction id ("" for older logs) → open starts
}

// NewTally returns an empty tally.
func NewTally() *Tally {
	return &Tally{s: Summary{Types: map[string]int{}}, open: map[string]int{}}
}

// Add counts one event.
func (t *Tally) Add(e *sessionlog.Event) {
	s := &t.s
	s.Events++
	s.Types[e.Type]++
	switch {
	case strings.HasPrefix(e.Type, "compact/"), e.Type == sessionlog.TypeSteeringMessage,
		e.Type == sessionlog.TypeTurnStart && hasKey(e.Data, "trigger"):
		t.older = true
	case strings.HasPrefix(e.Type, "compaction/"), e.Ignorable:
		t.newer = true
	}
	switch sessionlog.Canonical(e.Type) {
	case sessionlog.TypeTurnStart:
		s.Turns++
	case sessionlog.TypeCompactionStart:
		var d sessionlog.CompactionStartData
		_ = json.Unmarshal(e.Data, &d)
		t.open[d.CompactionID]++
	case sessionlog.TypeCompactionEnd:
		var d sessionlog.CompactionEndData
		_ = json.Unmarshal(e.Data, &d)
		if t.open[d.CompactionID] > 0 {
			t.open[d.CompactionID]--
		}
		if d.Error != "" {
			s.Compactions.Failed++
		}
	}
	switch {
	case sessionlog.IsAppendSurfaceEvent(e):
		switch e.Type {
		case sessionlog.TypeUserMessage, sessionlog.TypeSteeringMessage:
			if e.Type == sessionlog.TypeSteeringMessage || IsHumanPrompt(e) {
				s.Messages.Prompts++
			} else {
				s.Messages.Context++
			}
		case sessionlog.TypeAssistantMessage:
			s.Messages.Assistant++
		case sessionlog.TypeToolResult:
			s.Messages.ToolResults++
		}
	case sessionlog.IsCheckpoint(e):
		s.Replacements.Checkpoints++
		s.Compactions.Landed++
	case sessionlog.IsReplacementSurfaceEvent(e):
		switch e.Type {
		case sessionlog.TypeToolResult:
			s.Replacements.Pruned++
		case sessionlog.TypeAssistantMessage:
			s.Replacements.Regenerated++
		default:
			s.Replacements.Other++
		}
	}
}

// Summarize is the summary of the log lf, read with t fed its events, and
// of sf, its folded surface.
func (t *Tally) Summarize(lf *load.Log, sf *surface.Surface) *Summary {
	s := &t.s
	s.File, s.OK, s.Synthetic, s.Warnings = lf.Path, true, []string{}, []string{}
	if r := lf; r != nil {
		s.Form = string(r.Form)
		switch {
		case s.Form == "":
			s.Form = "jsonl (no session header)"
		case r.Form == container.FormZstd && r.Header == nil:
			s.Form += " (no session header)" // a header-less log compressed
		}
		if r.Framing != "" {
			s.Framing = &Framing{Kind: string(r.Framing), Frames: r.Frames}
		}
		s.Upgraded = r.Upgraded
		for _, c := range r.Closers {
			d := fmt.Sprintf("seq %d %s", c.Seq, c.Kind) // Kind names the type
			if c.CallID != "" {
				d += " for call " + strconv.Quote(c.CallID)
			}
			s.Synthetic = append(s.Synthetic, d)
		}
		s.Subagents = r.Subagents
		for _, w := range r.Warnings {
			s.Warnings = append(s.Warnings, w.String())
		}
	}
	if lf.Header != nil {
		var h Header
		_ = json.Unmarshal(lf.Header, &h)
		s.Header = &h
	}
	for _, n := range t.open {
		s.Compactions.Open += n
	}
	switch {
	case t.older && t.newer:
		s.Vocabulary = "mixed"
	case t.older:
		s.Vocabulary = "older (compact/*)"
	case t.newer:
		s.Vocabulary = "newer (compaction/*)"
	default:
		s.Vocabulary = "unknown (no generation-specific events)"
	}
	s.Surface.Nodes = sf.Len()
	s.Surface.Messages = sf.MessageCount()
	s.Surface.Generation = sf.Generation()
	return s
}

// IsHumanPrompt reports whether a user/message comes from the human.
func IsHumanPrompt(e *sessionlog.Event) bool {
	var m struct {
		Source json.RawMessage `json:"source"`
	}
	if json.Unmarshal(e.Data, &m) != nil {
		return false
	}
	return sessionlog.DecodeSource(m.Source).Kind == "user"
}

// hasKey reports whether the JSON object raw has key.
func hasKey(raw json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

// Describe is a one-line summary of an event: seq, type, surface op and
// a preview of its text, every text of the log through the one escaper.
func Describe(e *sessionlog.Event) string {
	s := fmt.Sprintf("%4d %s", e.Seq, display.EscapeInline(e.Type))
	if sessionlog.IsSurfaceEvent(e) {
		switch op := e.Op(); op.Kind {
		case sessionlog.OpAppend:
			s += " append"
		case sessionlog.OpReplace:
			s += fmt.Sprintf(" replace %d..%d", op.Start, op.End)
			if sessionlog.IsCheckpoint(e) {
				s += " (checkpoint)"
			}
		}
	}
	if t := eventText(e); t != "" {
		s += " " + screen.Preview(display.Escape(previewHead(t, 60)), 60)
	}
	return s
}

// previewHead is t cut after its first n+1 runes that are not white
// space: what a preview of n runes of its escape reads (the escape makes
// no rune fewer, nor white space of what is not), where escaping the
// whole of a text of megabytes copied it once more.
func previewHead(t string, n int) string {
	for i, r := range t {
		if !unicode.IsSpace(r) {
			if n--; n < 0 {
				_, size := utf8.DecodeRuneInString(t[i:])
				return t[:i+size]
			}
		}
	}
	return t
}

// eventText is the text a message event carries (its content text), or "".
func eventText(e *sessionlog.Event) string {
	msg, ok := surface.DeriveEventMessage(e)
	if !ok {
		return ""
	}
	var m sessionlog.Message
	if json.Unmarshal(msg, &m) != nil {
		return ""
	}
	return sessionlog.ContentText(m.Content)
}
