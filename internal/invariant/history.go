package invariant

import (
	"cmp"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// This file is history-pages: session.history pages partition the log and
// project their checkpoints.

// historyMaxes are the page sizes history-pages walks the log with.
var historyMaxes = []int{1, 2, 3, 5, 50}

// summarySeq returns the seq of the compaction summary a checkpoint cites.
func summarySeq(events []sessionlog.Event, cp *sessionlog.Event) (int64, bool) {
	seqs, _ := cp.Sources()
	for _, s := range seqs {
		if s >= 0 && s < int64(len(events)) && sessionlog.Canonical(events[s].Type) == sessionlog.TypeCompactionSummary {
			return s, true
		}
	}
	return 0, false
}

func (c *Checker) checkHistory(events []sessionlog.Event) (bool, string) {
	if len(events) == 0 {
		// A header-only log is an empty session: no page to read.
		return true, "no events, so no pages (an empty session)"
	}
	h := history.New(events)
	cps := checkpoints(events)
	n := int64(len(events))
	// Every page of every page size, and what it must project.
	type page struct {
		max, from, to int64
		checkpoints   int
	}
	var pages []page
	var windows []transcript.Window
	var pageCounts []string
	for _, mx := range historyMaxes {
		before := int64(-1)
		next := n // the seq the next (older) page must end just before
		var walked []history.Page
		for {
			p := h.Page(before, mx)
			if len(p.Events) == 0 {
				return false, fmt.Sprintf("max %d: empty page before seq %d", mx, next)
			}
			if p.To+1 != next {
				return false, fmt.Sprintf("max %d: page %d–%d does not end just before seq %d", mx, p.From, p.To, next)
			}
			for i := range p.Events {
				if p.Events[i].Seq != p.From+int64(i) {
					return false, fmt.Sprintf("max %d: page %d–%d is not one contiguous range", mx, p.From, p.To)
				}
			}
			walked = append(walked, p)
			if !p.HasMore {
				if p.From != 0 {
					return false, fmt.Sprintf("max %d: last page starts at seq %d, not 0", mx, p.From)
				}
				break
			}
			if int64(len(walked)) > n {
				return false, fmt.Sprintf("max %d: paging does not end", mx)
			}
			before, next = p.From, p.From
		}
		for _, cp := range cps {
			ss, ok := summarySeq(events, cp)
			if !ok {
				continue
			}
			for _, p := range walked {
				if cp.Seq >= p.From && cp.Seq <= p.To && (ss < p.From || ss > p.To) {
					return false, fmt.Sprintf("max %d: summary seq %d is not on the page %d–%d of its checkpoint seq %d", mx, ss, p.From, p.To, cp.Seq)
				}
			}
		}
		for _, p := range walked {
			start := indexOf(events, p.From)
			pages = append(pages, page{int64(mx), p.From, p.To, len(checkpoints(p.Events))})
			windows = append(windows, transcript.Window{Start: start, End: start + len(p.Events)})
		}
		pageCounts = append(pageCounts, fmt.Sprintf("%d", len(walked)))
	}
	// Project every page in one pass (each event decoded once, however
	// many pages hold it); report the first page, in walk order, whose
	// markers do not match its checkpoints.
	bad := -1
	var got int
	for k, t := range c.windows(events, windows, c.opts) {
		markers := 0
		for _, it := range t.Items {
			if it.Kind == transcript.KindMarker {
				markers++
			}
		}
		if markers != pages[k].checkpoints && (bad < 0 || k < bad) {
			bad, got = k, markers
		}
	}
	if bad >= 0 {
		p := pages[bad]
		return false, fmt.Sprintf("max %d: page %d–%d projects %s for %s", p.max, p.from, p.to, Plural(got, "marker"), Plural(p.checkpoints, "checkpoint"))
	}
	maxes := make([]string, len(historyMaxes))
	for i, m := range historyMaxes {
		maxes[i] = fmt.Sprint(m)
	}
	cited := 0
	for _, cp := range cps {
		if _, ok := summarySeq(events, cp); ok {
			cited++
		}
	}
	return true, fmt.Sprintf("%s pages at max %s, contiguous; %d of %s with its summary on its page",
		strings.Join(pageCounts, "/"), strings.Join(maxes, "/"), cited, Plural(len(cps), "checkpoint"))
}

// indexOf returns the index in events of the event with the given seq (the
// log is in seq order).
func indexOf(events []sessionlog.Event, seq int64) int {
	i, _ := slices.BinarySearchFunc(events, seq, func(e sessionlog.Event, s int64) int { return cmp.Compare(e.Seq, s) })
	return i
}

// windowsFunc projects windows of a log: transcript.ProjectWindows, or a
// Replay seam's projection of each window on its own.
type windowsFunc func([]sessionlog.Event, []transcript.Window, transcript.Options) iter.Seq2[int, transcript.Transcript]

// eachWindow projects every window with replay, one by one.
func eachWindow(replay func([]sessionlog.Event, transcript.Options) transcript.Transcript) windowsFunc {
	return func(events []sessionlog.Event, windows []transcript.Window, opts transcript.Options) iter.Seq2[int, transcript.Transcript] {
		return func(yield func(int, transcript.Transcript) bool) {
			for k, w := range windows {
				if !yield(k, replay(events[w.Start:w.End], opts)) {
					return
				}
			}
		}
	}
}
