package transcript

import "github.com/dshtest/dshtest/sessionlog"

// Decoded is an event decoded once for several projections of one log
// (Decoder): the replay, the history pages' windows and the live
// projector each apply it (ApplyDecoded) instead of decoding the event
// again, which on a log of long tool output was a seventh of repro's
// time. It is read only, and may be read from several goroutines at once;
// a projection copies what of it it edits.
type Decoded struct{ d trDecoded }

// A Decoder decodes the events of one log, in order, as the live projector
// decodes them (a chunk whole, though a replay reads only where it goes and
// what it times: the projector fed beside the replays would decode it
// again). It keeps the compaction summaries a checkpoint's marker cites
// and shares texts through its Options' Texts. A projection applies its
// decodings given the same Options, fed the same log from its start.
type Decoder struct {
	summaries trSummaries
	texts     *Texts
}

// NewDecoder returns a Decoder for a log yet to be read.
func NewDecoder(opts Options) *Decoder {
	return &Decoder{summaries: trSummaries{}, texts: opts.Texts}
}

// Decode decodes e, the log's next event, into d.
func (dc *Decoder) Decode(e *sessionlog.Event, d *Decoded) {
	d.d = trDecode(e, &dc.summaries, false)
	dc.texts.share(&d.d)
}

// ApplyDecoded is Apply of e decoded by a Decoder (see Decoded).
func (r *Replay) ApplyDecoded(e *sessionlog.Event, d *Decoded) {
	if d.d.summarized {
		made(&r.r.summaries)[e.Seq] = d.d.summary
	}
	r.r.applyDecoded(e, &d.d)
}
