package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
)

func (a *app) initCommand() *cobra.Command {
	var shards int
	var noWorkflow bool
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
                                  the HTML report as artifacts; a job summary.
                                  For DIR a folder of a git repository, it
                                  goes to the repository's root (GitHub reads
                                  workflows only there) and runs in DIR.

--shards N spreads the suite over a job matrix of N runners, each running
dshtest run --shard i/N. --no-workflow writes no workflow: for a second suite
of a repository whose workflow runs the first (add a job for it there), or
another CI. init never overwrites a file: if one of these exists, it names
it and writes nothing. Then cd DIR and dshtest run passes.`,
		Example: `  dshtest init
  dshtest init demo && cd demo && dshtest run
  dshtest init --shards 4
  dshtest init pkg/ui --no-workflow`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if shards < 1 {
				return usagef("--shards %d: want 1 or more", shards)
			}
			if noWorkflow && cmd.Flags().Changed("shards") {
				return usagef("--shards is for the workflow, which --no-workflow does not write")
			}
			return a.initSuite(dir, suitedir.InitOptions{Shards: shards, Version: dshtestVersion(), NoWorkflow: noWorkflow})
		}),
	}
	cmd.Flags().IntVar(&shards, "shards", 1, "spread the CI workflow over N runners (run --shard i/N)")
	cmd.Flags().BoolVar(&noWorkflow, "no-workflow", false, "write no CI workflow (a second suite of a repository, another CI)")
	return cmd
}

// initSuite makes the suite's files in dir (suitedir.Init), then records
// the example.
func (a *app) initSuite(dir string, opts suitedir.InitOptions) error {
	made, err := suitedir.Init(dir, opts)
	if made != nil {
		for _, m := range made.Made {
			fmt.Fprintf(a.stdout, "%-9s %s%s\n", m.How, m.Path, m.Note)
		}
	}
	if ee := (*suitedir.ExistsError)(nil); errors.As(err, &ee) {
		if ee.OnlyWorkflow() {
			// The repository has a suite: this one joins it.
			err = fmt.Errorf("%w; the repository's workflow runs another suite: dshtest init %s --no-workflow makes this one, and a job for it goes in that workflow",
				err, harness.ShellQuote(dir))
		}
		return &exitError{code: ExitUsage, err: fmt.Errorf("init: %w", err)}
	}
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := a.record(root, "^example$", false, false, false, false); err != nil {
		made.Remove()
		return err
	}
	fmt.Fprintf(a.stdout, "next: ")
	if dir != "." {
		fmt.Fprintf(a.stdout, "cd %s && ", esc(dir))
	}
	fmt.Fprintln(a.stdout, "dshtest run")
	return nil
}

// dshtestVersion is the module version this binary was built at, for the
// workflow to install the same; "latest" for a build from a checkout.
func dshtestVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == modulePath && strings.HasPrefix(bi.Main.Version, "v") && !strings.Contains(bi.Main.Version, "+dirty") {
		return bi.Main.Version
	}
	return "latest"
}
