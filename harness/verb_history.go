package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// verbHistory is the history verb.
//
//	history --max N [--before S]
//
// Pages session.history backwards from the tail (or from before seq S)
// with maxMessages N until no older page is left, and prints each page:
//
//	page 25-40 hasMore=true counted 37 36 25
//	  marker 33 summary-seq=32 items=4 tokens=120 "Listed the files."
//
// that is its seq range, hasMore, the append-origin messages that count
// toward maxMessages (newest first), and the compaction markers of the
// page's own transcript with the data of their cited summary ("?" when the
// summary is on another page).
//
// Example:
//
//	history --max 3
//	cmp stdout pages.txt
func verbHistory(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "history", func(s *script) error {
		p, err := parseArgs("history", args, flagSpec{values: []string{"max", "before"}})
		if err != nil {
			return err
		}
		maxS, ok := p.get("max")
		if !ok || len(p.pos) != 0 {
			return fmt.Errorf("usage: history --max N [--before S]")
		}
		maxN, err := intArg("history", "max", maxS)
		if err != nil {
			return err
		}
		before := int64(-1)
		if v, ok := p.get("before"); ok {
			if before, err = s.seqArg("history", v); err != nil {
				return err
			}
		}
		evs := s.events()
		var pager Pager = history.New(evs)
		if h := s.suite.cfg.History; h != nil {
			pager = h(evs)
		}
		w := ts.Stdout()
		for range len(evs) + 1 {
			page := pager.Page(before, int(maxN))
			fmt.Fprintf(w, "page %d-%d hasMore=%t counted%s\n", page.From, page.To, page.HasMore, seqList(countedSeqs(page.Events)))
			t := s.project(page.Events)
			for i := range t.Items {
				if it := &t.Items[i]; it.Kind == transcript.KindMarker {
					fmt.Fprintf(w, "  marker %d%s\n", it.ID.Seq, markerData(it.Marker))
				}
			}
			if !page.HasMore || len(page.Events) == 0 {
				return nil
			}
			before = page.From
		}
		return fmt.Errorf("history: paging did not terminate")
	})
}

// countedSeqs lists, newest first, the page's messages that count toward
// maxMessages under log.md §12.2: append-origin user/message and
// assistant/message.
func countedSeqs(evs []sessionlog.Event) []int64 {
	var out []int64
	for i := len(evs) - 1; i >= 0; i-- {
		e := &evs[i]
		if (e.Type == sessionlog.TypeUserMessage || e.Type == sessionlog.TypeAssistantMessage) && sessionlog.IsAppendSurfaceEvent(e) {
			out = append(out, e.Seq)
		}
	}
	return out
}
