package harness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/surface"
)

// verbSurface is the surface verb.
//
//	surface
//
// Prints the model surface of the log (the whole-log fold), for a
// following "cmp stdout FILE":
//
//	nodes 33 19 20 30 25 36 38
//	generation 3
//	replace 30 22..22 shadowed 22
//	messages 33 19 20 30 25 36 38
//
// nodes are the surface seqs in surface order, one replace line per
// replacement (its seq, range and shadowed nodes), and messages the seqs
// deriveMessages returns.
//
// Example:
//
//	surface
//	cmp stdout surface.txt
func verbSurface(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "surface", func(s *script) error {
		if len(args) != 0 {
			return fmt.Errorf("usage: surface")
		}
		evs := s.events()
		fold, err := surface.Fold(evs, 0)
		if err != nil {
			return fmt.Errorf("surface: %w", err)
		}
		msgs, err := surface.DeriveMessages(evs, fold.Nodes)
		if err != nil {
			return fmt.Errorf("surface: %w", err)
		}
		w := ts.Stdout()
		fmt.Fprintf(w, "nodes%s\n", seqList(fold.Nodes))
		fmt.Fprintf(w, "generation %d\n", len(fold.Replacements))
		for _, r := range fold.Replacements {
			fmt.Fprintf(w, "replace %d %d..%d shadowed%s\n", r.Seq, r.Start, r.End, seqList(r.ShadowedSeqs))
		}
		seqs := make([]int64, len(msgs))
		for i, m := range msgs {
			seqs[i] = m.Seq
		}
		fmt.Fprintf(w, "messages%s\n", seqList(seqs))
		return nil
	})
}

// seqList formats seqs as " a b c".
func seqList(seqs []int64) string {
	var b strings.Builder
	for _, q := range seqs {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(q, 10))
	}
	return b.String()
}
