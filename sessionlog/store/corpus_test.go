package store

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/containertest"
	"github.com/dshtest/dshtest/internal/testkit/logforms"
)

// TestCorpusStore writes every accepted corpus log into a store, in the
// current layout (.jsonl.zstd) and the older one (.jsonl), and requires the
// same lines from each, found by id, as from the raw file.
func TestCorpusStore(t *testing.T) {
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
			var h struct{ ID, Cwd string }
			json.Unmarshal(want[0], &h)
			dir := t.TempDir()
			storeNew, storeOld := filepath.Join(dir, "store"), filepath.Join(dir, "old")
			sp, err := SessionPath(storeNew, h.Cwd, h.ID, true)
			if err != nil {
				t.Fatal(err)
			}
			logforms.WriteFile(t, filepath.Dir(sp), filepath.Base(sp), logforms.WriteZstd(t, want, 7))
			seg, _ := EncodeSegment(h.ID)
			logforms.WriteFile(t, filepath.Join(storeOld, "cwd-0123456789ab"), seg+".jsonl", raw)
			for name, root := range map[string]string{"store": storeNew, "store-old": storeOld} {
				got, _, warns, refusal := containertest.Read(openSession(root, h.ID))
				if refusal != nil || len(warns) != 0 {
					t.Fatalf("%s: refusal %v, warnings %v", name, refusal, warns)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d lines, want %d", name, len(got), len(want))
				}
				for i := range want {
					if !bytes.Equal(got[i], want[i]) {
						t.Fatalf("%s: line %d:\n got %s\nwant %s", name, i+1, got[i], want[i])
					}
				}
			}
		})
	}
}
