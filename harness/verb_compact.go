package harness

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
)

// openCompaction is a transaction that compact --open started.
type openCompaction struct {
	id       string
	old      bool
	turn     *int64
	command  string
	startSeq int64
}

// verbCompact is the compact verb.
//
//	compact FROM TO [--manual] [--summary TEXT] [--fail ERROR] [--old] [--open] [--command ID] [--as NAME]
//
// Writes a whole compaction transaction over the surface nodes FROM..TO
// (seqs or labels; FROM must be at or before TO in surface order):
// compaction/start {compactionId, turn}, compaction/summary {compactionId,
// summary, shadowedRange, shadowedSeqs, shadowedTokenCount, provider,
// model}, the checkpoint user/message (surfaceOp replace FROM..TO, source
// {kind:"plugin",plugin:"compact",compactionId}, sourceEventSeqs [start,
// summary, ...shadowed]) and compaction/end. The transaction belongs to
// the current turn; --manual makes it standalone (turn:null). --fail
// writes only start and end {error:ERROR}. --old writes the older compact/*
// vocabulary, without ids, and the older checkpoint source. --open writes
// only the start and leaves it unmatched (a standalone one drives the
// progress indicator); the next compact finishes that transaction.
// --command sets sourceCommandId. --as labels the checkpoint (the start
// with --open, the end with --fail). The events are validated together: if
// the checkpoint is rejected, nothing is written.
//
// Example:
//
//	compact first_prompt last_answer --summary 'Listed the files.'
//	compact 2 9 --manual --open
//	clock +4000
//	compact 2 9 --manual --fail 'summary too large'
func verbCompact(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "compact", func(s *script) error {
		p, err := parseArgs("compact", args, flagSpec{bools: []string{"manual", "old", "open"},
			values: []string{"summary", "fail", "command", "as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 2 {
			return fmt.Errorf("usage: compact FROM TO [--manual] [--summary TEXT] [--fail ERROR] [--old] [--open] [--command ID] [--as NAME]")
		}
		from, err := s.seqArg("compact", p.pos[0])
		if err != nil {
			return err
		}
		to, err := s.seqArg("compact", p.pos[1])
		if err != nil {
			return err
		}
		tx := s.open
		resuming := tx != nil
		if !resuming {
			tx = &openCompaction{old: p.has("old")}
			if !tx.old {
				tx.id = logbuild.SeqCompactionID(s.compactions + 1)
			}
			if !p.has("manual") {
				if s.turn == 0 {
					return fmt.Errorf("compact: no current turn; use --manual for a standalone compaction")
				}
				t := s.turn
				tx.turn = &t
			}
			tx.command, _ = p.get("command")
		} else if p.has("open") {
			return fmt.Errorf("compact: a compaction is already open (started at seq %d)", tx.startSeq)
		}
		names := logbuild.Compaction(tx.old)
		seq := s.nextSeq()
		var evs []sessionlog.Event
		if !resuming {
			tx.startSeq = seq
			evs = append(evs, logOnly(names.Start, tx.compaction().Start(tx.turn)))
		}
		label := 0
		switch errText, failed := p.get("fail"); {
		case p.has("open"):
		case failed:
			if errText, err = textArg(ts, "compact", errText); err != nil {
				return err
			}
			evs = append(evs, logOnly(names.End, tx.compaction().End(tx.turn, &errText)))
			label = len(evs) - 1
		default:
			summary := fmt.Sprintf("Summary of seqs %d–%d.", from, to)
			if v, ok := p.get("summary"); ok {
				if summary, err = textArg(ts, "compact", v); err != nil {
					return err
				}
			}
			shadowed := s.shadowed(from, to)
			blocks := []jsonobj.Object{logbuild.TextBlock(summary)}
			summarySeq := seq + int64(len(evs))
			evs = append(evs,
				logOnly(names.Summary, tx.compaction().Data(logbuild.Summary{Summary: blocks, Shadowed: shadowed,
					Start: from, End: to, Tokens: s.tokenCount(shadowed), Provider: logbuild.DefaultProvider, Model: logbuild.DefaultModel})),
				checkpointEvent(tx, blocks, from, to, logbuild.CheckpointSources(tx.startSeq, summarySeq, shadowed), summarySeq+1),
				logOnly(names.End, tx.compaction().End(tx.turn, nil)))
			label = len(evs) - 2
		}
		if _, err := s.appendLabelled(ts, p, label, evs...); err != nil {
			return err
		}
		if !resuming {
			s.compactions++
		}
		s.open = nil
		if p.has("open") {
			s.open = tx
		}
		return nil
	})
}

// compaction returns the transaction's ids for logbuild.
func (tx *openCompaction) compaction() logbuild.Tx {
	return logbuild.Tx{Older: tx.old, CompactionID: tx.id, SourceCommandID: tx.command}
}

// checkpointEvent is the checkpoint user/message of log.md §9.4.
func checkpointEvent(tx *openCompaction, summary []jsonobj.Object, from, to int64, sources []int64, seq int64) sessionlog.Event {
	msg := logbuild.UserMessage(logbuild.SeqID("checkpoint", seq), logbuild.CheckpointContent(summary),
		json.RawMessage(sessionlog.CompactCheckpointSource(tx.id, tx.command)))
	return surfaceReplace(sessionlog.TypeUserMessage, msg, from, to, sources)
}

// shadowed returns the surface nodes from..to in surface order. When the
// range is not on the surface it returns the two seqs, so that the
// checkpoint reaches the fold and is rejected with the spec's text.
func (s *script) shadowed(from, to int64) []int64 {
	nodes := s.sess.Surface().Nodes()
	si, ei := slices.Index(nodes, from), slices.Index(nodes, to)
	if si < 0 || ei < 0 || si > ei {
		if from == to {
			return []int64{from}
		}
		return []int64{from, to}
	}
	return slices.Clone(nodes[si : ei+1])
}

// tokenCount is a deterministic stand-in for the token meter: a quarter
// of the derived messages' JSON length, rounded up.
func (s *script) tokenCount(seqs []int64) int64 {
	var n int64
	evs := s.events()
	for _, q := range seqs {
		if q < 0 || q >= int64(len(evs)) {
			continue
		}
		if m, ok := surface.DeriveEventMessage(&evs[q]); ok {
			n += int64(len(m))
		}
	}
	return (n + 3) / 4
}
