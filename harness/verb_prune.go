package harness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
)

// verbPrune is the prune verb.
//
//	prune [SEQ] [--threshold N] [--head N] [--tail N] [--old] [--as NAME]
//
// Runs one pass of the tool-result pruner (log.md §11): for each tool/result
// on the surface (only SEQ when given) whose text is over thresholdChars
// code points (default 8192), appends compaction/prune {shadowedRange,
// shadowedSeqs, shadowedTokenCount} and then the pruned replacement
// (surfaceOp replace SEQ..SEQ, sourceEventSeqs [SEQ]) whose text is the
// first headChars (4096) code points, the marker "\n\n[... tool result
// middle pruned ...]\n\n" and the last tailChars (1024). --old writes no
// compaction/prune (the older pruner). The config is checked first, with
// the spec's errors (also for an unknown --KEY). It fails when nothing is
// over the threshold. --as labels the last replacement.
//
// Example:
//
//	prune
//	prune big_result --threshold 200 --head 100 --tail 40
//	! prune --head 9000
//	stderr 'must be at most thresholdChars'
func verbPrune(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "prune", func(s *script) error {
		cfg := DefaultPruneConfig()
		var pos []string
		old, as := false, ""
		for i := 0; i < len(args); i++ {
			a := args[i]
			name, isFlag := strings.CutPrefix(a, "--")
			if !isFlag {
				pos = append(pos, a)
				continue
			}
			if name == "old" {
				old = true
				continue
			}
			var dst *int
			switch name {
			case "threshold", "thresholdChars":
				dst = &cfg.ThresholdChars
			case "head", "headChars":
				dst = &cfg.HeadChars
			case "tail", "tailChars":
				dst = &cfg.TailChars
			case "as":
			default:
				return pruneKeyError(name)
			}
			if i+1 >= len(args) {
				return fmt.Errorf("prune: flag --%s needs a value", name)
			}
			i++
			if dst == nil {
				as = args[i]
				continue
			}
			n, err := strconv.Atoi(args[i])
			if err != nil || n < 0 {
				return fmt.Errorf("prune: --%s %q is not a non-negative integer", name, args[i])
			}
			*dst = n
		}
		if err := cfg.Check(); err != nil {
			return err
		}
		if len(pos) > 1 {
			return fmt.Errorf("usage: prune [SEQ] [--threshold N] [--head N] [--tail N] [--old] [--as NAME]")
		}
		evs := s.events()
		var targets []int64
		for _, n := range s.sess.Surface().Nodes() {
			if evs[n].Type == "tool/result" {
				targets = append(targets, n)
			}
		}
		if len(pos) == 1 {
			seq, err := s.seqArg("prune", pos[0])
			if err != nil {
				return err
			}
			found := false
			for _, t := range targets {
				found = found || t == seq
			}
			if !found {
				return fmt.Errorf("prune: seq %d is not a tool/result on the surface", seq)
			}
			targets = []int64{seq}
		}
		var out []sessionlog.Event
		for _, seq := range targets {
			data, n, ok, err := prunedData(cfg, evs[seq].Data)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if !old {
				out = append(out, logOnly(sessionlog.TypeCompactionPrune, logbuild.PruneRecord(seq, int64((n+3)/4))))
			}
			out = append(out, sessionlog.Event{Type: sessionlog.TypeToolResult, Data: data,
				SurfaceOp: sessionlog.ReplaceOp(seq, seq), SourceEventSeqs: mustJSON([]int64{seq})})
		}
		if len(out) == 0 {
			return fmt.Errorf("prune: no tool/result on the surface is over thresholdChars (%d)", cfg.ThresholdChars)
		}
		_, err := s.appendLabelled(ts, parsed{flags: []flagVal{{"as", as}}}, -1, out...)
		return err
	})
}
