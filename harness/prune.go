package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
)

// PruneMarker is inserted once at the cut of a pruned tool result
// (log.md §11).
const PruneMarker = logbuild.PruneMarker

// PruneConfig is the tool-result pruner's configuration. Lengths are
// Unicode code points.
type PruneConfig = logbuild.PruneConfig

// DefaultPruneConfig returns upstream's default: 8192, 4096 and 1024.
func DefaultPruneConfig() PruneConfig { return logbuild.DefaultPruneConfig() }

// pruneKeyError is the pruner's unknown-key error.
func pruneKeyError(k string) error {
	return fmt.Errorf("ToolResultPruneConfig: unknown key %q (allowed: thresholdChars, headChars, tailChars)", k)
}

// prunedData returns a tool/result's data with message.content[0].content
// pruned: the text of all its text blocks, measured together, is cut once;
// the pruned text takes the place of the first text block, later text
// blocks are dropped and other blocks keep their order. Everything else is
// unchanged, so the fold's content-only rule holds. ok is false when the
// result is within the threshold.
func prunedData(c PruneConfig, data json.RawMessage) (out json.RawMessage, textLen int, ok bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var d map[string]any
	if err := dec.Decode(&d); err != nil {
		return nil, 0, false, fmt.Errorf("prune: decode tool/result: %w", err)
	}
	msg, _ := d["message"].(map[string]any)
	content, _ := msg["content"].([]any)
	if len(content) != 1 {
		return nil, 0, false, fmt.Errorf("prune: tool/result has %d content blocks", len(content))
	}
	block, _ := content[0].(map[string]any)
	inner, _ := block["content"].([]any)
	var text strings.Builder
	for _, b := range inner {
		if m, _ := b.(map[string]any); m["type"] == "text" {
			s, _ := m["text"].(string)
			text.WriteString(s)
		}
	}
	pruned, ok := c.Prune(text.String())
	textLen = utf8.RuneCountInString(text.String())
	if !ok {
		return nil, textLen, false, nil
	}
	var blocks []any
	placed := false
	for _, b := range inner {
		m, _ := b.(map[string]any)
		if m["type"] != "text" {
			blocks = append(blocks, b)
			continue
		}
		if !placed {
			// The rest of d is a map, written in key order; so is this block.
			blocks = append(blocks, logbuild.SortedObject(logbuild.TextBlock(pruned)))
			placed = true
		}
	}
	block["content"] = blocks
	out, err = jsonobj.Marshal(d)
	return out, textLen, true, err
}
