package cli

import (
	"github.com/dshtest/dshtest/projection"
)

func (a *app) minimizeLog(lf *logFile, f *reproFlags, c *checker) (*minimized, []projection.Event, error) {
	return nil, nil, usagef("--minimize: not available yet")
}

func (a *app) emitScenario(path string, events []projection.Event, sizes []size, f *reproFlags) error {
	return usagef("--emit: not available yet")
}
