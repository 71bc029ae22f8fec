package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/load/summary"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/header"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/sessionlog/reader"
	"github.com/dshtest/dshtest/sessionlog/store"
)

// corpusDir returns ../shared/corpus relative to the repository root,
// skipping the test when it is absent.
func corpusDir(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(p, "upstream-logs.tsv")); err != nil {
		t.Skipf("%s is absent (the shared corpus sits at ../shared next to the repository): %v", p, err)
	}
	return p
}

type corpusFile struct{ name, expect, class, note string }

func readTSV(t *testing.T, dir string) []corpusFile {
	raw, err := os.ReadFile(filepath.Join(dir, "upstream-logs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusFile
	for i, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 4 {
			t.Fatalf("upstream-logs.tsv:%d: %d columns", i+1, len(f))
		}
		out = append(out, corpusFile{f[0], f[1], f[2], f[3]})
	}
	return out
}

func run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Run(args, strings.NewReader(""), &o, &e, []string{"HOME=/nonexistent"})
	return code, o.String(), e.String()
}

var oneLineRefusal = regexp.MustCompile(`^dshtest: [^\n]*:[0-9]+: [^\n]+\n$`)

// TestCorpus runs every file of upstream-logs.tsv through the CLI: each
// accept file passes check and repro (every invariant held at the default
// sizes), and every prompt it holds (an append-origin user/message whose
// source kind is user, older shapes upgraded) appears in render --format
// text; each refuse file exits 2 with one line naming file:line.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	files := readTSV(t, dir)
	var accepted, refused, prompts, upgraded, recovered, empty int
	for _, f := range files {
		path := filepath.Join(dir, "upstream-logs", f.name)
		if f.expect == "refuse" {
			for _, cmd := range []string{"check", "repro", "render"} {
				code, _, stderr := run(cmd, path)
				if code != ExitUsage || !oneLineRefusal.MatchString(stderr) {
					t.Errorf("%s %s: exit %d, stderr %q; want 2 and one line naming file:line", cmd, f.name, code, stderr)
				}
			}
			refused++
			continue
		}
		code, out, stderr := run("check", path, "--json")
		if code != ExitOK {
			t.Errorf("check %s: exit %d: %s", f.name, code, stderr)
			continue
		}
		var sum summary.Summary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("check %s --json: %v", f.name, err)
		}
		upgraded += sum.Upgraded
		if len(sum.Synthetic) > 0 {
			recovered++
		}
		if sum.Events == 0 {
			empty++
		}
		if code, out, stderr := run("repro", path); code != ExitOK {
			t.Errorf("repro %s: exit %d:\n%s%s", f.name, code, out, stderr)
		}
		_, text, _ := run("render", path, "--format", "text", "--width", "100")
		lg, err := load.Read(path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		flat := squeeze(text)
		for i := range lg.Events {
			e := &lg.Events[i]
			blocks, ok := promptText(e)
			if !ok {
				continue
			}
			prompts++
			for _, p := range blocks {
				if !strings.Contains(flat, squeeze(p)) {
					t.Errorf("%s: the prompt at seq %d is not in render --format text: %q", f.name, e.Seq, p)
				}
			}
		}
		accepted++
	}
	t.Logf("corpus: %d accepted (check, repro and render; %d prompts shown; %d events upgraded; %d logs recovered; %d empty sessions), %d refused with one line",
		accepted, prompts, upgraded, recovered, empty, refused)
	if accepted != 156 || refused != 13 {
		t.Errorf("counts: accept %d, refuse %d; the tsv has 156 and 13", accepted, refused)
	}
}

// promptText returns the text blocks of an append-origin user/message
// whose source kind is user.
func promptText(e *sessionlog.Event) ([]string, bool) {
	if e.Type != sessionlog.TypeUserMessage || !sessionlog.IsAppendSurfaceEvent(e) || !summary.IsHumanPrompt(e) {
		return nil, false
	}
	var m struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(e.Data, &m) != nil {
		return nil, false
	}
	var out []string
	for _, c := range m.Content {
		if c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			out = append(out, c.Text)
		}
	}
	return out, true
}

// squeeze drops white space, so that wrapped rows compare with the text,
// and the marks Markdown rendering consumes (code-span backticks, escapes).
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '`' || r == '\\' {
			return -1
		}
		return r
	}, s)
}

// TestCorpusForms writes every accepted corpus log in each form upstream
// writes (raw, .jsonl.zstd with a header frame and one checksummed frame per
// batch, a store directory, a web export zip, a schema-17 SQLite database)
// and requires the same decoded events and the same rendered document from
// each.
func TestCorpusForms(t *testing.T) {
	dir := corpusDir(t)
	tmp := t.TempDir()
	var n int
	for i, f := range readTSV(t, dir) {
		if f.expect != "accept" {
			continue
		}
		path := filepath.Join(dir, "upstream-logs", f.name)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := logforms.SplitLines(raw)
		h, err := header.Parse(lines[0])
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Join(tmp, strconv.Itoa(i))
		if err := os.MkdirAll(base, 0o755); err != nil {
			t.Fatal(err)
		}
		zst := logforms.WriteFile(t, base, "log.zst", logforms.WriteZstd(t, lines, 7))
		zipPath := filepath.Join(base, "export.zip")
		logforms.WriteZip(t, zipPath, raw, "")
		dbPath := filepath.Join(base, "store.db")
		logforms.WriteDB(t, dbPath, lines)
		root := filepath.Join(base, "sessions")
		storeFile, err := store.SessionPath(root, h.CWD, h.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(storeFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(storeFile, logforms.WriteZstd(t, lines, 3), 0o644); err != nil {
			t.Fatal(err)
		}
		forms := []struct {
			name string
			args []string
		}{
			{"raw", []string{path}},
			{"zstd", []string{zst}},
			{"store", []string{"--session", h.ID, "--store", root}},
			{"zip", []string{zipPath}},
			{"sqlite", []string{dbPath, "--session", h.ID}},
		}
		var wantEvents, wantDoc string
		for k, form := range forms {
			code, doc, stderr := run(append([]string{"render", "--format", "fixture"}, form.args...)...)
			if code != ExitOK {
				t.Errorf("%s as %s: render exit %d: %s", f.name, form.name, code, stderr)
				continue
			}
			events := decoded(t, form.args, h.ID)
			if k == 0 {
				wantEvents, wantDoc = events, doc
				continue
			}
			if events != wantEvents {
				t.Errorf("%s as %s: the decoded events differ from the raw log's", f.name, form.name)
			}
			if doc != wantDoc {
				t.Errorf("%s as %s: the rendered document differs from the raw log's", f.name, form.name)
			}
		}
		n++
	}
	t.Logf("%d accepted logs read alike as raw, zstd, a store directory, a zip and SQLite", n)
}

// decoded reads a form through the reader as the CLI's flags name it and
// returns its events as JSONL.
func decoded(t *testing.T, args []string, id string) string {
	t.Helper()
	var lg *load.Log
	var err error
	switch {
	case args[0] == "--session":
		var f *load.File
		if f, err = load.OpenSession(args[3], id, load.Options{}); err == nil {
			lg, err = f.Collect(true)
			f.Close()
		}
	case len(args) == 3:
		lg, err = load.Read(args[0], load.Options{Read: reader.Options{Session: id}})
	default:
		lg, err = load.Read(args[0], load.Options{})
	}
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	var b bytes.Buffer
	if err := jsonl.WriteLog(&b, lg.Events); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
