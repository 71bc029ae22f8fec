package harness

import (
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbHelp is the help verb.
//
//	help [VERB]
//
// Prints the syntax and description of every verb, or of one. The text is
// generated from the verbs' doc comments (go generate ./harness).
//
// Example:
//
//	help compact
func verbHelp(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "help", func(s *script) error {
		switch len(args) {
		case 0:
			fmt.Fprint(ts.Stdout(), Help())
			return nil
		case 1:
			if h, ok := VerbHelp(args[0]); ok {
				fmt.Fprint(ts.Stdout(), h)
				return nil
			}
			return fmt.Errorf("help: no verb %q (verbs: %s)", args[0], strings.Join(Verbs(), ", "))
		}
		return fmt.Errorf("usage: help [VERB]")
	})
}

// Help returns the help text of every verb.
func Help() string {
	var b strings.Builder
	b.WriteString("dshtest scenario verbs (testscript commands; see also testscript's built-ins such as cmp, stdout, stderr, exists):\n\n")
	for i, v := range verbTable() {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(v.help)
	}
	return b.String()
}

// VerbHelp returns one verb's help text.
func VerbHelp(name string) (string, bool) {
	for _, v := range verbTable() {
		if v.name == name {
			return v.help, true
		}
	}
	return "", false
}

// Verbs returns the verb names, sorted.
func Verbs() []string {
	table := verbTable()
	out := make([]string, len(table))
	for i, v := range table {
		out[i] = v.name
	}
	return out
}

// verb is one entry of the generated verb table.
type verb struct {
	name string
	run  func(ts *testscript.TestScript, neg bool, args []string)
	help string
}

// commands returns the verbs as testscript commands.
func commands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	table := verbTable()
	m := make(map[string]func(ts *testscript.TestScript, neg bool, args []string), len(table))
	for _, v := range table {
		m[v.name] = v.run
	}
	return m
}
