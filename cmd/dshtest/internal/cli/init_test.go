package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/dshtest/dshtest/harness/suitedir"
)

// TestInitWorkflow: the workflow init writes is valid YAML, a GitHub
// Actions workflow whose steps name only real dshtest commands and flags
// (looked up in the command tree), and with --shards N a matrix of 1…N
// whose jobs run run --shard i/N and upload under names of their own.
func TestInitWorkflow(t *testing.T) {
	root := (&app{}).rootCommand()
	for _, tc := range []struct {
		shards int
		dir    string // the suite's folder in the repository
	}{{1, ""}, {3, ""}, {2, "test/screens"}, {1, "ui: tests #1/'screens'"}} {
		shards := tc.shards
		b, err := suitedir.Workflow(shards, "latest", tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Name string
			On   map[string]any `yaml:"on"`
			Jobs map[string]struct {
				RunsOn   string `yaml:"runs-on"`
				Defaults struct {
					Run struct {
						WorkingDirectory string `yaml:"working-directory"`
					}
				}
				Strategy struct {
					Matrix map[string][]int
				}
				Steps []struct {
					Name, Uses, Run, Shell, If string
					With                       map[string]string
				}
			}
		}
		if err := yaml.Unmarshal(b, &wf); err != nil {
			t.Fatalf("shards %d: not YAML: %v\n%s", shards, err, b)
		}
		job, ok := wf.Jobs["scenarios"]
		_, push := wf.On["push"]
		_, pr := wf.On["pull_request"]
		if !ok || job.RunsOn == "" || len(job.Steps) == 0 || !push || !pr {
			t.Fatalf("shards %d: not a workflow with a job of steps:\n%s", shards, b)
		}
		// A suite in a folder runs there; its artifacts are named from
		// the workspace.
		if got := job.Defaults.Run.WorkingDirectory; got != tc.dir {
			t.Errorf("dir %q: working-directory %q", tc.dir, got)
		}
		for _, st := range job.Steps {
			if p := st.With["path"]; p != "" && tc.dir != "" {
				for _, l := range strings.Split(strings.TrimSpace(p), "\n") {
					if !strings.HasPrefix(l, tc.dir+"/") {
						t.Errorf("dir %q: artifact path %q", tc.dir, l)
					}
				}
			}
		}
		if shards > 1 {
			got := job.Strategy.Matrix["shard"]
			if len(got) != shards || got[0] != 1 || got[shards-1] != shards {
				t.Errorf("shards %d: matrix %v", shards, got)
			}
		} else if job.Strategy.Matrix != nil {
			t.Errorf("shards 1: a matrix %v", job.Strategy.Matrix)
		}
		var commands []string
		artifacts := map[string]bool{}
		for _, st := range job.Steps {
			if strings.HasPrefix(st.Uses, "actions/upload-artifact@") {
				artifacts[st.With["name"]] = true
				if st.If != "failure()" || st.With["path"] == "" {
					t.Errorf("shards %d: upload %q: if %q, path %q", shards, st.With["name"], st.If, st.With["path"])
				}
			}
			for _, line := range strings.Split(st.Run, "\n") {
				line = strings.ReplaceAll(line, "${{ matrix.shard }}", "1")
				for _, part := range strings.Split(line, "&&") {
					if f := strings.Fields(part); len(f) > 0 && f[0] == "dshtest" {
						commands = append(commands, strings.TrimSpace(part))
						checkCommand(t, root, f)
					}
				}
			}
		}
		suffix := ""
		if shards > 1 {
			suffix = "-${{ matrix.shard }}"
		}
		for _, name := range []string{"dshtest-pending", "dshtest-report"} {
			if !artifacts[name+suffix] {
				t.Errorf("shards %d: no artifact %s (have %v)", shards, name+suffix, artifacts)
			}
		}
		run := ""
		for _, c := range commands {
			if strings.HasPrefix(c, "dshtest run ") {
				run = c
			}
		}
		for _, want := range []string{"--junit ", "--github", "--pending-dir dshtest-pending", "--report dshtest-report.html"} {
			if !strings.Contains(run, want) {
				t.Errorf("shards %d: the run step %q lacks %s", shards, run, want)
			}
		}
		if shards > 1 && !strings.Contains(run, fmt.Sprintf("--shard 1/%d", shards)) {
			t.Errorf("shards %d: the run step %q runs no shard", shards, run)
		}
		if !strings.Contains(string(b), "GITHUB_STEP_SUMMARY") {
			t.Errorf("shards %d: no job summary", shards)
		}
		if !strings.Contains(strings.Join(commands, "\n"), "dshtest review --pending-dir") {
			t.Errorf("shards %d: the summary does not say how to accept: %q", shards, commands)
		}
	}
}

// checkCommand fails unless args (a shell command line, "dshtest …") name
// a command of root and only flags it has.
func checkCommand(t *testing.T, root *cobra.Command, args []string) {
	t.Helper()
	var words []string
	for _, w := range args[1:] {
		if strings.ContainsAny(w, "|>;") {
			break // the end of the command: a pipe or a redirection
		}
		words = append(words, w)
	}
	cmd, rest, err := root.Find(words)
	if err != nil || cmd == root {
		t.Errorf("%q: no such command (%v)", strings.Join(args, " "), err)
		return
	}
	for _, w := range rest {
		name, ok := strings.CutPrefix(w, "--")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if cmd.Flags().Lookup(name) == nil {
			t.Errorf("%q: %s has no flag --%s", strings.Join(args, " "), cmd.CommandPath(), name)
		}
	}
}

// TestInitRefuses: init writes nothing when any of its files exists.
func TestInitRefuses(t *testing.T) {
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wf, "dshtest.yml"), []byte("ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	code := Run([]string{"init", dir}, strings.NewReader(""), &stdout, &stderr, nil)
	if code != ExitUsage || !strings.Contains(stderr.String(), "init: .github/workflows/dshtest.yml already in ") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	for _, p := range []string{"scenarios", "fixtures", ".gitignore"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(wf, "dshtest.yml")); string(b) != "ours\n" {
		t.Errorf("the workflow was overwritten: %q", b)
	}
}
