package transcript

import (
	"encoding/json"

	"github.com/dshtest/dshtest/sessionlog"
)

// Compaction summaries and markers (log.md §12.3).

// trSummaries records the compaction summaries seen so far, by seq. A nil
// entry is a malformed summary.
type trSummaries map[int64]*trSummary

type trSummary struct {
	text   *string
	items  int
	tokens int64
}

// trDecodeSummary decodes a compaction summary; nil when it is malformed.
func trDecodeSummary(e *sessionlog.Event) *trSummary {
	var m map[string]json.RawMessage
	var sum trSummary
	var blocks []sessionlog.ContentBlock
	var seqs []int64
	if json.Unmarshal(e.Data, &m) != nil ||
		json.Unmarshal(m["summary"], &blocks) != nil || m["summary"] == nil ||
		json.Unmarshal(m["shadowedSeqs"], &seqs) != nil || seqs == nil ||
		!trNumber(m["shadowedTokenCount"]) || json.Unmarshal(m["shadowedTokenCount"], &sum.tokens) != nil {
		return nil
	}
	var text []byte
	for _, b := range blocks {
		if b.Type == "text" {
			text = append(text, b.Text...)
		}
	}
	if str := string(text); sessionlog.TrimJS(str) != "" {
		sum.text = &str
	}
	sum.items = len(seqs)
	return &sum
}

// marker is the marker of checkpoint e, with data from the first
// compaction summary among its sourceEventSeqs that was seen before it.
func (s trSummaries) marker(e *sessionlog.Event) *Marker {
	m := &Marker{Seq: e.Seq, Time: e.Time}
	seqs, _ := e.Sources()
	for _, seq := range seqs {
		sum, ok := s[seq]
		if !ok {
			continue
		}
		if sum != nil {
			items, tokens := sum.items, sum.tokens
			m.SummaryEventSeq, m.Summary, m.ShadowedItemCount, m.ShadowedTokenCount = &seq, sum.text, &items, &tokens
		}
		break
	}
	return m
}
