package transcript

// Timing buckets (terminal.md §2.5.1).

type trTimingRec struct {
	t     Timing
	ended bool
}

// trTimingTable holds the buckets of every turn:step. It holds no pointer,
// so the collector never scans it: a log has a record per step.
type trTimingTable struct {
	index map[trKey]int32 // recs' index of a key's record
	recs  []trTimingRec
}

func (tt *trTimingTable) lookup(k trKey) (trTimingRec, bool) {
	i, ok := tt.index[k]
	if !ok {
		return trTimingRec{}, false
	}
	return tt.recs[i], true
}

func (tt *trTimingTable) get(k trKey) Timing {
	r, _ := tt.lookup(k)
	return r.t
}

// rec returns k's record, made if there is none; it is valid until the
// next call.
func (tt *trTimingTable) rec(k trKey) *trTimingRec {
	i, ok := tt.index[k]
	if !ok {
		if tt.index == nil {
			tt.index = map[trKey]int32{}
		}
		i = int32(len(tt.recs))
		tt.index[k] = i
		tt.recs = append(tt.recs, trTimingRec{})
	}
	return &tt.recs[i]
}

func (t *Timing) trClose(at int64) {
	if t.Open == BucketNone {
		return
	}
	gap := max(at-t.OpenSince, 0)
	switch t.Open {
	case BucketWait:
		t.WaitMs += gap
	case BucketThinking:
		t.ThinkingMs += gap
	case BucketResponding:
		t.RespondingMs += gap
	case BucketTools:
		t.ToolsMs += gap
	}
	t.Open, t.OpenSince = BucketNone, 0
}

func (t *Timing) trEnter(b Bucket, at int64) {
	if t.Open == b {
		return
	}
	t.trClose(at)
	t.Open, t.OpenSince = b, at
}

// apply moves the buckets of d's step and reports which key changed.
func (tt *trTimingTable) apply(d *trDecoded, at int64) (trKey, bool) {
	var enter Bucket
	switch d.op {
	case trOpStepStart:
		enter = BucketWait
	case trOpToolCall:
		enter = BucketTools
	case trOpChunk, trOpStepEnd:
	default:
		return trKey{}, false
	}
	r := tt.rec(d.key)
	if r.ended {
		return d.key, false
	}
	before := r.t
	switch d.op {
	case trOpStepEnd:
		r.t.trClose(at)
		r.ended = true
		return d.key, true // ended changes what later events may do
	case trOpChunk:
		if r.t.Open == BucketWait {
			r.t.trClose(at)
		}
		switch {
		case d.chunk.Type == "reasoning-delta" || (d.chunk.Type == "block-start" && d.chunk.BlockType == "reasoning"):
			r.t.trEnter(BucketThinking, at)
		case d.chunk.Type == "text-delta" || (d.chunk.Type == "block-start" && d.chunk.BlockType == "text"):
			r.t.trEnter(BucketResponding, at)
		}
	default:
		r.t.trEnter(enter, at)
	}
	return d.key, r.t != before
}
