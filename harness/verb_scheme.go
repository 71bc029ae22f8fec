package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/display"
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
		if len(args) != 1 {
			return fmt.Errorf("usage: scheme dark|light")
		}
		sc, err := display.ParseScheme(args[0])
		if err != nil {
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
