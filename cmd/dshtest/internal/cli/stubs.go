package cli

import (
	"github.com/dshtest/dshtest/projection"
)

func (a *app) emitScenario(path string, events []projection.Event, sizes []size, f *reproFlags) error {
	return usagef("--emit: not available yet")
}
