package suitedir

import (
	"bytes"
	_ "embed" // the files Init writes
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"

	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/terminal/display"
)

// The files of a new suite. The example's fixture is not among them: the
// caller records it, as dshtest record would, so it is always this
// renderer's.
var (
	//go:embed initfiles/example.txtar
	initExample []byte
	//go:embed initfiles/dshtest.yml
	initWorkflow string
)

// IgnoreLine is the line of .gitignore that keeps pending screens out of
// a commit.
const IgnoreLine = "*.screen.new"

// workflowPath is where Init writes the CI workflow.
var workflowPath = filepath.Join(".github", "workflows", "dshtest.yml")

// InitOptions say how Init makes a suite.
type InitOptions struct {
	// Shards is the number of CI runners the workflow spreads the suite
	// over (run --shard i/N), 1 or more.
	Shards int
	// Version is the dshtest version the workflow installs.
	Version string
	// NoWorkflow writes no CI workflow: for a second suite of a
	// repository whose workflow runs another, or a CI that is not
	// GitHub's.
	NoWorkflow bool
}

// Made is a file Init wrote.
type Made struct {
	Path string // slash-separated, in the suite's folder
	How  string // "created" or "updated"
	Note string // what to add after the path, as " (3 shards)"; may be empty
}

// Scaffold is what Init wrote of a new suite.
type Scaffold struct {
	// Made are the files written, in order.
	Made    []Made
	dir     string
	created []string // the files Init made, relative to dir
}

// ExistsError is Init's refusal of a folder that has one of a new suite's
// files: it writes nothing.
type ExistsError struct {
	Dir   string
	Paths []string // slash-separated, in the suite's folder
}

func (e *ExistsError) Error() string {
	return strings.Join(e.Paths, ", ") + " already in " + display.EscapeInline(e.Dir) + "; nothing written"
}

// OnlyWorkflow reports whether the workflow is the one file that exists: a
// repository that has a suite already, which a second one may join
// without a workflow of its own (InitOptions.NoWorkflow).
func (e *ExistsError) OnlyWorkflow() bool {
	return len(e.Paths) == 1 && strings.HasSuffix(e.Paths[0], filepath.ToSlash(workflowPath))
}

// Init makes a scenario suite in dir (made if missing): an example
// scenario, a CI workflow (unless opts.NoWorkflow), and .gitignore with
// IgnoreLine (added to one that exists). It never overwrites a file: if the scenario, its fixture
// or the workflow exists, it writes nothing and returns an *ExistsError.
// On a failure to write, the Scaffold says what was written by then.
func Init(dir string, opts InitOptions) (*Scaffold, error) {
	// GitHub reads workflows at the repository's root only: a suite in a
	// folder of a repository gets its workflow there, run in the folder.
	wfRel, inRepo := workflowPath, ""
	if top, rel, ok := repoFolder(dir); ok {
		wfRel, inRepo = filepath.Join(top, workflowPath), rel
	}
	workflow, err := Workflow(opts.Shards, opts.Version, inRepo)
	if err != nil {
		return nil, err
	}
	files := []struct {
		rel  string
		data []byte
		note string
	}{
		{filepath.Join(scenariosName, "example.txtar"), initExample, ""},
		{wfRel, workflow, ""},
	}
	var notes []string
	if opts.Shards > 1 {
		notes = append(notes, strconv.Itoa(opts.Shards)+" shards")
	}
	if inRepo != "" {
		notes = append(notes, "at the repository's root, run in "+inRepo)
	}
	if len(notes) > 0 {
		files[1].note = " (" + strings.Join(notes, "; ") + ")"
	}
	if opts.NoWorkflow {
		files = files[:1]
	}
	// Nothing is written unless every file is new.
	var exist []string
	check := []string{files[0].rel, filepath.Join(fixturesName, "example.screen")}
	if !opts.NoWorkflow {
		check = append(check, wfRel)
	}
	for _, rel := range check {
		if _, err := os.Lstat(filepath.Join(dir, rel)); err == nil {
			exist = append(exist, filepath.ToSlash(rel))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if len(exist) > 0 {
		return nil, &ExistsError{Dir: dir, Paths: exist}
	}
	s := &Scaffold{dir: dir}
	ignorePath := filepath.Join(dir, ".gitignore")
	ignore, how, err := gitignore(ignorePath)
	if err != nil {
		return s, err
	}
	dirs := []string{scenariosName, fixturesName}
	if !opts.NoWorkflow {
		dirs = append(dirs, filepath.Dir(wfRel))
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return s, err
		}
	}
	for _, f := range files {
		if err := safefile.WriteFile(filepath.Join(dir, f.rel), f.data, safefile.Options{}); err != nil {
			return s, err
		}
		s.created = append(s.created, f.rel)
		s.Made = append(s.Made, Made{Path: filepath.ToSlash(f.rel), How: "created", Note: f.note})
	}
	if ignore != nil {
		// Force: an existing .gitignore is replaced by itself plus the line.
		if err := safefile.WriteFile(ignorePath, ignore, safefile.Options{Force: true}); err != nil {
			return s, err
		}
		s.Made = append(s.Made, Made{Path: ".gitignore", How: how, Note: " (" + IgnoreLine + ")"})
	}
	return s, nil
}

// yamlQuote is s as a YAML double-quoted string: JSON's quoting, which
// YAML reads the same.
func yamlQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// repoFolder finds the git repository dir is in: top is its root from dir
// (as "../.."), rel dir from its root, slash-separated; ok is false when
// dir is no repository's folder or is its root.
func repoFolder(dir string) (top, rel string, ok bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", false
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if d == abs {
				return "", "", false
			}
			r, err := filepath.Rel(d, abs)
			if err != nil {
				return "", "", false
			}
			t, err := filepath.Rel(abs, d)
			if err != nil {
				return "", "", false
			}
			return t, filepath.ToSlash(r), true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", "", false
		}
		d = up
	}
}

