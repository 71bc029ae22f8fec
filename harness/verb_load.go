package harness

import (
	"encoding/json"
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/load"
)

// verbLoad is the load verb.
//
//	load FILE
//
// Loads a log carried in the archive as the scenario's session, through the
// one load path every dshtest command uses (package load: any form
// upstream writes, its upgrades and crash recovery, a header-less JSONL log
// as written; the load-time checks and the surface fold), no session/end
// seed appended. It must come before any append and before mount. A
// refusal is the one dshtest check prints for the file, "FILE:line: reason
// (seq N)", whatever layer refused. FILE is a regular file of the archive:
// an absolute path, a ".." or a link that leads out of the scenario's
// directory is refused before it is read, and the log is read line by line
// under the reader's 64 MiB line cap. A SQLite database is read only by a
// program that links its reader (dshtest run does; a test of its own
// imports sessionlog/sqlite).
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
		// regular files only), then loaded by path (a SQLite database
		// needs one), named as the scenario names it.
		f, err := openArchiveFile(ts, "load", args[0])
		if err != nil {
			return err
		}
		f.Close()
		lg, err := load.Read(ts.MkAbs(args[0]), load.Options{Name: args[0], Clock: s.clock})
		if lg != nil {
			for _, w := range lg.Warnings {
				ts.Logf("load: warning: %s", w)
			}
		}
		if err != nil {
			return err
		}
		s.sess = lg.Session
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
