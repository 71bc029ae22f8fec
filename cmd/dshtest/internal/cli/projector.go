package cli

import (
	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/terminal"
)

// projectorEnv selects the projection run, record, repro and view swap into the
// terminal. "surface" is a self-test: it draws the terminal from the model surface (the
// bug dshtest exists to catch: a compaction erases what was read) so
// that the invariants (and --minimize) can be seen to catch it.
const projectorEnv = "DSHTEST_PROJECTOR"

// projectionFor returns the terminal projection named by DSHTEST_PROJECTOR:
// the zero value (the real transcript projection) unless it is "surface".
func (a *app) projectionFor() (terminal.Projection, string, error) {
	switch v := a.getenv(projectorEnv); v {
	case "", "transcript":
		return terminal.Projection{}, "transcript", nil
	case "surface":
		return mutant.Surface(), "surface (self-test: the terminal drawn from the model surface)", nil
	default:
		return terminal.Projection{}, "", usagef("%s=%q: want transcript or surface", projectorEnv, v)
	}
}
