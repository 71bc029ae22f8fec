package history_test

import (
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
)

// testdataDir holds the example logs, beside the log vocabulary they show.
const testdataDir = "../sessionlog/testdata"

// trLoad and trLogFiles read the plain example logs (internal/testkit/synthlog's
// test-support reader).
func trLoad(t testing.TB, name string) []sessionlog.Event {
	t.Helper()
	return synthlog.LoadTestdata(t, testdataDir, name)
}

func trLogFiles(t testing.TB) []string {
	t.Helper()
	return synthlog.TestdataLogs(t, testdataDir)
}
