package harness

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/reader"
	"github.com/dshtest/dshtest/surface"
)

// verbLoad is the load verb.
//
//	load FILE
//
// Loads a log carried in the archive as the scenario's session, through the
// one reading path every dshtest command uses (sessionlog/reader: any form
// upstream writes, its upgrades and crash recovery; a header-less JSONL log
// as written), then surface.Load, no session/end-seed appended. It must come before
// any append and before mount. Decode and load errors are the codec's and
// the session's ("path:line: reason (seq N)", "seed event at index N …").
// FILE is a regular file of the archive: an absolute path, a ".." or a
// link that leads out of the scenario's directory is refused before it is
// read, and the log is read line by line under the codec's 64 MiB line cap.
//
// Example:
//
//	load example-session.jsonl
//	mount 100 40
//
//	-- example-session.jsonl --
//	{"type":"turn/start","seq":0,"time":1784630400000,"data":{"turn":1}}
func verbLoad(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "load", func(s *script) error {
		if len(args) != 1 {
			return fmt.Errorf("usage: load FILE")
		}
		if s.sess.Len() > 0 || s.term != nil {
			return fmt.Errorf("load: the scenario already has a log or a terminal; load comes first")
		}
		// Confined to the archive (no absolute path, no .. or link out,
		// regular files only), then read by the one reader, which streams
		// it line by line under the line cap.
		f, err := openArchiveFile(ts, "load", args[0])
		if err != nil {
			return err
		}
		abs := ts.MkAbs(args[0])
		f.Close()
		log, err := reader.Read(abs, reader.Options{})
		if err != nil {
			var re *sessionlog.Error
			if errors.As(err, &re) && re.Path == abs {
				err = re.At(sessionlog.Pos{Path: args[0], Line: re.Line, Seq: re.Seq}) // name the file as the scenario does
			}
			return err
		}
		for _, w := range log.Warnings {
			ts.Logf("load: warning: %s", w)
		}
		sess, err := surface.Load(log.Events, s.clock)
		if err != nil {
			return err
		}
		s.sess = sess
		s.syncCursor()
		return nil
	})
}

// turnStep is the {turn, step} of an event, as the cursor reads it.
type turnStep struct {
	Turn int64 `json:"turn"`
	Step int64 `json:"step"`
}

// syncCursor sets the conversation cursor (turn, step, call ids) from the
// log, so that verbs can continue a loaded or resumed log.
func (s *script) syncCursor() {
	var ts turnStep
	for _, e := range s.events() {
		switch e.Type {
		case "turn/start", "step/start":
			var d turnStep
			if err := json.Unmarshal(e.Data, &d); err == nil {
				if e.Type == "turn/start" {
					ts = turnStep{d.Turn, 0}
				} else {
					ts = d
				}
			}
		case "tool/call":
			var d struct {
				CallID string `json:"callId"`
			}
			if json.Unmarshal(e.Data, &d) == nil {
				s.calls[d.CallID] = e.Seq
			}
		}
	}
	s.turn, s.step, s.stream = ts.Turn, ts.Step, nil
}
