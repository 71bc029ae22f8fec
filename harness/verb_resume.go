package harness

import (
	"bytes"
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
)

// verbResume is the resume verb.
//
//	resume
//
// Simulates a process restart: writes the log as JSONL, reads it back with
// the codec, resumes it (surface.Resume appends session/end-seed),
// drops the terminal and mounts a fresh one with the same size, scheme,
// toggles and options. That is the replay path a user meets after a
// restart; an open standalone compaction becomes stale.
//
// Example:
//
//	resume
//	snapshot after-resume
func verbResume(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "resume", func(s *script) error {
		if len(args) != 0 {
			return fmt.Errorf("usage: resume")
		}
		if s.term == nil {
			return fmt.Errorf("resume: mount first")
		}
		var b bytes.Buffer
		if err := jsonl.WriteLog(&b, s.events()); err != nil {
			return fmt.Errorf("resume: write the log: %w", err)
		}
		log, err := jsonl.ParseLog(b.Bytes(), "session.jsonl")
		if err != nil {
			return fmt.Errorf("resume: read the log back: %w", err)
		}
		sess, err := surface.Resume(log.Events, s.clock)
		if err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		s.sess = sess
		s.syncCursor()
		s.open = nil
		s.mount()
		return nil
	})
}
