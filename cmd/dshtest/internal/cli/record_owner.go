package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/repro/invariant"
)

// checkOwnership refuses a record of the scenarios names when one of
// their snapshot names is taken by another snapshot step anywhere in the
// suite, naming both positions: the record would replace the other's
// golden.
func checkOwnership(dir string, names []string) error {
	index, err := suitedir.Dir{Root: filepath.Dir(dir)}.Index()
	if err != nil {
		return err
	}
	clashes := index.Clashes(names)
	if len(clashes) == 0 {
		return nil
	}
	return failf("record: %s; a fixture has one owner: rename the snapshot; nothing written", strings.Join(clashes, "; "))
}

// scratchPrefix names record's scratch directories; the process id lets a
// later record tell a dead run's directory from a running one's.
func scratchPrefix() string { return "dshtest-record-" + strconv.Itoa(os.Getpid()) + "-" }

// sweepStale removes what an interrupted record left: temporary files of
// ours in the fixture and scenario directories and scratch directories in
// the temporary directory, of processes that no longer run. It returns what
// it removed, for the output.
func sweepStale(dirs ...string) []string {
	var removed []string
	for _, d := range dirs {
		names, _ := safefile.Sweep(d)
		for _, n := range names {
			removed = append(removed, filepath.Join(filepath.Base(d), n))
		}
	}
	tmp := os.TempDir()
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "dshtest-record-")
		if !ok || !e.IsDir() {
			continue
		}
		p, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(p)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || safefile.Running(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(tmp, e.Name())) == nil {
			removed = append(removed, filepath.Join(tmp, e.Name()))
		}
	}
	return removed
}

// recordPreflight is what record does before it renders: refuse a fixture
// name owned elsewhere, and sweep a previous run's debris.
func (a *app) recordPreflight(sdir, fdir string, names []string) error {
	if err := checkOwnership(sdir, names); err != nil {
		return err
	}
	if removed := sweepStale(fdir, sdir); len(removed) > 0 {
		fmt.Fprintf(a.stdout, "record: removed %s left by an interrupted run: %s\n",
			invariant.Plural(len(removed), "temporary file"), strings.Join(removed, ", "))
	}
	return nil
}
