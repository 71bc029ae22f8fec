package container

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
)

const corpusDir = "../../../shared/corpus"

type corpusEntry struct{ file, expect, class string }

func readCorpus(t *testing.T) []corpusEntry {
	f, err := os.Open(filepath.Join(corpusDir, "upstream-logs.tsv"))
	if err != nil {
		t.Skipf("corpus absent (%v): the shared corpus sits beside the repository as ../shared", err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 3 || c[0] == "file" {
			continue
		}
		out = append(out, corpusEntry{c[0], c[1], c[2]})
	}
	return out
}

// TestCorpusForms reads every accepted corpus log as raw JSONL, through
// OpenReader, as .jsonl.zstd written as upstream writes it, as a session
// directory and as a zip export (root and subagent), and requires the same
// lines from each form as from the raw file (the store's layouts and SQLite
// are their packages' TestCorpusStore and TestCorpusSQLite). A refused seq-gap file must fail
// with upstream's message naming the line.
func TestCorpusForms(t *testing.T) {
	entries := readCorpus(t)
	accepted := 0
	for _, e := range entries {
		path := filepath.Join(corpusDir, "upstream-logs", e.file)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(e.file, func(t *testing.T) {
			lines, pos, warns, refusal := read(Open(path, Options{}))
			if e.class == "seq-gap" {
				if refusal == nil || !strings.Contains(refusal.Error(), "corrupt session log: seq gap in committed region at line ") {
					t.Fatalf("want the seq-gap refusal, got %v", refusal)
				}
				var ce *sessionlog.Error
				if !errors.As(refusal, &ce) || ce.Line == 0 || ce.Path != path {
					t.Fatalf("refusal does not name file:line: %#v", refusal)
				}
				t.Logf("refused: %v", refusal)
				return
			}
			if e.expect != "accept" {
				return // the not-genuine files are the header and vocabulary layers' to refuse
			}
			accepted++
			if refusal != nil || len(warns) != 0 {
				t.Fatalf("raw: refusal %v, warnings %v", refusal, warns)
			}
			want := splitLines(raw)
			if !reflect.DeepEqual(lines, want) {
				t.Fatalf("raw: %d lines, want the file's %d", len(lines), len(want))
			}
			for i, p := range pos {
				if p.Line != i+1 || p.Seq != -1 {
					t.Fatalf("raw: line %d at %+v", i+1, p)
				}
			}
			dir := t.TempDir()
			zst := writeZstdLog(t, want, 7)
			zpath := writeFile(t, dir, "log.bin", zst)
			sdir := filepath.Join(dir, "session")
			writeFile(t, sdir, "session.jsonl.zstd", zst)
			zipPath := filepath.Join(dir, "dsh-session-x.zip")
			writeZip(t, zipPath, raw, "child/1")

			forms := []struct {
				name string
				open func() (*Log, error)
				form Form
			}{
				{"reader", func() (*Log, error) { return OpenReader(bytes.NewReader(raw), "r", Options{}) }, FormJSONL},
				{"stream", func() (*Log, error) { return OpenReader(strings.NewReader(string(raw)+""), "s", Options{}) }, FormJSONL},
				{"zstd", func() (*Log, error) { return Open(zpath, Options{}) }, FormZstd},
				{"zstd-reader", func() (*Log, error) { return OpenReader(bytes.NewReader(zst), "z", Options{}) }, FormZstd},
				{"session-dir", func() (*Log, error) { return Open(sdir, Options{}) }, FormZstd},
				{"zip", func() (*Log, error) { return Open(zipPath, Options{}) }, FormZip},
				{"zip-subagent", func() (*Log, error) { return Open(zipPath, Options{Subagent: "child/1"}) }, FormZip},
			}
			for _, f := range forms {
				lg, err := f.open()
				if err == nil && lg.Form() != f.form {
					t.Errorf("%s: form %s, want %s", f.name, lg.Form(), f.form)
				}
				got, gpos, warns, refusal := read(lg, err)
				if refusal != nil || len(warns) != 0 {
					t.Fatalf("%s: refusal %v, warnings %v", f.name, refusal, warns)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d lines, want %d", f.name, len(got), len(want))
				}
				for i := range want {
					if !bytes.Equal(got[i], want[i]) || gpos[i].Line != pos[i].Line || gpos[i].Seq != pos[i].Seq {
						t.Fatalf("%s: line %d:\n got %s %+v\nwant %s %+v", f.name, i+1, got[i], gpos[i], want[i], pos[i])
					}
				}
			}
		})
	}
	t.Logf("%d accepted corpus logs read identically in every form", accepted)
}
