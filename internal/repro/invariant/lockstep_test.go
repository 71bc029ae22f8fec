package invariant

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// TestLockstepAgreesWithWhole: comparing the two paths item by item as
// the log is read reaches the verdicts, details included, of comparing
// their whole documents row by row: on the example logs and generated
// logs of every shape, under both step rules and at sizes down to one
// column, with the real projection, one that draws the surface and one
// whose live path stops early (where the paths part).
func TestLockstepAgreesWithWhole(t *testing.T) {
	logs := map[string][]sessionlog.Event{}
	for _, name := range synthlog.TestdataLogs(t, "../../../sessionlog/testdata") {
		logs[name] = synthlog.LoadTestdata(t, "../../../sessionlog/testdata", name)
	}
	n := 800
	if testing.Short() {
		n = 300
	}
	for _, shape := range sessiongen.Shapes() {
		if cfg, ok := shape.Config(n); ok {
			logs[string(shape)] = sessiongen.Generate(3, cfg)
		}
	}
	sizes := []Size{{80, 24}, {33, 12}, {1, 3}}
	for name, events := range logs {
		if len(events) == 0 {
			continue
		}
		projections := map[string]terminal.Projection{"transcript": {}, "surface": mutant.Surface(),
			"skipping": {Live: func(o transcript.Options) terminal.LiveProjector {
				return skippingLive{transcript.NewProjector(o), events[len(events)/2].Seq}
			}}}
		for pname, proj := range projections {
			for _, eager := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/eager=%v", name, pname, eager), func(t *testing.T) {
					opts := transcript.Options{EagerSteps: eager}
					whole := New(events, sizes, opts, proj, "gen")
					whole.whole = true
					want := whole.CheckAll()
					got := Read(sliceSource(events), sizes, opts, proj, func() string { return "gen" }).CheckAll()
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("in step vs whole documents (-whole +in step):\n%s", diff)
					}
				})
			}
		}
	}
}
