package terminal

import (
	"fmt"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// countingLive counts the events applied to the live projectors it makes.
type countingLive struct {
	made, applied int
}

func (c *countingLive) projection() Projection {
	return Projection{Live: func(o transcript.Options) LiveProjector {
		c.made++
		return countingProjector{transcript.NewProjector(o), c}
	}}
}

type countingProjector struct {
	*transcript.Projector
	c *countingLive
}

func (p countingProjector) Apply(e *sessionlog.Event) transcript.Change {
	p.c.applied++
	return p.Projector.Apply(e)
}

// TestLivePrimedLazily checks that a mount does not project the log a
// second time for the live path: the live projector is made and primed
// with the mounted log at the first live event, once, and the view is then
// what a replay of the longer log shows. A resume drops it again.
func TestLivePrimedLazily(t *testing.T) {
	log := synthLog(14 * 51)
	var c countingLive
	cfg := benchConfig(log[:500])
	cfg.Projection = c.projection()
	m := New(cfg)
	m.Screen()
	m.Update(ctrlR)
	m.Update(ctrlR)
	m.Screen()
	if c.made != 0 || c.applied != 0 {
		t.Fatalf("after mount and toggles: %d live projectors made, %d events applied; want none", c.made, c.applied)
	}
	for _, e := range log[500:600] {
		m.Update(EventMsg{Event: e})
	}
	if c.made != 1 || c.applied != 600 {
		t.Fatalf("after 100 live events: %d live projectors made, %d events applied; want 1 and 600", c.made, c.applied)
	}
	want := New(benchConfig(log[:600]))
	if a, b := fmt.Sprint(m.Document().Lines), fmt.Sprint(want.Document().Lines); a != b {
		t.Errorf("live after a lazy prime differs from replay:\n%s", lineDiffText(m.Document().Lines, want.Document().Lines))
	}
	m.Update(ResumeMsg{Log: log[:300]})
	m.Update(EventMsg{Event: log[300]})
	if c.made != 2 || c.applied != 600+301 {
		t.Fatalf("after a resume and a live event: %d live projectors made, %d events applied; want 2 and 901", c.made, c.applied)
	}
}
