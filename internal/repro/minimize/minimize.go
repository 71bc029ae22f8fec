// Package minimize shrinks a failing session log by delta debugging.
//
// [Minimize] removes events from a log while the log stays valid (it loads:
// envelope, message shapes and surface fold) and a caller's failure
// predicate still holds. Every candidate is a real log: seqs are renumbered
// contiguously, replace ranges and sourceEventSeqs are remapped, a replace
// whose start or end node was removed is narrowed to the nodes it still
// shadows, and one that shadows nothing kept is removed with them (a
// cascade). Candidates that do not load are skipped.
//
// The algorithm is Zeller's ddmin over the event list followed by single
// event removals until no single removal keeps the failure (the result is
// 1-minimal with respect to the cascade).
package minimize

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
)

// Minimize returns a subsequence of events, renumbered and remapped, that
// is a valid log on which stillFails returns true, and from which no single
// event can be removed with that still so. If stillFails(events) is false
// or events does not load, events is returned unchanged.
//
// stillFails must be deterministic. It is called with fresh slices it may
// keep.
func Minimize(events []sessionlog.Event, stillFails func([]sessionlog.Event) bool) []sessionlog.Event {
	m := &minimizer{orig: events, fails: stillFails, cache: map[string]bool{}, shadow: shadowOf(events)}
	all := make([]int, len(events))
	for i := range all {
		all[i] = i
	}
	kept, log, ok := m.build(all)
	if !ok || !m.fails(log) {
		return events
	}
	kept = m.ddmin(kept)
	kept = m.singles(kept)
	log, _, _ = m.rebuild(kept)
	return log
}

type minimizer struct {
	orig   []sessionlog.Event
	shadow map[int64][]int64
	fails  func([]sessionlog.Event) bool
	cache  map[string]bool
	// tests counts predicate calls (cache misses).
	tests int
}

// try reports whether the candidate keeping the original indices want
// (before the cascade) is valid and still fails; on success it returns the
// indices actually kept.
func (m *minimizer) try(want []int) ([]int, bool) {
	kept, log, ok := m.build(want)
	if !ok {
		return nil, false
	}
	key := keyOf(kept)
	if r, seen := m.cache[key]; seen {
		return kept, r
	}
	m.tests++
	r := m.fails(log)
	m.cache[key] = r
	return kept, r
}

func keyOf(kept []int) string {
	b := make([]byte, 0, len(kept)*3)
	for _, k := range kept {
		b = append(b, byte(k), byte(k>>8), byte(k>>16))
	}
	return string(b)
}

// ddmin is Zeller's minimising delta debugging over complements.
func (m *minimizer) ddmin(c []int) []int {
	n := 2
	for len(c) >= 2 {
		n = min(n, len(c))
		reduced := false
		size := (len(c) + n - 1) / n
		for start := 0; start < len(c); start += size {
			end := min(start+size, len(c))
			// Try the chunk alone first when it is small enough to be the
			// answer, then its complement.
			if kept, ok := m.try(c[start:end:end]); ok && len(kept) < len(c) {
				c, n, reduced = kept, 2, true
				break
			}
			comp := make([]int, 0, len(c)-(end-start))
			comp = append(comp, c[:start]...)
			comp = append(comp, c[end:]...)
			if kept, ok := m.try(comp); ok && len(kept) < len(c) {
				c, n, reduced = kept, max(n-1, 2), true
				break
			}
		}
		if reduced {
			continue
		}
		if n >= len(c) {
			break
		}
		n = min(2*n, len(c))
	}
	return c
}

// singles removes one event at a time until no removal keeps the failure.
func (m *minimizer) singles(c []int) []int {
	for changed := true; changed; {
		changed = false
		for i := len(c) - 1; i >= 0 && i < len(c); i-- {
			cand := slices.Delete(slices.Clone(c), i, i+1)
			if kept, ok := m.try(cand); ok && len(kept) < len(c) {
				c, changed = kept, true
			}
		}
	}
	return c
}

// build applies the cascade to want and renumbers. ok is false when the
// result does not load.
func (m *minimizer) build(want []int) (kept []int, log []sessionlog.Event, ok bool) {
	keep := make(map[int]bool, len(want))
	for _, i := range want {
		keep[i] = true
	}
	// Cascade: a replacement that shadowed only removed nodes goes too.
	for i := range m.orig {
		if !keep[i] || m.orig[i].Op().Kind != sessionlog.OpReplace {
			continue
		}
		left := false
		for _, s := range m.shadow[m.orig[i].Seq] {
			left = left || keep[int(s)]
		}
		keep[i] = left
	}
	for i := range m.orig {
		if keep[i] {
			kept = append(kept, i)
		}
	}
	log, _, ok = m.rebuild(kept)
	if !ok {
		return nil, nil, false
	}
	if _, err := surface.Load(log, func() int64 { return 0 }); err != nil {
		return nil, nil, false
	}
	return kept, log, true
}

