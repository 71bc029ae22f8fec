package invariant

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file is one-marker and no-payload: a compaction checkpoint shows as
// one marker, and never its payload.

// A document's marker rows are counted in its norm (searchDoc), however
// the marker wrapped, less the times conversation text itself says the
// same words (quotedMarkers).

// quotedMarkers counts the marker's words in the texts a transcript shows.
func quotedMarkers(shown []shownText) int {
	n := 0
	for _, s := range shown {
		n += s.markers
	}
	return n
}

func (c *Checker) checkMarkers() (bool, string) {
	want := len(c.checkpointSeqs)
	var bad []string
	for i, sz := range c.sizes {
		r, l := c.sized[i].replayMarkers, c.sized[i].liveMarkers
		if r != want || l != want {
			bad = append(bad, fmt.Sprintf("%s: replay %d, live %d", sz, r, l))
		}
	}
	if len(bad) > 0 {
		return false, fmt.Sprintf("want %s for %s; %s", words.Plural(want, "marker"), words.Plural(want, "landed checkpoint"), strings.Join(bad, "; "))
	}
	return true, fmt.Sprintf("%s for %s", words.Plural(want, "marker"), words.Plural(want, "landed checkpoint"))
}

// payloadTexts returns the normalised pieces of a checkpoint's payload
// that must never show: the whole content, the preamble, and every text
// block and line long enough to be telling (payloadMin letters and
// digits), unless the log shows the same text as conversation (a summary
// may quote a prompt). conversation holds the keys (normKey with seed) of
// the norms of the log's expected texts.
func payloadTexts(conversation map[uint64]bool, seed maphash.Seed, cp *sessionlog.Event) []string {
	var m sessionlog.Message
	if json.Unmarshal(cp.Data, &m) != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{} // out's, which a checkpoint of many lines made a quadratic search
	add := func(s string) {
		n := norm(s)
		if len(n) >= payloadMin && !conversation[normKey(seed, n)] && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	add(sessionlog.ContentText(m.Content))
	for _, b := range m.Content {
		if b.Type == "text" {
			if strings.Contains(b.Text, sessionlog.CheckpointPreamble) {
				add(sessionlog.CheckpointPreamble)
			}
			add(b.Text)
			// A renderer may drop a frame (<tag>…</tag>) around the text:
			// each telling line on its own must not show either.
			for _, l := range strings.Split(b.Text, "\n") {
				add(l)
			}
		}
	}
	return out
}

// payloads finds the payload pieces of the log's checkpoints in a
// document: owner[p] is the index (among the log's checkpoints) of the
// checkpoint piece p belongs to.
type payloads struct {
	*pieceFinder
	owner []int
}

func (c *Checker) payloadFinder() *payloads {
	conversation := map[uint64]bool{}
	for _, w := range c.expected() {
		conversation[w.whole] = true
	}
	var pieces []string
	var owner []int
	for k := range c.scanned.checkpoints {
		for _, p := range payloadTexts(conversation, c.seed, &c.scanned.checkpoints[k]) {
			pieces = append(pieces, p)
			owner = append(owner, k)
		}
	}
	return &payloads{newPieceFinder(pieces, payloadMin), owner}
}

func (c *Checker) checkNoPayload() (bool, string) {
	var bad []string
	for k, seq := range c.checkpointSeqs {
		for i, sz := range c.sizes {
			if c.sized[i].payload[k] {
				bad = append(bad, fmt.Sprintf("checkpoint seq %d shown at %s", seq, sz))
			}
		}
	}
	if len(bad) > 0 {
		return false, strings.Join(bad, "; ")
	}
	return true, fmt.Sprintf("no payload of %s shown", words.Plural(len(c.checkpointSeqs), "checkpoint"))
}
