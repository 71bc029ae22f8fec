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
// and several maxMessages, on generated logs of both vocabularies; when
// it cannot keep the page it says so rather than return another.
func TestPagerIsPage(t *testing.T) {
	var fallbacks, pages int
	for seed := int64(1); seed <= 8; seed++ {
		log := sessiongen.GenerateN(seed, 1500)
		h := New(log)
		n := int64(len(log))
		befores := []int64{-1, 0, 1, n / 3, n / 2, n - 1, n, n + 10}
		for _, before := range befores {
			for _, max := range []int{1, 2, 3, 7, 50, 1000} {
				want := h.Page(before, max)
				p := NewPager(before, max)
				// One that gives its events up part way through the log
				// finds the same page and counted messages, without them.
				gives := NewPager(before, max)
				for i := range log {
					p.Add(&log[i])
					if gives.Add(&log[i]); i == len(log)/2 {
						gives.GiveUp()
					}
				}
				got, ok := p.Page()
				if !ok {
					fallbacks++
					continue
				}
				pages++
				if got.From != want.From || got.To != want.To || got.HasMore != want.HasMore ||
					!reflect.DeepEqual(got.Events, want.Events) {
					t.Fatalf("seed %d before %d max %d: Pager %s, Page %s", seed, before, max, pageString(got), pageString(want))
				}
				g, gok := gives.Page()
				if !gok || gives.Kept() || g.Events != nil || g.From != want.From || g.To != want.To || g.HasMore != want.HasMore ||
					!slices.Equal(gives.Counted(), want.Counted()) || !slices.Equal(p.Counted(), want.Counted()) {
					t.Fatalf("seed %d before %d max %d: given up, page %d–%d counted %v; want %d–%d counted %v",
						seed, before, max, g.From, g.To, gives.Counted(), want.From, want.To, want.Counted())
				}
			}
		}
	}
	if pages == 0 {
		t.Fatalf("the Pager served no page (%d fallbacks)", fallbacks)
	}
	t.Logf("%d pages served, %d fell back", pages, fallbacks)
}

// TestPagerFallsBack: a message whose sources reach before the events the
// Pager kept, and a log with a seq gap, are not served.
func TestPagerFallsBack(t *testing.T) {
	msg := func(seq int64, src string) sessionlog.Event {
		e := sessionlog.Event{Type: sessionlog.TypeUserMessage, Seq: seq, Data: []byte(`{}`), SurfaceOp: sessionlog.AppendOp()}
		if src != "" {
			e.SourceEventSeqs = []byte(src)
		}
		return e
	}
	far := []sessionlog.Event{msg(0, ""), msg(1, ""), msg(2, ""), msg(3, "[0]")}
	gap := []sessionlog.Event{msg(0, ""), msg(2, "")}
	for name, log := range map[string][]sessionlog.Event{"far source": far, "seq gap": gap} {
		p := NewPager(-1, 1)
		for i := range log {
			p.Add(&log[i])
		}
		if page, ok := p.Page(); ok {
			t.Errorf("%s: served %s", name, pageString(page))
		}
	}
}

func pageString(p Page) string {
	return fmt.Sprintf("{from %d to %d hasMore %v, %d events}", p.From, p.To, p.HasMore, len(p.Events))
}
