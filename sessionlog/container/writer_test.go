package container

import (
	"database/sql"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
)

// The writers of the forms live in internal/testkit/logforms, shared with the
// reader's and the CLI's tests; these are the short names this package's
// tests use.

func splitLines(b []byte) [][]byte                           { return logforms.SplitLines(b) }
func zstdFrame(t testing.TB, plain []byte) []byte            { return logforms.ZstdFrame(t, plain) }
func encodeSeqs(vals []uint64) []byte                        { return logforms.EncodeSeqs(vals) }
func insertSession(t testing.TB, db *sql.DB, lines [][]byte) { logforms.InsertSession(t, db, lines) }
func writeDB(t testing.TB, path string, lines [][]byte)      { logforms.WriteDB(t, path, lines) }

func writeZstdLog(t testing.TB, lines [][]byte, max int) []byte {
	return logforms.WriteZstd(t, lines, max)
}

func writeZip(t testing.TB, path string, log []byte, sub string) {
	if sub != "" {
		sub = SanitizeExportID(sub)
	}
	logforms.WriteZip(t, path, log, sub)
}

func newDB(t testing.TB, path string, appID, userVersion int) *sql.DB {
	return logforms.NewDB(t, path, appID, userVersion)
}

func writeFile(t testing.TB, dir, name string, b []byte) string {
	return logforms.WriteFile(t, dir, name, b)
}

// The package's constants are the ones the writers use.
var _ = [1]int{}[sqliteApplicationID-logforms.ApplicationID+sqliteUserVersion-logforms.UserVersion]
