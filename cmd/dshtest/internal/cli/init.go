package cli

import (
	"bytes"
	_ "embed" // the files init writes
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/internal/ground/safefile"
)

// The files of a new suite. The example's fixture is not among them: init
// records it, as dshtest record would, so it is always this renderer's.
var (
	//go:embed initfiles/example.txtar
	initExample []byte
	//go:embed initfiles/dshtest.yml
	initWorkflow string
)

// initIgnore is the line of .gitignore that keeps pending screens out of
// a commit.
const initIgnore = "*.screen.new"

// initWorkflowPath is where init writes the CI workflow.
var initWorkflowPath = filepath.Join(".github", "workflows", "dshtest.yml")

func (a *app) initCommand() *cobra.Command {
	var shards int
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Make a scenario suite: an example scenario, its fixture and a CI workflow",
		Long: `init makes a team's scenario suite in DIR (the working directory by default;
made if missing):

  scenarios/example.txtar         an example scenario, commented
  fixtures/example.screen         its fixture, recorded as dshtest record does
  .gitignore                      with *.screen.new (added to one that exists)
  .github/workflows/dshtest.yml   a GitHub Actions workflow: dshtest run with
                                  --junit, --github and --pending-dir; on
                                  failure it uploads the pending screens and
                                  the HTML report as artifacts; a job summary

--shards N spreads the suite over a job matrix of N runners, each running
dshtest run --shard i/N. init never overwrites a file: if one of these
exists, it names it and writes nothing. Then cd DIR and dshtest run passes.`,
		Example: `  dshtest init
  dshtest init demo && cd demo && dshtest run
  dshtest init --shards 4`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if shards < 1 {
				return usagef("--shards %d: want 1 or more", shards)
			}
			return a.initSuite(dir, shards)
		}),
	}
	cmd.Flags().IntVar(&shards, "shards", 1, "spread the CI workflow over N runners (run --shard i/N)")
	return cmd
}

// initSuite writes the suite's files in dir, then records the example.
func (a *app) initSuite(dir string, shards int) error {
	workflow, err := workflowFile(shards, dshtestVersion())
	if err != nil {
		return err
	}
	files := []struct {
		rel  string
		data []byte
		note string
	}{
		{filepath.Join("scenarios", "example.txtar"), initExample, ""},
		{initWorkflowPath, workflow, ""},
	}
	if shards > 1 {
		files[1].note = fmt.Sprintf(" (%d shards)", shards)
	}
	// Nothing is written unless every file is new.
	var exist []string
	for _, rel := range []string{files[0].rel, filepath.Join("fixtures", "example.screen"), files[1].rel} {
		if _, err := os.Lstat(filepath.Join(dir, rel)); err == nil {
			exist = append(exist, filepath.ToSlash(rel))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("init: %w", err)
		}
	}
	if len(exist) > 0 {
		return &exitError{code: ExitUsage, err: fmt.Errorf("init: %s already in %s; nothing written", strings.Join(exist, ", "), esc(dir))}
	}
	ignore, ignoreNote, err := gitignore(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	for _, d := range []string{"scenarios", "fixtures", filepath.Dir(initWorkflowPath)} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return fmt.Errorf("init: %w", err)
		}
	}
	for _, f := range files {
		if err := safefile.WriteFile(filepath.Join(dir, f.rel), f.data, safefile.Options{}); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		fmt.Fprintf(a.stdout, "created   %s%s\n", filepath.ToSlash(f.rel), f.note)
	}
	if ignore != nil {
		// Force: an existing .gitignore is replaced by itself plus the line.
		if err := safefile.WriteFile(filepath.Join(dir, ".gitignore"), ignore, safefile.Options{Force: true}); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		fmt.Fprintf(a.stdout, "%s .gitignore (%s)\n", ignoreNote, initIgnore)
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := a.record(root, "^example$", false, false, false, false); err != nil {
		// Leave no suite that fails: the files made are removed, so that
		// init can run again once the cause is fixed.
		for _, f := range files {
			os.Remove(filepath.Join(dir, f.rel))
		}
		return err
	}
	fmt.Fprintf(a.stdout, "next: ")
	if dir != "." {
		fmt.Fprintf(a.stdout, "cd %s && ", esc(dir))
	}
	fmt.Fprintln(a.stdout, "dshtest run")
	return nil
}

// gitignore is the .gitignore at path with initIgnore in it, and what
// init did ("created" or "updated"); nil when it has the line already.
func gitignore(path string) ([]byte, string, error) {
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return []byte("# pending screens that dshtest run writes beside their fixtures\n" + initIgnore + "\n"), "created  ", nil
	case err != nil:
		return nil, "", err
	}
	for _, l := range strings.Split(string(old), "\n") {
		if strings.TrimSpace(l) == initIgnore {
			return nil, "", nil
		}
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		old = append(old, '\n')
	}
	return append(old, initIgnore+"\n"...), "updated  ", nil
}

// workflowFile is the CI workflow for a suite run on shards runners,
// installing dshtest at version.
func workflowFile(shards int, version string) ([]byte, error) {
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
	}{Sharded: shards > 1, Shards: shards, Matrix: "[" + strings.Join(matrix, ", ") + "]", Version: version}
	if data.Sharded {
		data.Suffix = "-${{ matrix.shard }}"
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// dshtestVersion is the module version this binary was built at, for the
// workflow to install the same; "latest" for a build from a checkout.
func dshtestVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == modulePath && strings.HasPrefix(bi.Main.Version, "v") && !strings.Contains(bi.Main.Version, "+dirty") {
		return bi.Main.Version
	}
	return "latest"
}
