package harness

import (
	"fmt"

	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
)

// checkLiveReplay compares the mounted (live) terminal with a fresh one
// mounted on the same log with the same settings. On a difference it
// bisects over log prefixes for the first event after which a terminal fed
// the events live differs from one mounted on them, records the divergence
// with the suite, and returns an error with a line diff.
func (s *script) checkLiveReplay(snapshot string) error {
	events := s.events()
	live := invariant.Comparable(s.term, s.view.height)
	replay := invariant.Comparable(terminal.New(s.config(events)), s.view.height)
	if live == replay {
		return nil
	}
	seq := s.bisect(events)
	s.suite.divergence(Divergence{Scenario: s.name, Snapshot: snapshot, Seq: seq})
	where := fmt.Sprintf("first divergent event: seq %d (%s)", seq, events[seq].Type)
	if seq < 0 {
		where = "no single event diverges: a terminal fed the same events without the scenario's interleaved resizes and toggles agrees with replay"
	}
	return fmt.Errorf("snapshot %s: live ≠ replay: the terminal that watched the events arrive differs from one mounted on the stored log; %s\n%s",
		snapshot, where, lineDiff("replay", "live", replay, live))
}

// bisect finds the first event after which the live path (mount on the
// events the terminal was mounted on, then every later event delivered as
// the scenario delivered it) differs from a mount on the same prefix. The
// two agree on the mounted prefix itself; it returns -1 when they also
// agree on the whole log.
func (s *script) bisect(events []sessionlog.Event) int64 {
	same := func(k int) bool {
		return invariant.Comparable(s.livePrefix(events, k), s.view.height) ==
			invariant.Comparable(terminal.New(s.config(events[:k:k])), s.view.height)
	}
	lo, hi := s.mountN, len(events) // same(lo) holds
	if lo > hi || same(hi) {
		return -1
	}
	n := invariant.FirstDivergence(lo, hi, func(k int) bool { return !same(k) })
	return events[n-1].Seq
}

// livePrefix rebuilds the live path over events[:k]: a mount on the
// prefix the scenario mounted on, then the rest delivered live.
func (s *script) livePrefix(events []sessionlog.Event, k int) *terminal.Model {
	n := min(s.mountN, k)
	mounted := events[:n:n]
	m := terminal.New(s.config(mounted))
	var filter func(*sessionlog.Event) bool
	if f := s.suite.cfg.LiveFilter; f != nil {
		filter = f(mounted)
	}
	for i := n; i < k; i++ {
		e := events[i]
		if filter != nil && !filter(&e) {
			continue
		}
		next, _ := m.Update(terminal.EventMsg{Event: e})
		m = next.(*terminal.Model)
	}
	return m
}
