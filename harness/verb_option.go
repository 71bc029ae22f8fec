package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbOption is the option verb.
//
//	option eager
//	option max-tool-lines N
//
// Sets a terminal option before mount. eager selects upstream's eager
// step rule (step/start draws an empty Assistant block at once), which
// reproduces upstream's fixtures; the default is the lazy rule.
// max-tool-lines sets the card fold limit (default 6).
//
// Example:
//
//	option eager
//	option max-tool-lines 3
func verbOption(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "option", func(s *script) error {
		if s.term != nil {
			return fmt.Errorf("option: options are set before mount")
		}
		switch {
		case len(args) == 1 && args[0] == "eager":
			s.view.eager = true
		case len(args) == 2 && args[0] == "max-tool-lines":
			n, err := intArg("option", "max-tool-lines", args[1])
			if err != nil {
				return err
			}
			if n < 1 {
				return fmt.Errorf("option: max-tool-lines must be at least 1")
			}
			s.view.maxToolLines = int(n)
		default:
			return fmt.Errorf("usage: option eager | option max-tool-lines N")
		}
		return nil
	})
}
