package harness_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// libUserScenario is a team's one scenario; the test edits its answer to
// change the screen its fixture holds.
const libUserScenario = `turn 1
step 1
user 'Hello'
assistant 'Hi there.'
step-end
mount 40 10
snapshot hello
`

// libUserTest is a team's TestScenarios, as the harness's docs show it.
// IMPORTS is replaced by the package's imports.
const libUserTest = `package team

import (
	"testing"

	"github.com/dshtest/dshtest/harness"
IMPORTS)

func TestScenarios(t *testing.T) {
	harness.Run(t, harness.ConfigFromEnv("scenarios", "fixtures"))
}
`

// TestLibraryUserUpdateFlag builds a library user's module in a temporary
// directory (the repository through a replace) and drives go test there:
// with teatest linked (its golden package defines -update) go test -update
// re-records a changed fixture and the next run passes; a package without
// any -update flag is told to use GOLDIE_UPDATE=1, both when go test
// refuses the flag and when a fixture differs. It compiles a module, so
// -short skips it; it shares the build and module caches, and needs no
// network (GOPROXY=off, GOFLAGS=-mod=mod).
func TestLibraryUserUpdateFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with go test; skipped under -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(mod, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/team\n\ngo 1.26\n\nrequire github.com/dshtest/dshtest v0.0.0\n\nreplace github.com/dshtest/dshtest => "+root+"\n")
	write("go.sum", string(sum))
	for _, pkg := range []struct{ dir, imports string }{
		{"withtea", "\n\t_ \"github.com/charmbracelet/x/exp/teatest/v2\" // links golden's -update\n"},
		{"plain", ""},
	} {
		write(pkg.dir+"/team_test.go", strings.Replace(libUserTest, "IMPORTS", pkg.imports, 1))
		write(pkg.dir+"/scenarios/hello.txtar", libUserScenario)
		if err := os.MkdirAll(filepath.Join(mod, pkg.dir, "fixtures"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// goTest runs go test in a package of the module and returns its
	// output and whether it passed.
	goTest := func(dir string, env []string, args ...string) (string, bool) {
		t.Helper()
		cmd := exec.Command(gobin, append([]string{"test", "-count=1", "."}, args...)...)
		cmd.Dir = filepath.Join(mod, dir)
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off", "CI=", "GOLDIE_UPDATE=")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatalf("go test: %v", err)
		}
		return string(out), err == nil
	}
	fixture := func(dir string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(mod, dir, "fixtures", "hello.screen"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	change := func(dir string) {
		write(dir+"/scenarios/hello.txtar", strings.Replace(libUserScenario, "Hi there.", "Hello back.", 1))
	}

	t.Run("teatest", func(t *testing.T) {
		if out, ok := goTest("withtea", nil, "-update"); !ok {
			t.Fatalf("go test -update (first recording) failed:\n%s", out)
		}
		if !strings.Contains(fixture("withtea"), "Hi there.") {
			t.Fatal("the fixture was not recorded")
		}
		change("withtea")
		out, ok := goTest("withtea", nil)
		if ok || !strings.Contains(out, "to re-record: go test -update") {
			t.Fatalf("a changed screen: passed=%v, want a failure saying go test -update:\n%s", ok, out)
		}
		if out, ok := goTest("withtea", nil, "-update"); !ok {
			t.Fatalf("go test -update failed:\n%s", out)
		}
		if !strings.Contains(fixture("withtea"), "Hello back.") {
			t.Fatal("go test -update did not re-record the fixture")
		}
		if out, ok := goTest("withtea", nil); !ok {
			t.Fatalf("the run after go test -update fails:\n%s", out)
		}
		if out, ok := goTest("withtea", []string{"CI=true"}, "-update"); ok || !strings.Contains(out, "recording refused: CI is set") {
			t.Fatalf("go test -update under CI: passed=%v, want the refusal:\n%s", ok, out)
		}
	})

	t.Run("plain", func(t *testing.T) {
		out, ok := goTest("plain", nil, "-update")
		if ok || !strings.Contains(out, "flag provided but not defined: -update") ||
			!strings.Contains(out, "defines no -update flag") || !strings.Contains(out, "re-record with GOLDIE_UPDATE=1 go test") {
			t.Fatalf("go test -update without the flag: passed=%v, want the refusal and GOLDIE_UPDATE=1:\n%s", ok, out)
		}
		if out, ok := goTest("plain", []string{"GOLDIE_UPDATE=1"}); !ok {
			t.Fatalf("GOLDIE_UPDATE=1 go test (first recording) failed:\n%s", out)
		}
		change("plain")
		out, ok = goTest("plain", nil)
		if ok || !strings.Contains(out, "to re-record: GOLDIE_UPDATE=1 go test") || strings.Contains(out, "go test -update") {
			t.Fatalf("a changed screen: passed=%v, want a failure saying GOLDIE_UPDATE=1:\n%s", ok, out)
		}
		if out, ok := goTest("plain", []string{"GOLDIE_UPDATE=1"}); !ok || !strings.Contains(fixture("plain"), "Hello back.") {
			t.Fatalf("GOLDIE_UPDATE=1 go test did not re-record: passed=%v\n%s", ok, out)
		}
	})
}
