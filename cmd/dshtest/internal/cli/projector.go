package cli

import (
	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/terminal"
)

// projectorEnv selects the projection repro and view swap into the
// terminal. "surface" is a self-test: it reintroduces the seed's bug so
// that the invariants (and --minimize) can be seen to catch it.
const projectorEnv = "DSHTEST_PROJECTOR"

// projectionFor returns the terminal projection named by DSHTEST_PROJECTOR:
// the zero value (the real transcript projection) unless it is "surface".
func (a *app) projectionFor() (terminal.Projection, string, error) {
	switch v := a.getenv(projectorEnv); v {
	case "", "transcript":
		return terminal.Projection{}, "transcript", nil
	case "surface":
		return mutant.Surface(), "surface (self-test: the seed's bug)", nil
	default:
		return terminal.Projection{}, "", usagef("%s=%q: want transcript or surface", projectorEnv, v)
	}
}
