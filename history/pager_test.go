package history

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
)

// TestPagerIsPage: the page a Pager finds in one pass is New(log).Page's,
// for every beforeSeq (absent, before the log, inside it, past its end)
// and several maxMessages, on generated logs of both vocabularies, with
// its reserve and without one; when it does not hold the page it says so
// rather than return another, and the events Missing names, handed to
// Restore, give it.
func TestPagerIsPage(t *testing.T) {
	var logs [][]sessionlog.Event
	for seed := int64(1); seed <= 8; seed++ {
		logs = append(logs, sessiongen.GenerateN(seed, 1500))
	}
	for _, log := range logs[:4] {
		logs = append(logs, farSources(log))
	}
	var restored, pages int
	for l, log := range logs {
		h := New(log)
		n := int64(len(log))
		befores := []int64{-1, 0, 1, n / 3, n / 2, n - 1, n, n + 10}
		for _, before := range befores {
			for _, max := range []int{1, 2, 3, 7, 50, 1000} {
				for _, reserve := range []int64{pagerReserve, 0} {
					want := h.Page(before, max)
					p := NewPager(before, max)
					p.reserve = reserve
					for i := range log {
						p.Add(&log[i])
					}
					got, ok := p.Page()
					if !ok {
						from, to := p.Missing()
						if from >= to || !p.Restore(slices.Clone(log[from:to])) {
							t.Fatalf("log %d before %d max %d reserve %d: no page and no events missing (%d–%d)", l, before, max, reserve, from, to)
						}
						restored++
						got, ok = p.Page()
					}
					if !ok {
						t.Fatalf("log %d before %d max %d reserve %d: no page once restored", l, before, max, reserve)
					}
					pages++
					if got.From != want.From || got.To != want.To || got.HasMore != want.HasMore ||
						!reflect.DeepEqual(got.Events, want.Events) {
						t.Fatalf("log %d before %d max %d reserve %d: Pager %s, Page %s", l, before, max, reserve, pageString(got), pageString(want))
					}
				}
			}
		}
	}
	if restored == 0 {
		t.Fatalf("no page needed its missing events restored")
	}
	t.Logf("%d pages served, %d restored", pages, restored)
}

// farSources is log with every seventh counted message citing an event
// half its seq back, as log.md §5 allows: a group start far behind.
func farSources(log []sessionlog.Event) []sessionlog.Event {
	log = slices.Clone(log)
	n := 0
	for i := range log {
		if e := &log[i]; historyCounted(e) && e.Seq > 1 {
			if n++; n%7 == 0 {
				e.SourceEventSeqs = fmt.Appendf(nil, "[%d]", e.Seq/2)
			}
		}
	}
	return log
}

// TestPagerFarSource: a message whose sources reach before the events the
// Pager kept is served in one pass while they are in its reserve; beyond
// it, the page is not served until the missing events are restored, and
// events that are not those are refused. A log with a seq gap is not
// served.
func TestPagerFarSource(t *testing.T) {
	msg := func(seq int64, src string) sessionlog.Event {
		e := sessionlog.Event{Type: sessionlog.TypeUserMessage, Seq: seq, Data: []byte(`{}`), SurfaceOp: sessionlog.AppendOp()}
		if src != "" {
			e.SourceEventSeqs = []byte(src)
		}
		return e
	}
	far := []sessionlog.Event{msg(0, ""), msg(1, ""), msg(2, ""), msg(3, "[0]")}
	want := New(far).Page(-1, 1)
	pager := func(reserve int64, log []sessionlog.Event) *Pager {
		p := NewPager(-1, 1)
		p.reserve = reserve
		for i := range log {
			p.Add(&log[i])
		}
		return p
	}

	if page, ok := pager(pagerReserve, far).Page(); !ok || page.From != want.From || page.To != want.To {
		t.Errorf("within the reserve: served %s (ok %v), want %s", pageString(page), ok, pageString(want))
	}

	p := pager(0, far)
	if page, ok := p.Page(); ok {
		t.Errorf("beyond the reserve: served %s", pageString(page))
	}
	if from, to := p.Missing(); from != 0 || to != 2 {
		t.Fatalf("Missing %d–%d, want 0–2", from, to)
	}
	if p.Restore([]sessionlog.Event{msg(1, ""), msg(2, "")}) {
		t.Errorf("Restore took the wrong events")
	}
	if !p.Restore(slices.Clone(far[:2])) {
		t.Fatalf("Restore refused the missing events")
	}
	if page, ok := p.Page(); !ok || page.From != want.From || page.To != want.To || !reflect.DeepEqual(page.Events, want.Events) {
		t.Errorf("restored: served %s (ok %v), want %s", pageString(page), ok, pageString(want))
	}

	gap := pager(pagerReserve, []sessionlog.Event{msg(0, ""), msg(2, "")})
	if page, ok := gap.Page(); ok {
		t.Errorf("seq gap: served %s", pageString(page))
	}
	if from, to := gap.Missing(); from != to {
		t.Errorf("seq gap: Missing %d–%d", from, to)
	}
}

func pageString(p Page) string {
	return fmt.Sprintf("{from %d to %d hasMore %v, %d events}", p.From, p.To, p.HasMore, len(p.Events))
}
