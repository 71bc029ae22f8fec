package harness

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbResize is the resize verb.
//
//	resize W H
//
// Sends the mounted terminal a window-size message.
//
// Example:
//
//	resize 44 18
func verbResize(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "resize", func(s *script) error {
		w, h, err := sizeArgs("resize", args)
		if err != nil {
			return err
		}
		if s.term == nil {
			return fmt.Errorf("resize: mount first")
		}
		s.view.width, s.view.height = w, h
		s.update(tea.WindowSizeMsg{Width: w, Height: h})
		return nil
	})
}
