package transcript

import "github.com/dshtest/dshtest/sessionlog"

// Standalone compaction progress (terminal.md §11.2).

// trProgress tracks the standalone compaction open at the tail: set by a
// turn:null start when none is open, cleared by a turn:null end and by
// session/end-seed (an earlier start belongs to a dead writer).
type trProgress struct {
	open bool
	p    Progress
}

func (t *trProgress) apply(d *trDecoded, e *sessionlog.Event) {
	switch {
	case d.compactStart:
		if !t.open {
			t.open, t.p = true, Progress{StartSeq: e.Seq, StartTime: e.Time}
		}
	case d.compactEnd, d.endSeed:
		t.open = false
	}
}

func (t *trProgress) get() *Progress {
	if !t.open {
		return nil
	}
	p := t.p
	return &p
}
