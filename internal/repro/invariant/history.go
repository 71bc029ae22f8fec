package invariant

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// This file is history-pages: session.history pages partition the log and
// project their checkpoints.

// historyMaxes are the page sizes history-pages walks the log with.
var historyMaxes = []int{1, 2, 3, 5, 50}

// summarySeq returns the seq of the compaction summary a checkpoint cites:
// the first of its sources that is a compaction summary's index in the log.
func summarySeq(s *logScan, cp *sessionlog.Event) (int64, bool) {
	seqs, _ := cp.Sources()
	for _, q := range seqs {
		if q >= 0 && q < int64(s.n) {
			if _, ok := slices.BinarySearch(s.summaries, int(q)); ok {
				return q, true
			}
		}
	}
	return 0, false
}

// historyPlan is history-pages worked out from the first pass: every page
// of every page size, and what each must project. failed, when not "", is
// a verdict reached without projecting a page.
type historyPlan struct {
	failed     string
	pages      []page
	windows    []transcript.Window
	pageCounts []string
	cited      int
}

// page is one page of one page size, and the checkpoints it holds.
type page struct {
	max, from, to int64
	checkpoints   int
}

// planHistory walks the log's pages at every page size on its index.
func (c *Checker) planHistory() *historyPlan {
	s := c.scanned
	h := s.hist
	n := int64(s.n)
	plan := &historyPlan{}
	fail := func(format string, a ...any) *historyPlan {
		plan.failed = fmt.Sprintf(format, a...)
		return plan
	}
	for _, mx := range historyMaxes {
		before := int64(-1)
		next := n // the seq the next (older) page must end just before
		var walked []history.Page
		var spans []transcript.Window // where each walked page lies
		for {
			p := h.Page(before, mx)
			start, end := h.Span(p)
			if start == end {
				return fail("max %d: empty page before seq %d", mx, next)
			}
			if p.To+1 != next {
				return fail("max %d: page %d–%d does not end just before seq %d", mx, p.From, p.To, next)
			}
			if i, _ := slices.BinarySearch(s.gaps, start+1); i < len(s.gaps) && s.gaps[i] < end {
				return fail("max %d: page %d–%d is not one contiguous range", mx, p.From, p.To)
			}
			walked = append(walked, p)
			spans = append(spans, transcript.Window{Start: start, End: end})
			if !p.HasMore {
				if p.From != 0 {
					return fail("max %d: last page starts at seq %d, not 0", mx, p.From)
				}
				break
			}
			if int64(len(walked)) > n {
				return fail("max %d: paging does not end", mx)
			}
			before, next = p.From, p.From
		}
		for i := range s.checkpoints {
			cp := &s.checkpoints[i]
			ss, ok := summarySeq(s, cp)
			if !ok {
				continue
			}
			// The walked pages are disjoint, newest first: the one that
			// can hold the checkpoint is found by search, not by a walk of
			// every page for every checkpoint.
			k := sort.Search(len(walked), func(k int) bool { return walked[k].From <= cp.Seq })
			if k < len(walked) {
				if p := walked[k]; cp.Seq <= p.To && (ss < p.From || ss > p.To) {
					return fail("max %d: summary seq %d is not on the page %d–%d of its checkpoint seq %d", mx, ss, p.From, p.To, cp.Seq)
				}
			}
		}
		for k, p := range walked {
			w := spans[k]
			lo, _ := slices.BinarySearch(s.checkpointAt, w.Start)
			hi, _ := slices.BinarySearch(s.checkpointAt, w.End)
			plan.pages = append(plan.pages, page{int64(mx), p.From, p.To, hi - lo})
			plan.windows = append(plan.windows, w)
		}
		plan.pageCounts = append(plan.pageCounts, fmt.Sprintf("%d", len(walked)))
	}
	for i := range s.checkpoints {
		if _, ok := summarySeq(s, &s.checkpoints[i]); ok {
			plan.cited++
		}
	}
	return plan
}