// Remove removes the scenario and the workflow Init made, leaving no
// suite that fails, so that Init can run again once the cause is fixed.
// A .gitignore is left: it may be the user's.
func (s *Scaffold) Remove() {
	for _, rel := range s.created {
		os.Remove(filepath.Join(s.dir, rel))
	}
}

// gitignore is the .gitignore at path with IgnoreLine in it, and what
// Init did ("created" or "updated"); nil when it has the line already.
func gitignore(path string) ([]byte, string, error) {
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return []byte("# pending screens that dshtest run writes beside their fixtures\n" + IgnoreLine + "\n"), "created", nil
	case err != nil:
		return nil, "", err
	}
	for _, l := range strings.Split(string(old), "\n") {
		if strings.TrimSpace(l) == IgnoreLine {
			return nil, "", nil
		}
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		old = append(old, '\n')
	}
	return append(old, IgnoreLine+"\n"...), "updated", nil
}

// Workflow is the GitHub Actions workflow Init writes for a suite run on
// shards runners, installing dshtest at version; dir is the suite's folder
// from the repository's root ("" at the root), where its commands run.
func Workflow(shards int, version, dir string) ([]byte, error) {
	t, err := template.New("workflow").Delims("[[", "]]").Parse(initWorkflow)
	if err != nil {
		return nil, err
	}
	matrix := make([]string, shards)
	for i := range matrix {
		matrix[i] = strconv.Itoa(i + 1)
	}
	data := struct {
		Sharded         bool
		Shards          int
		Matrix          string
		Suffix, Version string
		// The suite's folder, and the artifacts' paths under it (an
		// artifact's path is the workspace's), as YAML double-quoted
		// strings (JSON's): a folder's name may hold what YAML reads.
		Dir, DirQ, PendingQ, ReportQ string
	}{Sharded: shards > 1, Shards: shards, Matrix: "[" + strings.Join(matrix, ", ") + "]", Version: version, Dir: dir}
	if dir != "" {
		data.DirQ = yamlQuote(dir)
		data.PendingQ = yamlQuote(dir + "/dshtest-pending/")
		data.ReportQ = yamlQuote(dir + "/dshtest-report.html\n" + dir + "/dshtest-junit.xml\n")
	}
	if data.Sharded {
		data.Suffix = "-${{ matrix.shard }}"
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
