package transcript

// Timing buckets (terminal.md §2.5.1).

type trTimingRec struct {
	t     Timing
	ended bool
}

// trTimingTable holds the buckets of every turn:step, by value: a table of
// a record per step, as long as the log, holds no pointer the collector
// must follow (a zero record is an absent one).
type trTimingTable map[trKey]trTimingRec

func (tt trTimingTable) get(k trKey) Timing { return tt[k].t }

// ended reports whether k's step has ended: its buckets are final.
func (tt trTimingTable) ended(k trKey) bool { return tt[k].ended }

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
	r := (*tt)[d.key]
	if r.ended {
		return d.key, false
	}
	before := r.t
	switch d.op {
	case trOpStepEnd:
		r.t.trClose(at)
		r.ended = true
		made(tt)[d.key] = r
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
	if r.t == before {
		return d.key, false
	}
	made(tt)[d.key] = r
	return d.key, true
}
