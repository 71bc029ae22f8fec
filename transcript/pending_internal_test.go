package transcript

import (
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
)

// TestPendingFootersBounded: the footers both paths keep as pending (their
// buckets still run) are those of steps still in the transcript, so what
// Settled reads stays as small as the steps in flight, not as long as the
// log: a step removed before its timing ended used to stay there for good,
// and a million events of short turns spent a third of repro's CPU on it.
func TestPendingFootersBounded(t *testing.T) {
	count := func(m map[trKey][]*prHandle) int {
		n := 0
		for _, hs := range m {
			n += len(hs)
		}
		return n
	}
	countReplay := func(m map[trKey][]*trSlotItem) int {
		n := 0
		for _, hs := range m {
			for _, h := range hs {
				if h.removed {
					t.Fatalf("a removed footer is pending in the replay (turn %d, step %d)", h.item.Footer.Turn, h.item.Footer.Step)
				}
			}
			n += len(hs)
		}
		return n
	}
	for _, sh := range sessiongen.Shapes() {
		cfg, ok := sh.Config(20000)
		if !ok {
			continue
		}
		t.Run(string(sh), func(t *testing.T) {
			events := sessiongen.Generate(1, cfg)
			p, r := NewProjector(Options{}), newTrReplay(Options{})
			most, mostReplay := 0, 0
			for i := range events {
				p.Apply(&events[i])
				r.apply(&events[i])
				for _, hs := range p.footers {
					for _, h := range hs {
						if h.removed {
							t.Fatalf("after seq %d: a removed footer is pending in the projector", events[i].Seq)
						}
					}
				}
				most, mostReplay = max(most, count(p.footers)), max(mostReplay, countReplay(r.open))
			}
			t.Logf("%d events: at most %d pending footers live, %d in the replay", len(events), most, mostReplay)
			if most > 8 || mostReplay > 8 {
				t.Errorf("at most %d pending footers live, %d in the replay: they grow with the log", most, mostReplay)
			}
		})
	}
}
