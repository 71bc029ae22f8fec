// Package containertest reads a container.Log whole and checks it against
// what a test wants, for the tests of the packages beside the container
// (the session store, the SQLite reader). The container's own tests keep
// their copy: they cannot import a package that imports theirs.
package containertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
)

// Read collects a log's lines (copied), their positions, its warnings and
// its refusal; err is the open's, returned as the refusal.
func Read(lg *container.Log, err error) (lines [][]byte, pos []sessionlog.Pos, warns []container.Warning, refusal error) {
	if err != nil {
		return nil, nil, nil, err
	}
	defer lg.Close()
	for lg.Next() {
		l := lg.Line()
		lines = append(lines, append([]byte(nil), l.Data...))
		pos = append(pos, l.Pos)
	}
	return lines, pos, lg.Warnings(), lg.Err()
}

// Want is what Check wants of a log.
type Want struct {
	Lines   int    // lines yielded, header included
	Err     string // substring of the refusal
	ErrLine int
	Warn    string // substring of the one warning
	WLine   int
	Dropped int
}

// Check reads the log (or the open's error) and fails t unless it is w.
func Check(t *testing.T, name string, lg *container.Log, openErr error, w Want) {
	t.Helper()
	lines, _, warns, refusal := Read(lg, openErr)
	if w.Err != "" {
		if refusal == nil || !strings.Contains(refusal.Error(), w.Err) {
			t.Fatalf("%s: refusal %v, want %q", name, refusal, w.Err)
		}
		if ce, ok := refusal.(*sessionlog.Error); !ok || ce.Line != w.ErrLine {
			t.Fatalf("%s: refusal %#v, want line %d", name, refusal, w.ErrLine)
		}
		if strings.Contains(refusal.Error(), "\n") {
			t.Fatalf("%s: refusal is not one line: %q", name, refusal)
		}
		return
	}
	if refusal != nil {
		t.Fatalf("%s: unexpected refusal %v", name, refusal)
	}
	if len(lines) != w.Lines {
		t.Fatalf("%s: %d lines, want %d", name, len(lines), w.Lines)
	}
	if w.Warn == "" {
		if len(warns) != 0 {
			t.Fatalf("%s: unexpected warnings %v", name, warns)
		}
		return
	}
	if len(warns) != 1 || !strings.Contains(warns[0].String(), w.Warn) || warns[0].Line != w.WLine || warns[0].Dropped != w.Dropped {
		t.Fatalf("%s: warnings %+v, want %q at line %d dropping %d", name, warns, w.Warn, w.WLine, w.Dropped)
	}
}

// CorpusDir is the shared corpus, from a package two folders below the
// repository's root (sessionlog/container, sessionlog/store, …).
const CorpusDir = "../../../shared/corpus"

// Entry is one corpus log and its verdict (upstream-logs.tsv).
type Entry struct{ File, Expect, Class string }

// Corpus lists the corpus logs, skipping t when the corpus is absent.
func Corpus(t *testing.T) []Entry {
	b, err := os.ReadFile(filepath.Join(CorpusDir, "upstream-logs.tsv"))
	if err != nil {
		t.Skipf("corpus absent (%v): the shared corpus sits beside the repository as ../shared", err)
	}
	var out []Entry
	for _, l := range strings.Split(string(b), "\n") {
		c := strings.Split(l, "\t")
		if len(c) < 3 || c[0] == "file" {
			continue
		}
		out = append(out, Entry{c[0], c[1], c[2]})
	}
	return out
}
