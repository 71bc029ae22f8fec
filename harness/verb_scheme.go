package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/terminal"
)

// verbScheme is the scheme verb.
//
//	scheme dark|light
//
// Sets the colour scheme: before mount, the initial one; after mount, a
// scheme change message (which rebuilds the transcript).
//
// Example:
//
//	scheme light
func verbScheme(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "scheme", func(s *script) error {
		var sc terminal.Scheme
		switch {
		case len(args) == 1 && args[0] == "dark":
			sc = terminal.SchemeDark
		case len(args) == 1 && args[0] == "light":
			sc = terminal.SchemeLight
		default:
			return fmt.Errorf("usage: scheme dark|light")
		}
		if s.term == nil {
			s.view.scheme = sc
			return nil
		}
		s.update(terminal.SchemeMsg{Scheme: sc})
		return nil
	})
}