// verdict is history-pages' verdict given the markers each page projects.
func (p *historyPlan) verdict(markers []int, checkpoints int) Result {
	r := Result{Name: HistoryPages}
	if p.failed != "" {
		r.Detail = p.failed
		return r
	}
	for k, got := range markers {
		if pg := p.pages[k]; got != pg.checkpoints {
			r.Detail = fmt.Sprintf("max %d: page %d–%d projects %s for %s", pg.max, pg.from, pg.to, words.Plural(got, "marker"), words.Plural(pg.checkpoints, "checkpoint"))
			return r
		}
	}
	maxes := make([]string, len(historyMaxes))
	for i, m := range historyMaxes {
		maxes[i] = fmt.Sprint(m)
	}
	r.OK = true
	r.Detail = fmt.Sprintf("%s pages at max %s, contiguous; %d of %s with its summary on its page",
		strings.Join(p.pageCounts, "/"), strings.Join(maxes, "/"), p.cited, words.Plural(checkpoints, "checkpoint"))
	return r
}

// markerCount counts the markers among items.
func markerCount(items []transcript.Item) int {
	n := 0
	for _, it := range items {
		if it.Kind == transcript.KindMarker {
			n++
		}
	}
	return n
}

// pageProjection projects the history pages as the log is read again.
type pageProjection struct {
	c       *Checker
	plan    *historyPlan
	w       *transcript.Windows
	markers []int
}

func (p *pageProjection) yield(k int, t transcript.Transcript) bool {
	p.markers[k] += markerCount(t.Items)
	return true
}

// settled counts the markers among a page's settled items, which its
// projection lets go of: a page as long as the log had held all of its
// transcript, five times over (a page size each).
func (p *pageProjection) settled(k int, items []transcript.Item) { p.markers[k] += markerCount(items) }

func (p *pageProjection) apply(e *sessionlog.Event) { p.w.Apply(e, p.yield) }

// applyDecoded is apply of e decoded as d.
func (p *pageProjection) applyDecoded(e *sessionlog.Event, d *transcript.Decoded) {
	p.w.ApplyDecoded(e, d, p.yield)
}

// end ends the projection and records the verdict.
func (p *pageProjection) end() {
	p.w.End(p.yield)
	r := p.plan.verdict(p.markers, len(p.c.scanned.checkpoints))
	p.c.historyVerdict = &r
}

// plan returns history-pages' plan, worked out once.
func (c *Checker) plan() *historyPlan {
	if c.history == nil {
		c.history = c.planHistory()
	}
	return c.history
}

// historyConsumer returns the projection of the history pages to feed the
// log to, or nil when none is needed: the verdict is known or can be found
// without one, or a Replay seam projects the pages from the kept log.
func (c *Checker) historyConsumer() *pageProjection {
	if c.historyVerdict != nil || c.scanned.n == 0 || c.proj.Replay != nil {
		return nil
	}
	plan := c.plan()
	if plan.failed != "" {
		return nil
	}
	p := &pageProjection{c: c, plan: plan, w: transcript.NewWindows(plan.windows, c.opts),
		markers: make([]int, len(plan.windows))}
	p.w.Settled(p.settled)
	return p
}

func (c *Checker) checkHistory() (bool, string) {
	s := c.scanned
	if s.n == 0 {
		// A header-only log is an empty session: no page to read.
		return true, "no events, so no pages (an empty session)"
	}
	if c.historyVerdict == nil {
		if p := c.historyConsumer(); p != nil {
			if err := c.reread(p.apply); err != nil {
				return false, err.Error()
			}
			p.end()
		} else {
			// A verdict reached without a page, or a Replay seam's, which
			// projects each page from the kept log.
			plan := c.plan()
			markers := make([]int, len(plan.windows))
			if plan.failed == "" {
				for k, w := range plan.windows {
					markers[k] = markerCount(c.proj.Replay(s.events[w.Start:w.End], c.opts).Items)
				}
			}
			r := plan.verdict(markers, len(s.checkpoints))
			c.historyVerdict = &r
		}
	}
	return c.historyVerdict.OK, c.historyVerdict.Detail
}
