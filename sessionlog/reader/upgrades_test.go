package reader_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// readAll reads path with opts, recording its upgrades into record when
// not nil, and returns its events (their payloads copied) and summary.
func readAll(t *testing.T, path string, opts reader.Options, record *reader.Upgrades) ([]sessionlog.Event, reader.Summary, error) {
	t.Helper()
	s, err := reader.Open(path, opts)
	if err != nil {
		return nil, reader.Summary{}, err
	}
	defer s.Close()
	if record != nil {
		s.RecordUpgrades(record)
	}
	var evs []sessionlog.Event
	for s.Next() {
		e := *s.Event()
		e.Data, e.SurfaceOp, e.SourceEventSeqs = bytes.Clone(e.Data), bytes.Clone(e.SurfaceOp), bytes.Clone(e.SourceEventSeqs)
		evs = append(evs, e)
	}
	return evs, s.Summary(), s.Err()
}

// TestUpgradesRetaken: a read given the upgrades a whole earlier read
// recorded yields the events and the count of upgraded lines a read that
// upgrades yields, on the corpus and on generated logs of every shape
// (the current shape's turns are of the older shapes); a record not
// complete, or past upgradesMax, is not taken.
func TestUpgradesRetaken(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/corpus/upstream-logs/*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	dir := t.TempDir()
	for _, sh := range sessiongen.Shapes() {
		for _, gen := range []sessiongen.Generation{sessiongen.GenOlder, sessiongen.GenNewer} {
			cfg, ok := sh.Config(3000)
			if !ok {
				continue
			}
			cfg.Generation = gen
			// A header makes it a session's own log, which the upgrades
			// read (a header-less stream of events is not upgraded).
			b := bytes.NewBufferString(`{"type":"session","version":0,"id":"gen","createdAt":1784630400000,"cwd":"/w"}` + "\n")
			if err := jsonl.WriteLog(b, sessiongen.Generate(4, cfg)); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", sh, gen))
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
	}
	retaken := 0
	for _, path := range paths {
		u := &reader.Upgrades{}
		first, sum, err := readAll(t, path, reader.Options{}, u)
		if err != nil {
			continue // a refused log is read once
		}
		if u.Usable() {
			t.Fatalf("%s: a record not yet complete is taken", path)
		}
		u.Complete()
		again, sumAgain, err := readAll(t, path, reader.Options{Upgraded: u}, nil)
		if err != nil {
			t.Fatalf("%s: read again: %v", path, err)
		}
		if !reflect.DeepEqual(first, again) {
			t.Fatalf("%s: the events read again, upgrades taken, differ", path)
		}
		if sumAgain.Upgraded != sum.Upgraded {
			t.Fatalf("%s: %d lines upgraded, then %d taken", path, sum.Upgraded, sumAgain.Upgraded)
		}
		retaken += u.Kept()
	}
	if retaken < 100 {
		t.Errorf("only %d upgraded lines were taken on a second read: the test reads too few older shapes", retaken)
	}
	u := &reader.Upgrades{}
	u.Add(1, make([]byte, reader.UpgradesMax/2))
	u.Add(2, make([]byte, reader.UpgradesMax/2+1))
	u.Complete()
	if u.Usable() || u.Kept() != 0 {
		t.Errorf("a record past upgradesMax is kept")
	}
}
