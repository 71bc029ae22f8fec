package transcript

import (
	"encoding/json"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
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
	fs, ok := fastjson.ScanSummary(e.Data)
	if !ok {
		if fs, ok = trSummarySlow(e.Data); !ok {
			return nil
		}
	}
	sum := trSummary{items: len(fs.ShadowedSeqs), tokens: fs.ShadowedTokenCount}
	var text []byte
	for _, b := range fs.Summary {
		if b.Type == "text" {
			text = append(text, b.Text...)
		}
	}
	if str := string(text); sessionlog.TrimJS(str) != "" {
		sum.text = &str
	}
	return &sum
}

// trSummarySlow is fastjson.ScanSummary by json.Unmarshal.
func trSummarySlow(data json.RawMessage) (fastjson.Summary, bool) {
	var m map[string]json.RawMessage
	var sum fastjson.Summary
	if json.Unmarshal(data, &m) != nil ||
		json.Unmarshal(m["summary"], &sum.Summary) != nil || m["summary"] == nil ||
		json.Unmarshal(m["shadowedSeqs"], &sum.ShadowedSeqs) != nil || sum.ShadowedSeqs == nil ||
		!trNumber(m["shadowedTokenCount"]) || json.Unmarshal(m["shadowedTokenCount"], &sum.ShadowedTokenCount) != nil {
		return fastjson.Summary{}, false
	}
	return sum, true
}

// checkpoint is the decoding of checkpoint e, whose sourceEventSeqs are
// seqs: its marker, with data from the first compaction summary among
// seqs that was seen before it. The windows of a log decode e's seqs once
// and make each window's marker from its own summaries.
func (s trSummaries) checkpoint(e *sessionlog.Event, seqs []int64) trDecoded {
	return trDecoded{op: trOpItem, item: Item{ID: ItemID{e.Seq, PartMain}, Kind: KindMarker, Marker: s.marker(e, seqs)}}
}

// marker is checkpoint's marker.
func (s trSummaries) marker(e *sessionlog.Event, seqs []int64) *Marker {
	m := &Marker{Seq: e.Seq, Time: e.Time}
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