// rebuild renumbers the kept original indices into a fresh log.
func (m *minimizer) rebuild(kept []int) ([]sessionlog.Event, map[int64]int64, bool) {
	return renumber(m.orig, kept, m.shadow)
}

// shadowOf maps each replacement's seq to the nodes it shadowed, in surface
// order, as the fold of the whole log saw them. It is empty for a log that
// does not fold.
func shadowOf(events []sessionlog.Event) map[int64][]int64 {
	out := map[int64][]int64{}
	fold, err := surface.Fold(events, 0)
	if err != nil {
		return out
	}
	for _, r := range fold.Replacements {
		out[r.Seq] = r.ShadowedSeqs
	}
	return out
}

// Renumber returns the events of orig at the indices kept (ascending) as a
// log with contiguous seqs from 0. Seq references are remapped: surfaceOp
// replace start and end, sourceEventSeqs (entries naming a dropped event are
// dropped; a list left empty on a type that may not have an empty one cites
// the event just before instead), and the shadowedRange and shadowedSeqs of
// compaction summaries and prunes. ok is false when a replace names a
// dropped event. The map takes old seqs to new ones.
//
// A replace whose start or end was dropped is narrowed to the first and
// last kept node of the run it shadowed (in orig's fold); ok is false when
// it shadowed no kept node. orig must fold for that; if it does not, such a
// replace makes ok false.
func Renumber(orig []sessionlog.Event, kept []int) (log []sessionlog.Event, remap map[int64]int64, ok bool) {
	return renumber(orig, kept, shadowOf(orig))
}

func renumber(orig []sessionlog.Event, kept []int, shadow map[int64][]int64) (log []sessionlog.Event, remap map[int64]int64, ok bool) {
	remap = make(map[int64]int64, len(kept))
	for n, i := range kept {
		remap[orig[i].Seq] = int64(n)
	}
	log = make([]sessionlog.Event, 0, len(kept))
	for n, i := range kept {
		e := orig[i]
		e.Seq = int64(n)
		if op := e.Op(); op.Kind == sessionlog.OpReplace {
			s, ok1 := remap[op.Start]
			t, ok2 := remap[op.End]
			if !ok1 || !ok2 {
				left := mapSeqs(shadow[orig[i].Seq], remap)
				if len(left) == 0 {
					return nil, nil, false
				}
				s, t = left[0], left[len(left)-1]
			}
			e.SurfaceOp = sessionlog.ReplaceOp(s, t)
		}
		if e.SourceEventSeqs != nil {
			if srcs, ok := e.Sources(); ok {
				mapped := mapSeqs(srcs, remap)
				if len(mapped) == 0 && len(srcs) > 0 && e.Type != sessionlog.TypeAssistantMessage && n > 0 {
					mapped = []int64{int64(n - 1)}
				}
				e.SourceEventSeqs = seqList(mapped)
			}
		}
		switch sessionlog.Canonical(e.Type) {
		case sessionlog.TypeCompactionSummary, sessionlog.TypeCompactionPrune:
			e.Data = remapShadowed(e.Data, remap)
		}
		log = append(log, e)
	}
	return log, remap, true
}

func mapSeqs(seqs []int64, remap map[int64]int64) []int64 {
	out := make([]int64, 0, len(seqs))
	for _, s := range seqs {
		if t, ok := remap[s]; ok {
			out = append(out, t)
		}
	}
	return out
}

func seqList(seqs []int64) json.RawMessage {
	b, _ := json.Marshal(seqs)
	if seqs == nil {
		b = []byte("[]")
	}
	return b
}

// remapShadowed rewrites the top-level shadowedSeqs and shadowedRange of a
// compaction summary or prune payload, keeping every other field's bytes
// and the key order. shadowedRange becomes the first and last remaining
// shadowed seq; with none left, it keeps its remapped ends where they
// survive.
func remapShadowed(data json.RawMessage, remap map[int64]int64) json.RawMessage {
	fields, ok := objectFields(data)
	if !ok {
		return data
	}
	var seqs []int64
	for i, f := range fields {
		if f.key == "shadowedSeqs" {
			var old []int64
			if json.Unmarshal(f.val, &old) != nil {
				return data
			}
			seqs = mapSeqs(old, remap)
			fields[i].val = seqList(seqs)
		}
	}
	for i, f := range fields {
		if f.key != "shadowedRange" {
			continue
		}
		var r sessionlog.Range
		if json.Unmarshal(f.val, &r) != nil {
			continue
		}
		if len(seqs) > 0 {
			r = sessionlog.Range{Start: seqs[0], End: seqs[len(seqs)-1]}
		} else {
			if s, ok := remap[r.Start]; ok {
				r.Start = s
			}
			if s, ok := remap[r.End]; ok {
				r.End = s
			}
		}
		fields[i].val, _ = json.Marshal(r)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

type field struct {
	key string
	val json.RawMessage
}

func objectFields(raw json.RawMessage) ([]field, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out []field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, field{k, v})
	}
	return out, true
}
