package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbPresenter is the presenter verb.
//
//	presenter upstream-bash
//	presenter default
//
// Chooses the tool-card presenters before mount. upstream-bash is the
// static bash presenter of upstream's compaction fixtures: every bash card
// reads "● Tool / bash / Run the coverage gate" with the command
// "pnpm run test:coverage", the cwd "/workspace/project", four fixed
// output lines and "[exit 0]", whatever the log says.
//
// Example:
//
//	presenter upstream-bash
func verbPresenter(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "presenter", func(s *script) error {
		if s.term != nil {
			return fmt.Errorf("presenter: presenters are set before mount")
		}
		if len(args) != 1 || (args[0] != "upstream-bash" && args[0] != "default") {
			return fmt.Errorf("usage: presenter upstream-bash|default")
		}
		s.view.presenter = args[0]
		if args[0] == "default" {
			s.view.presenter = ""
		}
		return nil
	})
}
