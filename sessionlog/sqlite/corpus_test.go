package sqlite

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/containertest"
	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog/container"
)

// semantic decodes a JSON line for comparison across forms whose key order
// or number spelling may differ (SQLite rebuilds each record).
func semantic(t *testing.T, b []byte) any {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// TestCorpusSQLite writes every accepted corpus log as a schema-17
// database and requires the same records from it, by id and as its only
// session, as from the raw file.
func TestCorpusSQLite(t *testing.T) {
	for _, e := range containertest.Corpus(t) {
		if e.Expect != "accept" {
			continue
		}
		t.Run(e.File, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(containertest.CorpusDir, "upstream-logs", e.File))
			if err != nil {
				t.Fatal(err)
			}
			want := logforms.SplitLines(raw)
			var h struct{ ID string }
			json.Unmarshal(want[0], &h)
			db := filepath.Join(t.TempDir(), "store.db")
			logforms.WriteDB(t, db, want)
			for name, opts := range map[string]container.Options{"sqlite": {Session: h.ID}, "sqlite-only-session": {}} {
				lg, err := container.Open(db, opts)
				if err == nil && lg.Form() != container.FormSQLite {
					t.Errorf("%s: form %s", name, lg.Form())
				}
				got, pos, warns, refusal := containertest.Read(lg, err)
				if refusal != nil || len(warns) != 0 {
					t.Fatalf("%s: refusal %v, warnings %v", name, refusal, warns)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d lines, want %d", name, len(got), len(want))
				}
				for i := range want {
					if !reflect.DeepEqual(semantic(t, got[i]), semantic(t, want[i])) {
						t.Fatalf("%s: line %d:\n got %s\nwant %s", name, i+1, got[i], want[i])
					}
					if pos[i].Line != i+1 {
						t.Fatalf("%s: line %d at %+v", name, i+1, pos[i])
					}
				}
			}
		})
	}
}
