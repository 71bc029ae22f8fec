package cli

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/terminal/display"
)

// This file holds the small things around the commands: the scenario
// verbs outside a scenario (dshtest verbs, dshtest help VERB), --version,
// and shell completion of scenario names and enumerated flag values.

func (a *app) verbsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "verbs [VERB]",
		Short: "Print the scenario DSL's verbs (all, or one) with their syntax and examples",
		Long: `verbs prints every verb a scenario (scenarios/*.txtar) can use, with its
syntax, what it does and an example, as the help verb does inside a
scenario. With VERB it prints that one; dshtest help VERB does the same.`,
		Example: `  dshtest verbs
  dshtest verbs snapshot
  dshtest help compact`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return harness.Verbs(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				_, err := fmt.Fprint(a.stdout, harness.Help())
				return err
			}
			h, ok := harness.VerbHelp(args[0])
			if !ok {
				return usagef("no verb %q (verbs: %s)", args[0], strings.Join(harness.Verbs(), ", "))
			}
			_, err := fmt.Fprint(a.stdout, h)
			return err
		}),
	}
}

// helpCommand is "dshtest help [COMMAND|VERB]": a command's help, or a
// scenario verb's.
func (a *app) helpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND | VERB]",
		Short: "Help about any command, or about a scenario verb",
		Long: `help prints a command's help (dshtest help run), or, for a verb of the scenario
DSL, the verb's syntax and example (dshtest help snapshot; dshtest verbs
lists them all).`,
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, c := range root.Commands() {
				if c.IsAvailableCommand() {
					out = append(out, c.Name())
				}
			}
			return append(out, harness.Verbs()...), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return root.Help()
			}
			if c, rest, err := root.Find(args); err == nil && c != root && len(rest) == 0 {
				c.InitDefaultHelpFlag()
				return c.Help()
			}
			if len(args) == 1 {
				if h, ok := harness.VerbHelp(args[0]); ok {
					_, err := fmt.Fprint(a.stdout, h)
					return err
				}
			}
			return usagef("no command or scenario verb %q (dshtest --help lists the commands, dshtest verbs the verbs)", strings.Join(args, " "))
		}),
	}
}

// version is the module's version and VCS revision, from the build
// information.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " " + rev + dirty
	}
	return v + " " + bi.GoVersion
}

// flagValues are the enumerated values of flags, by flag name, for shell
// completion (a command may register its own first, as render's --format).
var flagValues = map[string][]string{
	"scheme":     display.SchemeNames(),
	"reasoning":  display.ReasoningNames(),
	"tools":      display.ToolModeNames(),
	"projection": {"transcript", "surface"},
	"section":    {"screen", "document"},
}

// finishRoot adds what every command shares: --version, the help
// command, completion of scenario names, and of enumerated flag values.
func (a *app) finishRoot(root *cobra.Command) {
	root.Version = version()
	root.SetVersionTemplate("dshtest {{.Version}}\n")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, values := range flagValues {
			if c.Flags().Lookup(name) != nil {
				if _, ok := c.GetFlagCompletionFunc(name); !ok {
					completeValues(c, name, values)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "run", "record":
			dir := c.Flags().Lookup("dir")
			c.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				d := ""
				if dir != nil {
					d = dir.Value.String()
				}
				return scenarioCompletions(d, toComplete), cobra.ShellCompDirectiveNoFileComp
			}
		}
	}
}

// scenarioCompletions lists the scenario names starting with prefix.
func scenarioCompletions(dir, prefix string) []string {
	root, err := findRoot(dir)
	if err != nil {
		return nil
	}
	names, err := harness.ScenarioNames(suitedir.Dir{Root: root}.Scenarios())
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
