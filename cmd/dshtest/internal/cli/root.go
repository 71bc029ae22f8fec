package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness/suitedir"
)

// modulePath is the module whose checkout dshtest run and record work in.
const modulePath = "github.com/dshtest/dshtest"

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "dshtest",
		Short: "Run, record and review transcript scenarios; reproduce a user's session log",
		Long: `dshtest pins the human transcript of agent session logs with scenarios and
golden fixtures, and checks a user's log against the transcript invariants.

In CI:        dshtest run --junit junit.xml --github --pending-dir pending/
                                     (exit 1 if any scenario fails)
At your desk: dshtest run, then dshtest review (or accept / reject) the
              pending screens it wrote; dshtest record re-records.
In triage:    dshtest repro LOG.jsonl (live ≡ replay, nothing lost, one marker
              per compaction, history pages), then --emit a scenario.

Exit codes: 0 ok, 1 a failed check, 2 usage or bad input.`,
		Example: `  dshtest run
  dshtest run compaction --json
  dshtest review
  dshtest accept log-summary
  dshtest record compaction
  dshtest repro user.jsonl --size 80x24 --size 44x18
  dshtest render user.jsonl --width 100
  dshtest completion bash > /etc/bash_completion.d/dshtest`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          unknownCommand,
		// cobra's own default, which SuggestionsFor does not apply.
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%v", err) })
	root.AddCommand(
		a.initCommand(),
		a.runCommand(),
		a.recordCommand(),
		a.reproCommand(),
		a.renderCommand(),
		a.viewCommand(),
		a.checkCommand(),
		a.eventsCommand(),
		a.historyCommand(),
		a.acceptCommand(),
		a.rejectCommand(),
		a.reviewCommand(),
		a.showCommand(),
		a.reportCommand(),
		a.verbsCommand(),
		a.sessionsCommand(),
	)
	root.SetHelpCommand(a.helpCommand(root))
	// Cobra's completion commands take their stream when they are made:
	// give them ours, so a failed write is seen.
	root.SetOut(a.stdout)
	// Give cobra's own commands examples too.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Example = "  dshtest help repro\n  dshtest help completion bash\n  dshtest help snapshot"
		case "completion":
			c.Example = "  source <(dshtest completion bash)\n  dshtest completion zsh > \"${fpath[1]}/_dshtest\"\n  dshtest completion fish > ~/.config/fish/completions/dshtest.fish"
			for _, sh := range c.Commands() {
				sh.Example = "  dshtest completion " + sh.Name() + " --help"
				switch sh.Name() {
				case "bash":
					sh.Example = "  source <(dshtest completion bash)"
				case "zsh":
					sh.Example = "  dshtest completion zsh > \"${fpath[1]}/_dshtest\""
				case "fish":
					sh.Example = "  dshtest completion fish > ~/.config/fish/completions/dshtest.fish"
				case "powershell":
					sh.Example = "  dshtest completion powershell | Out-String | Invoke-Expression"
				}
			}
		}
	}
	a.finishRoot(root)
	return root
}

// findRoot returns the scenario folder: dir itself when set (it must hold
// a scenarios/ directory; fixtures/ is made when first recorded), else the
// nearest directory at or above the working directory holding scenarios/
// and fixtures/ (or this module's checkout, whose go.mod names it). Any
// team's folder works, not only this module's.
func findRoot(dir string) (string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", usagef("--dir %s: no such folder (a scenario folder holds scenarios/*.txtar and fixtures/; dshtest init DIR makes one)", esc(dir))
		}
		if !suitedir.HasScenarios(abs) {
			return "", usagef("--dir %s: no scenarios/ folder there (a scenario folder holds scenarios/*.txtar and fixtures/; dshtest init DIR makes one)", esc(dir))
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		if suitedir.HasScenarios(d) && (suitedir.HasFixtures(d) || isRepoRoot(d)) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", usagef("no scenario folder at or above %s (looked for scenarios/ and fixtures/); use --dir, or make one with dshtest init", wd)
		}
		d = parent
	}
}

func isRepoRoot(dir string) bool {
	if !suitedir.HasScenarios(dir) {
		return false
	}
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`) == modulePath
		}
	}
	return false
}

// relTo returns path relative to base when it lies inside it.
func relTo(base, path string) string {
	if r, err := filepath.Rel(base, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// unknownCommand refuses arguments to dshtest itself, which are a command
// it does not have: a usage error that suggests the command meant, as a
// scenario's unknown verb is answered.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	hint := ""
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		hint = fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return usagef("unknown command %q for %q%s", args[0], cmd.CommandPath(), hint)
}
