package logbuild

import (
	"fmt"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

// PruneMarker is inserted once at the cut of a pruned tool result
// (log.md §11).
const PruneMarker = "\n\n[... tool result middle pruned ...]\n\n"

// PruneConfig is the tool-result pruner's configuration. Lengths are
// Unicode code points.
type PruneConfig struct {
	ThresholdChars, HeadChars, TailChars int
}

// DefaultPruneConfig returns upstream's default: 8192, 4096 and 1024.
func DefaultPruneConfig() PruneConfig {
	return PruneConfig{ThresholdChars: 8192, HeadChars: 4096, TailChars: 1024}
}

// Check is the pruner's config check, with the spec's text.
func (c PruneConfig) Check() error {
	n := c.HeadChars + utf8.RuneCountInString(PruneMarker) + c.TailChars
	if n > c.ThresholdChars {
		return fmt.Errorf("ToolResultPruneConfig: headChars + marker + tailChars (%d) must be at most thresholdChars (%d)", n, c.ThresholdChars)
	}
	return nil
}

// Prune cuts text to head + marker + tail code points when it is over the
// threshold; ok is false when it is within it.
func (c PruneConfig) Prune(text string) (string, bool) {
	r := []rune(text)
	if len(r) <= c.ThresholdChars {
		return text, false
	}
	return string(r[:c.HeadChars]) + PruneMarker + string(r[len(r)-c.TailChars:]), true
}

// PruneRecord is the payload of compaction/prune (newer vocabulary only)
// for one pruned tool result at seq.
func PruneRecord(seq, tokens int64) jsonobj.Object {
	return jsonobj.Object{
		{"shadowedRange", Range(seq, seq)},
		{"shadowedSeqs", []int64{seq}},
		{"shadowedTokenCount", tokens},
	}
}
