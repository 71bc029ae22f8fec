package transcript

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
)

// TestReplayReset: a replay reset after one log projects the next as a
// fresh one does, on generated logs of every shape in turn; and reset
// knows every field of trReplay (a field added must be emptied there).
func TestReplayReset(t *testing.T) {
	known := map[string]bool{"opts": true, "slots": true, "current": true, "lastDone": true, "cards": true,
		"shells": true, "advert": true, "summaries": true, "timing": true, "progress": true, "open": true,
		"off": true, "pool": true, "spare": true}
	rt := reflect.TypeFor[trReplay]()
	for i := range rt.NumField() {
		if name := rt.Field(i).Name; !known[name] {
			t.Errorf("trReplay has a field %s that reset does not know", name)
		}
	}
	r := newTrReplay(Options{})
	var free []*trSlotItem
	r.pool = &free
	for seed := range int64(3) {
		for _, sh := range sessiongen.Shapes() {
			cfg, ok := sh.Config(1500)
			if !ok {
				continue
			}
			events := sessiongen.Generate(seed, cfg)
			for i := range events {
				r.apply(&events[i])
			}
			got := r.finish()
			if diff := cmp.Diff(Project(events, Options{}), got); diff != "" {
				t.Fatalf("%s seed %d, after a reset (-fresh +reused):\n%s", sh, seed, diff)
			}
			r.release()
			r.reset()
		}
	}
}
