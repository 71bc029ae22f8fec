package transcript

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
)

// ItemKind names what a transcript item is.
type ItemKind uint8

const (
	// KindPrompt is a human prompt: user/message with a "user" source, or an
	// older log's steering/message.
	KindPrompt ItemKind = iota + 1
	// KindContext is injected context: an appended user/message with any
	// other source (terminal.md §2.1.3, §2.7).
	KindContext
	// KindSessionRef is the "Referenced sessions · …" row of a well-formed
	// session-reference message.
	KindSessionRef
	// KindStep is an assistant step block: settled, or in flight from its
	// chunks.
	KindStep
	// KindFooter is a step block's timing footer.
	KindFooter
	// KindToolCard is a tool call with its result once one arrives.
	KindToolCard
	// KindNotice is a one-row notice: turn/end, retries, failed compaction.
	KindNotice
	// KindMarker is the compaction marker of one landed checkpoint.
	KindMarker
	// KindShell is a user shell command of P's terminal (shell.go).
	KindShell
)

// String returns the kind's lower-case name.
func (k ItemKind) String() string {
	switch k {
	case KindPrompt:
		return "prompt"
	case KindContext:
		return "context"
	case KindSessionRef:
		return "session-ref"
	case KindStep:
		return "step"
	case KindFooter:
		return "footer"
	case KindToolCard:
		return "tool"
	case KindNotice:
		return "notice"
	case KindMarker:
		return "marker"
	case KindShell:
		return "shell"
	}
	return "unknown"
}

// ItemID identifies a transcript item stably across projections of the same
// log: the seq of the event that created the item, and which of that event's
// items it is (a step block and its footer share a seq).
type ItemID struct {
	Seq  int64
	Part uint8
}

// Item parts.
const (
	PartMain   uint8 = 0
	PartFooter uint8 = 1
)

// Item is one entry of the human transcript. Exactly one of the payload
// pointers, the one matching Kind, is set.
//
// Items are values that the projector may update in place as later events
// arrive (a step settles, a card gets its result, a footer completes). Rev
// goes up each time that happens, so a renderer can cache an item's rows
// keyed by (ID, Rev). Rev is bookkeeping, not content: two projections are
// equal when their items are equal ignoring Rev.
type Item struct {
	ID   ItemID
	Kind ItemKind
	Rev  uint64

	Prompt     *Prompt
	Context    *ContextCard
	SessionRef *SessionRef
	Step       *Step
	Footer     *Footer
	Tool       *ToolCard
	Notice     *Notice
	Marker     *Marker
	Shell      *ShellCard
}

// Prompt is a human prompt. Header is "You", or "Steering" for an older
// log's steering/message. Text is ContentText(content) trimmed, not yet
// escaped for display; it is never empty.
type Prompt struct {
	Header string
	Text   string
}

// ContextCard is injected context. Label is source.plugin, else source.kind,
// else "context". Text is ContentText(content) trimmed and never empty.
type ContextCard struct {
	Label string
	Text  string
}

// SessionRef is a well-formed session-reference message. Each entry is
// already composed as terminal.md §2.1.2 says: the label, or
// "label (sessionId)" when they differ. Entries are not yet escaped.
type SessionRef struct {
	Entries []string
}

// Step is one assistant step block. Blocks are in index order. A settled
// step shows its assistant/message content; an unsettled one shows what its
// chunks streamed so far (and may show nothing yet).
type Step struct {
	Turn, Step int64
	Settled    bool
	Blocks     []Block
}

// Block is one text or reasoning block of a step. Tool-call blocks are kept
// so that a streaming step's shape is visible, but renderers show only text
// and reasoning.
type Block struct {
	Type string // "text", "reasoning", "tool-call", or another block type
	Text string
}

// Reasoning returns the step's reasoning blocks joined with "\n\n" and
// trimmed (terminal.md §2.3), not yet escaped.
func (s *Step) Reasoning() string { return s.joined("reasoning") }

// Text returns the step's text blocks joined with "\n\n" and trimmed.
func (s *Step) Text() string { return s.joined("text") }

// Bucket is a timing bucket of a step (terminal.md §2.5).
type Bucket uint8

const (
	BucketNone Bucket = iota
	BucketWait        // "Model wait" (ttft)
	BucketThinking
	BucketResponding
	BucketTools
)

