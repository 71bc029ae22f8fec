package logbuild

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/sessionlog"
)

// CompactionTypes are the event types of a compaction transaction in one
// vocabulary.
type CompactionTypes struct{ Start, Summary, End string }

// Compaction returns the compaction event types of the older vocabulary
// (compact/*) or the newer one (compaction/*).
func Compaction(older bool) CompactionTypes {
	if older {
		return CompactionTypes{sessionlog.TypeCompactStart, sessionlog.TypeCompactSummary, sessionlog.TypeCompactEnd}
	}
	return CompactionTypes{sessionlog.TypeCompactionStart, sessionlog.TypeCompactionSummary, sessionlog.TypeCompactionEnd}
}

// Tx identifies a compaction transaction. The older vocabulary carries
// neither id; in the newer one SourceCommandID is written only when set.
type Tx struct {
	Older           bool
	CompactionID    string
	SourceCommandID string
}

// ids appends the transaction's ids to o.
func (tx Tx) ids(o jsonobj.Object) jsonobj.Object {
	if tx.Older {
		return o
	}
	o = append(o, jsonobj.Field{"compactionId", tx.CompactionID})
	if tx.SourceCommandID != "" {
		o = append(o, jsonobj.Field{"sourceCommandId", tx.SourceCommandID})
	}
	return o
}

// Start is the payload of compaction/start (compact/start). turn is the
// owning turn, or nil (written as null) for a standalone compaction.
func (tx Tx) Start(turn any) jsonobj.Object { return append(tx.ids(nil), jsonobj.Field{"turn", turn}) }

// End is the payload of compaction/end (compact/end); errText set makes it
// a failed end.
func (tx Tx) End(turn any, errText *string) jsonobj.Object {
	o := append(tx.ids(nil), jsonobj.Field{"turn", turn})
	if errText != nil {
		o = append(o, jsonobj.Field{"error", *errText})
	}
	return o
}

// Summary is a compaction summary's content (log.md §9.3). Optional
// members are written when set.
type Summary struct {
	Summary []jsonobj.Object
	// RawOutput and LLMStreamCall (newer vocabulary only).
	RawOutput     []jsonobj.Object
	LLMStreamCall bool
	Shadowed      []int64 // the shadowed surface nodes, in surface order
	Start, End    int64   // shadowedRange
	Tokens        int64
	Provider      string
	Model         string
	MaxTokens     int64 // with Usage; 0 writes neither
	Usage         any
}

// Data is the payload of compaction/summary (compact/summary).
func (tx Tx) Data(s Summary) jsonobj.Object {
	o := append(tx.ids(nil), jsonobj.Field{"summary", s.Summary})
	if s.RawOutput != nil {
		o = append(o, jsonobj.Field{"rawOutput", s.RawOutput}, jsonobj.Field{"llmStreamCall", s.LLMStreamCall})
	}
	o = append(o,
		jsonobj.Field{"shadowedRange", Range(s.Start, s.End)},
		jsonobj.Field{"shadowedSeqs", s.Shadowed},
		jsonobj.Field{"shadowedTokenCount", s.Tokens},
		jsonobj.Field{"provider", s.Provider}, jsonobj.Field{"model", s.Model})
	if s.MaxTokens != 0 {
		o = append(o, jsonobj.Field{"maxTokens", s.MaxTokens}, jsonobj.Field{"usage", s.Usage})
	}
	return o
}

// CheckpointContent is the content of a compaction checkpoint (log.md
// §9.4): the preamble, the summary's blocks, and the closing tag.
func CheckpointContent(summary []jsonobj.Object) []jsonobj.Object {
	out := []jsonobj.Object{TextBlock(sessionlog.CheckpointPreamble + "\n\n<compacted-summary>")}
	out = append(out, summary...)
	return append(out, TextBlock("</compacted-summary>"))
}

// CheckpointSources are a checkpoint's sourceEventSeqs: its compaction's
// start and summary, then the shadowed nodes.
func CheckpointSources(startSeq, summarySeq int64, shadowed []int64) []int64 {
	return append([]int64{startSeq, summarySeq}, shadowed...)
}
