package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/ground/words"
)

// snapshotLine matches a snapshot step of a scenario's script: optional
// conditions and "!", the verb, and the fixture name.
var snapshotLine = regexp.MustCompile(`^\s*(?:\[[^\]]*\]\s*)*(?:!\s*)?snapshot\s+(\S+)`)

// fixtureOwners maps each fixture name to the snapshot steps that take it,
// "scenarios/NAME.txtar:LINE", over every scenario of dir: a partial record
// must still know who owns a name.
func fixtureOwners(dir string) (map[string][]string, error) {
	names, err := harness.ScenarioNames(dir)
	if err != nil {
		return nil, err
	}
	owners := map[string][]string{}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name+".txtar"))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			l := sc.Text()
			if strings.HasPrefix(l, "-- ") && strings.HasSuffix(strings.TrimSpace(l), " --") {
				break // the archive's files start: no more script
			}
			if m := snapshotLine.FindStringSubmatch(l); m != nil {
				owners[m[1]] = append(owners[m[1]], "scenarios/"+name+".txtar:"+strconv.Itoa(line))
			}
		}
	}
	return owners, nil
}

// checkOwnership refuses a record of the scenarios names when one of
// their snapshot names is taken by another snapshot step anywhere in the
// suite, naming both positions: the record would replace the other's
// golden.
func checkOwnership(dir string, names []string) error {
	owners, err := fixtureOwners(dir)
	if err != nil {
		return err
	}
	selected := map[string]bool{}
	for _, n := range names {
		selected["scenarios/"+n+".txtar"] = true
	}
	var clashes []string
	for fixture, pos := range owners {
		if len(pos) < 2 {
			continue
		}
		mine := false
		for _, p := range pos {
			file, _, _ := strings.Cut(p, ":")
			mine = mine || selected[file]
		}
		if mine {
			clashes = append(clashes, fmt.Sprintf("fixtures/%s%s is snapshotted by %s", fixture, harness.FixtureSuffix, strings.Join(pos, " and ")))
		}
	}
	if len(clashes) == 0 {
		return nil
	}
	sort.Strings(clashes)
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
			words.Plural(len(removed), "temporary file"), strings.Join(removed, ", "))
	}
	return nil
}
