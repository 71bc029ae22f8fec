package container

import (
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
)

// The writers of the forms live in internal/testkit/logforms, shared with the
// reader's and the CLI's tests; these are the short names this package's
// tests use.

func splitLines(b []byte) [][]byte                { return logforms.SplitLines(b) }
func zstdFrame(t testing.TB, plain []byte) []byte { return logforms.ZstdFrame(t, plain) }

func writeZstdLog(t testing.TB, lines [][]byte, max int) []byte {
	return logforms.WriteZstd(t, lines, max)
}

func writeZip(t testing.TB, path string, log []byte, sub string) {
	if sub != "" {
		sub = SanitizeExportID(sub)
	}
	logforms.WriteZip(t, path, log, sub)
}

func writeFile(t testing.TB, dir, name string, b []byte) string {
	return logforms.WriteFile(t, dir, name, b)
}
