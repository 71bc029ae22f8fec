package corpusgolden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
	"github.com/sebdah/goldie/v2"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/cli"
	"github.com/dshtest/dshtest/harness"
)

// corpusDir is the repository's copy of upstream's corpus.
var corpusDir = filepath.Join("..", "..", "..", "..", "testdata", "corpus")

// widths and tools are the renderer settings each log is pinned at.
var (
	widths = []int{100, 60}
	tools  = []string{"collapsed", "expanded"}
)

// accepted lists the corpus logs upstream-logs.tsv says a reader must
// accept.
func accepted(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(corpusDir, "upstream-logs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		f := strings.Split(l, "\t")
		switch {
		case len(f) != 4:
			t.Fatalf("upstream-logs.tsv:%d: %d columns, want 4", i+1, len(f))
		case i > 0 && f[1] == "accept":
			out = append(out, f[0])
		}
	}
	return out
}

// goldenName is the golden file of a log's document at one setting,
// relative to testdata/ and without goldie's suffix: a directory per log.
func goldenName(log string, width int, tools string) string {
	return strings.TrimSuffix(log, ".jsonl") + "/w" + strconv.Itoa(width) + "-" + tools
}

// golden is goldie over testdata/, reporting a mismatch as a unified line
// diff from the golden file, named, to the rendered document.
func golden(t *testing.T, name string) *goldie.Goldie {
	file := "testdata/" + name + ".golden"
	return goldie.New(t, goldie.WithFixtureDir("testdata"), goldie.WithNameSuffix(".golden"),
		goldie.WithDiffFn(func(actual, expected string) string {
			return udiff.Unified(file, "rendered", expected, actual)
		}))
}

// render is what dshtest render --format fixture prints for the log.
func render(t *testing.T, path string, width int, tools string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	args := []string{"render", path, "--format", "fixture", "--width", strconv.Itoa(width), "--tools", tools}
	if code := cli.Run(args, strings.NewReader(""), &out, &errOut, nil); code != cli.ExitOK || errOut.Len() > 0 {
		t.Fatalf("dshtest %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.Bytes()
}

// TestCorpusDocuments compares every accepted corpus log's document, at
// each width and tool mode, with its golden file.
func TestCorpusDocuments(t *testing.T) {
	logs := accepted(t)
	if len(logs) == 0 {
		t.Fatal("upstream-logs.tsv accepts no log")
	}
	// goldie's -update, which GOLDIE_UPDATE=1 also sets: looked up, as a
	// flag of the binary, not defined here.
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" && harness.IsCI(os.Getenv("CI")) {
		t.Fatal("golden files are read-only under CI: re-record them outside it (unset CI)")
	}
	for _, log := range logs {
		t.Run(strings.TrimSuffix(log, ".jsonl"), func(t *testing.T) {
			path := filepath.Join(corpusDir, "upstream-logs", log)
			for _, w := range widths {
				for _, tm := range tools {
					// A subtest per golden, so a failure names its file.
					t.Run("w"+strconv.Itoa(w)+"-"+tm, func(t *testing.T) {
						name := goldenName(log, w, tm)
						golden(t, name).Assert(t, name, render(t, path, w, tm))
					})
				}
			}
		})
	}
}

// TestGoldenInventory requires a golden for every accepted log and
// setting and no other: a log dropped from the corpus, or renamed, leaves
// no stale golden behind.
func TestGoldenInventory(t *testing.T) {
	want := map[string]bool{}
	for _, log := range accepted(t) {
		for _, w := range widths {
			for _, tm := range tools {
				want[filepath.FromSlash(goldenName(log, w, tm))+".golden"] = true
			}
		}
	}
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata", p)
		if !want[rel] {
			t.Errorf("testdata/%s is no accepted corpus log's golden (remove it)", filepath.ToSlash(rel))
		}
		delete(want, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range want {
		t.Errorf("testdata/%s is missing (GOLDIE_UPDATE=1 go test ./cmd/dshtest/internal/corpusgolden writes it)", filepath.ToSlash(rel))
	}
}

// TestCorpusCopy checks the repository's copy of the corpus against the
// shared one next to the repository, when it is there: the copy is
// upstream's files unchanged.
func TestCorpusCopy(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(shared, "upstream-logs.tsv")); err != nil {
		t.Skipf("no shared corpus at %s", shared)
	}
	var n int
	err := filepath.WalkDir(shared, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(shared, p)
		a, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(corpusDir, rel))
		if err != nil || !bytes.Equal(a, b) {
			return fmt.Errorf("testdata/corpus/%s differs from the shared corpus's (copy it unchanged): %v", filepath.ToSlash(rel), err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("the shared corpus is empty")
	}
}
