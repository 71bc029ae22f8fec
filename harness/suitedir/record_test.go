package suitedir_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/terminal"
)

// staleCmp has a snapshot with no fixture yet and a cmp step whose archive
// file is stale: one record re-records both.
const staleCmp = `turn 1
step 1
user 'Start the task' --as first
assistant 'Started.' --as started
step-end
compact first started --summary 'The task was started.'
turn-end
mount 60 12
snapshot stale-60x12
history --max 2
cmp stdout history.txt

-- history.txt --
stale
`

// pinsBug asserts an invariant the self-test projection breaks.
const pinsBug = "turn 1\nuser 'Start'\nassistant 'Done.' --as a\ncompact a a --summary 'S.'\ninvariants --size 60x12 no-lost-message\nmount 60 12\nsnapshot inv-60x12\n"

// TestRecordScreensAndCmpFiles: Record (harness.Rerecord underneath)
// classifies the new screen as created and the re-recorded archive as a
// changed scenario file, and writes nothing itself.
func TestRecordScreensAndCmpFiles(t *testing.T) {
	d := folder(t, map[string]string{"stale": staleCmp})
	r, err := d.Record([]string{"stale"}, true, terminal.Projection{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"fixtures/stale-60x12.screen", "scenarios/stale.txtar"}, r.Writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if got := string(r.Data("scenarios/stale.txtar")); strings.Contains(got, "\nstale\n") {
		t.Errorf("the cmp file was not re-recorded:\n%s", got)
	}
	if _, err := os.Stat(d.Fixture("stale-60x12")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Record wrote into the folder: %v", err)
	}
}

// TestRecordRefusesInvariants: a failed invariants step refuses the
// record, naming its scenario file and checks; without the bug it records.
func TestRecordRefusesInvariants(t *testing.T) {
	d := folder(t, map[string]string{"inv": pinsBug})
	_, err := d.Record([]string{"inv"}, true, mutant.Surface())
	var inv *suitedir.InvariantsFailed
	if !errors.As(err, &inv) {
		t.Fatalf("under the self-test projection: %v, want *InvariantsFailed", err)
	}
	if len(inv.Failures) != 1 || inv.Failures[0].File != "scenarios/inv.txtar" ||
		!cmp.Equal(inv.Failures[0].Checks, []string{"no-lost-message"}) {
		t.Errorf("failures %+v", inv.Failures)
	}
	if _, err := d.Record([]string{"inv"}, true, terminal.Projection{}); err != nil {
		t.Errorf("with the real projection: %v", err)
	}
}
