package suitedir_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness/suitedir"
)

// TestInit: Init writes the scenario, the workflow and .gitignore (made,
// added to, or left when it has the line), refuses a folder that has one
// of its files with nothing written, and Remove takes back what it made
// but a .gitignore.
func TestInit(t *testing.T) {
	made := func(ignore string, shards string) []suitedir.Made {
		m := []suitedir.Made{{"scenarios/example.txtar", "created", ""}, {".github/workflows/dshtest.yml", "created", shards}}
		if ignore != "" {
			m = append(m, suitedir.Made{Path: ".gitignore", How: ignore, Note: " (*.screen.new)"})
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		have   map[string]string // files already in the folder
		shards int
		made   []suitedir.Made
		ignore string // .gitignore after
		exists []string
	}{
		{"empty", nil, 1, made("created", ""), "# pending screens that dshtest run writes beside their fixtures\n*.screen.new\n", nil},
		{"a .gitignore", map[string]string{".gitignore": "node_modules"}, 3, made("updated", " (3 shards)"), "node_modules\n*.screen.new\n", nil},
		{"a .gitignore with the line", map[string]string{".gitignore": "*.screen.new\n"}, 1, made("", ""), "*.screen.new\n", nil},
		{"a suite", map[string]string{"fixtures/example.screen": "x", ".github/workflows/dshtest.yml": "ours"}, 1, nil, "",
			[]string{"fixtures/example.screen", ".github/workflows/dshtest.yml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "suite")
			for rel, data := range tc.have {
				p := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := suitedir.Init(dir, suitedir.InitOptions{Shards: tc.shards, Version: "latest"})
			if tc.exists != nil {
				var ee *suitedir.ExistsError
				if !errors.As(err, &ee) || !reflect.DeepEqual(ee.Paths, tc.exists) || s != nil {
					t.Fatalf("err %v, want the refusal of %v", err, tc.exists)
				}
				if _, err := os.Stat(filepath.Join(dir, "scenarios")); err == nil {
					t.Error("scenarios/ was written")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Made, tc.made) {
				t.Errorf("made %v, want %v", s.Made, tc.made)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(b) != tc.ignore {
				t.Errorf(".gitignore %q, want %q", b, tc.ignore)
			}
			s.Remove()
			for _, m := range tc.made {
				_, err := os.Stat(filepath.Join(dir, m.Path))
				if gone := errors.Is(err, os.ErrNotExist); gone != (m.Path != ".gitignore") {
					t.Errorf("after Remove, %s gone: %v", m.Path, gone)
				}
			}
		})
	}
}

// TestInitInRepository: a suite made in a folder of a git repository gets
// its workflow at the repository's root (the only place GitHub reads
// one), run in the folder; Remove takes it back.
func TestInitInRepository(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(repo, "test", "screens")
	s, err := suitedir.Init(dir, suitedir.InitOptions{Shards: 1, Version: "latest"})
	if err != nil {
		t.Fatal(err)
	}
	want := []suitedir.Made{{"scenarios/example.txtar", "created", ""},
		{"../../.github/workflows/dshtest.yml", "created", " (at the repository's root, run in test/screens)"},
		{".gitignore", "created", " (*.screen.new)"}}
	if !reflect.DeepEqual(s.Made, want) {
		t.Errorf("made %v, want %v", s.Made, want)
	}
	wf := filepath.Join(repo, ".github", "workflows", "dshtest.yml")
	b, err := os.ReadFile(wf)
	if err != nil || !strings.Contains(string(b), `working-directory: "test/screens"`) {
		t.Fatalf("workflow at the root: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".github")); err == nil {
		t.Error("a workflow in the suite's folder, where GitHub does not read it")
	}
	// A second suite of the repository finds the workflow there.
	var ee *suitedir.ExistsError
	if _, err := suitedir.Init(filepath.Join(repo, "other"), suitedir.InitOptions{Shards: 1, Version: "latest"}); !errors.As(err, &ee) {
		t.Errorf("a second suite: %v", err)
	}
	s.Remove()
	if _, err := os.Stat(wf); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Remove, the workflow: %v", err)
	}
}

// TestWorkflowPinHint: a workflow that installs dshtest@latest (written by
// a build from a checkout) says to pin a release; one pinned does not.
func TestWorkflowPinHint(t *testing.T) {
	for _, c := range []struct {
		version string
		hint    bool
	}{{"latest", true}, {"v1.2.3", false}} {
		wf, err := suitedir.Workflow(1, c.version, "")
		if err != nil {
			t.Fatal(err)
		}
		s := string(wf)
		if !strings.Contains(s, "cmd/dshtest@"+c.version+"\n") || strings.Contains(s, "Pin a release") != c.hint {
			t.Errorf("version %s: want the pin hint %v:\n%s", c.version, c.hint, s)
		}
	}
}
