package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbMount is the mount verb.
//
//	mount W H
//
// Mounts the terminal at W columns and H rows on the current log: the
// replay path (the whole log is projected at once). Every event appended
// later reaches it live, one terminal.EventMsg at a time. The options,
// presenter, scheme and toggles set before mount apply.
//
// Example:
//
//	option eager
//	presenter upstream-bash
//	mount 80 24
func verbMount(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "mount", func(s *script) error {
		w, h, err := sizeArgs("mount", args)
		if err != nil {
			return err
		}
		if s.term != nil {
			return fmt.Errorf("mount: already mounted (use resume to remount on the stored log)")
		}
		s.view.width, s.view.height = w, h
		s.mount()
		return nil
	})
}
