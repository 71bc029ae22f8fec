package review_test

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/review"
)

// fakeDecider decides in memory; fail names an item its Accept and
// Reject refuse.
type fakeDecider struct {
	fail  string
	calls [][]string // the names of each call's items
}

func (f *fakeDecider) decide(its []review.Item) (int, error) {
	var names []string
	for _, it := range its {
		names = append(names, it.Name)
	}
	f.calls = append(f.calls, names)
	for i, it := range its {
		if it.Name == f.fail {
			return i, errors.New("cannot " + it.Name)
		}
	}
	return len(its), nil
}

func (f *fakeDecider) Accept(its []review.Item) (int, error) { return f.decide(its) }
func (f *fakeDecider) Reject(its []review.Item) (int, error) { return f.decide(its) }

// TestReviewRemaining: A, R and S decide every screen not yet decided, in
// one call to the Decider from the current screen on; a refusal leaves it
// and the ones after it undecided; the viewer quits once all are decided;
// Summary says what was decided.
func TestReviewRemaining(t *testing.T) {
	key := func(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: rune(s[0]), Text: s} }
	const U, A, R, S = review.Undecided, review.Accepted, review.Rejected, review.Skipped
	for _, tc := range []struct {
		name    string
		keys    string
		fail    string
		want    []review.Decision
		calls   [][]string
		quit    bool
		summary string
		status  string
	}{
		{"accept all", "A", "", []review.Decision{A, A, A, A}, [][]string{{"w", "x", "y", "z"}}, true,
			"4 accepted, 0 rejected, 0 skipped", "accepted 4 screens"},
		{"one each then all", "arsR", "", []review.Decision{A, R, S, R}, [][]string{{"w"}, {"x"}, {"z"}}, true,
			"1 accepted, 2 rejected, 1 skipped", "rejected z"},
		{"skip all remaining", "aS", "", []review.Decision{A, S, S, S}, [][]string{{"w"}}, true,
			"1 accepted, 0 rejected, 3 skipped", "skipped 3 screens"},
		{"from the current screen on, wrapping", "nnA", "", []review.Decision{A, A, A, A}, [][]string{{"y", "z", "w", "x"}}, true,
			"4 accepted, 0 rejected, 0 skipped", "accepted 4 screens"},
		{"a refusal stops there", "sA", "y", []review.Decision{S, A, U, U}, [][]string{{"x", "y", "z"}}, false,
			"1 accepted, 0 rejected, 1 skipped, 2 undecided", "not accepted: cannot y"},
		{"quit early", "rq", "", []review.Decision{R, U, U, U}, [][]string{{"w"}}, true,
			"0 accepted, 1 rejected, 0 skipped, 3 undecided", "rejected w"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var items []review.Item
			for _, n := range []string{"w", "x", "y", "z"} {
				items = append(items, review.Item{Name: n, Scenario: "s"})
			}
			d := &fakeDecider{fail: tc.fail}
			m := review.New(items, d, 80, 24)
			var cmd tea.Cmd
			for _, k := range tc.keys {
				_, cmd = m.Update(key(string(k)))
			}
			if diff := cmp.Diff(tc.want, m.Decisions()); diff != "" {
				t.Errorf("decisions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.calls, d.calls); diff != "" {
				t.Errorf("decider calls (-want +got):\n%s", diff)
			}
			if quit := cmd != nil; quit != tc.quit {
				t.Errorf("quit = %v, want %v", quit, tc.quit)
			}
			if got := m.Summary(); got != tc.summary {
				t.Errorf("Summary() = %q, want %q", got, tc.summary)
			}
			if rows := screen.Decode(m.Screen()); rows[len(rows)-2].TrimRight() != tc.status {
				t.Errorf("status = %q, want %q", rows[len(rows)-2].TrimRight(), tc.status)
			}
		})
	}
}