// Timing is the per-step bucket totals, replayed from event times. While a
// bucket is open (Open != BucketNone) it has been accumulating since
// OpenSince; a renderer adds now−OpenSince to it. Totals are milliseconds.
type Timing struct {
	WaitMs, ThinkingMs, RespondingMs, ToolsMs int64
	Open                                      Bucket
	OpenSince                                 int64
}

// Footer is a step block's timing footer. Timing is shared by every block of
// the same turn:step. Completed is set by the step's step/end, whose time is
// CompletedAt (epoch ms); a block left behind by a second assistant/message
// in the same step never completes.
type Footer struct {
	Turn, Step  int64
	Timing      Timing
	Completed   bool
	CompletedAt int64
}

// ToolCard is a tool call and, once it arrives, its result. Orphan is set for
// a card created by a tool/result whose call was never seen; its Name is
// "tool". Arguments is the call's raw JSON string. Result is the result's
// content[0].content; Meta and Error are the result's meta and error, raw.
type ToolCard struct {
	CallID    string
	Name      string
	Arguments string
	Orphan    bool

	HasResult bool
	IsError   bool
	Result    []sessionlog.ContentBlock
	Meta      json.RawMessage
	Error     json.RawMessage
}

// Level is a notice's colour.
type Level uint8

const (
	LevelInfo Level = iota + 1
	LevelWarning
	LevelError
)

// Notice is a one-row notice. Text is not yet escaped.
type Notice struct {
	Level Level
	Text  string
}

// Marker is the compaction marker of one landed checkpoint. Its data comes
// from the compaction/summary the checkpoint cites (log.md §12.3), never from
// the checkpoint's payload; the pointer fields are nil when that summary is
// outside the projected window or malformed.
type Marker struct {
	Seq, Time          int64
	SummaryEventSeq    *int64
	Summary            *string
	ShadowedItemCount  *int
	ShadowedTokenCount *int64
}

// MarkerText is the marker row's text (terminal.md §4), 33 cells wide.
const MarkerText = "… earlier context was compacted …"

// Progress describes a standalone compaction open at the tail of the log
// (terminal.md §11.2): its start event's seq and time.
type Progress struct {
	StartSeq, StartTime int64
}

// Transcript is the human transcript of a log or a window of one: the items
// in display order, and the standalone compaction in progress, if any.
type Transcript struct {
	Items    []Item
	Progress *Progress
}

// Options are the projection's settings.
type Options struct {
	// EagerSteps selects upstream's eager step/start rule: step/start creates
	// an empty Assistant block at once. The default, the lazy rule, creates
	// the block at the step's first chunk, assistant/message or step/end.
	EagerSteps bool
	// Texts, when set, shares the long texts this projection decodes with
	// the other projections of the log given the same Texts.
	Texts *Texts
}

func (s *Step) joined(typ string) string {
	var parts []string
	for _, b := range s.Blocks {
		if b.Type == typ {
			parts = append(parts, b.Text)
		}
	}
	return trimJoin(parts)
}

// trimJoin joins parts with a blank line and trims the result the way
// JavaScript's String.prototype.trim does.
func trimJoin(parts []string) string {
	return sessionlog.TrimJS(strings.Join(parts, "\n\n"))
}

// SameItem reports whether two items have equal values, their revisions
// (which count edits in one projector) aside: what two projections of a
// log must agree on.
//
// It compares the items field by field, as reflect.DeepEqual would,
// following deeply only the pointers an item has set: copying both items
// for DeepEqual cost three allocations a comparison, and repro compares
// every item it draws (TestSameItemIsDeepEqual).
func SameItem(a, b *Item) bool {
	if a == b {
		return true
	}
	return a.ID == b.ID && a.Kind == b.Kind &&
		samePointee(a.Prompt, b.Prompt) && samePointee(a.Context, b.Context) &&
		samePointee(a.SessionRef, b.SessionRef) && samePointee(a.Step, b.Step) &&
		samePointee(a.Footer, b.Footer) && samePointee(a.Tool, b.Tool) &&
		samePointee(a.Notice, b.Notice) && samePointee(a.Marker, b.Marker) &&
		samePointee(a.Shell, b.Shell)
}

// samePointee is reflect.DeepEqual of two pointers, without a call for
// two nil ones.
func samePointee[T any](a, b *T) bool {
	if a == b {
		return true
	}
	return a != nil && b != nil && reflect.DeepEqual(a, b)
}
