package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbToggle is the toggle verb.
//
//	toggle reasoning
//	toggle tools
//
// Presses Ctrl+R (show/hide reasoning) or Ctrl+O (tool cards collapsed →
// expanded → hidden → collapsed) on the mounted terminal. Before mount it
// sets the initial state instead.
//
// Example:
//
//	toggle tools
//	snapshot cards-expanded
func verbToggle(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "toggle", func(s *script) error {
		if len(args) != 1 || (args[0] != "reasoning" && args[0] != "tools") {
			return fmt.Errorf("usage: toggle reasoning|tools")
		}
		if s.term == nil {
			if args[0] == "reasoning" {
				s.view.hideReasoning = !s.view.hideReasoning
			} else {
				s.view.tools = s.view.tools.Next()
			}
			return nil
		}
		if args[0] == "reasoning" {
			s.update(ctrlKey('r'))
		} else {
			s.update(ctrlKey('o'))
		}
		return nil
	})
}
