package cli

import "github.com/dshtest/dshtest/internal/ground/membudget"

// The memory budgets of the commands that read a log, in times the log's
// text (membudget).
const (
	readBudget = 2.0 // check, history, render, view
	// repro holds neither transcript whole (it compares them as it
	// reads), so it keeps within what the other commands do.
	reproBudget = readBudget
)

// startBudget starts a budget of factor times the text; the app restores
// the limit before it when the command ends.
func (a *app) startBudget(factor float64) *membudget.Budget {
	b, undo := membudget.Start(factor, a.getenv)
	a.atEnd(undo)
	return b
}

// spendBudget has the collector wait for b's limit until the command ends
// (membudget.Budget.Spend).
func (a *app) spendBudget(b *membudget.Budget) { a.atEnd(b.Spend(a.getenv)) }

// atEnd has f undo, when the command ends, what the command set for the
// process; the last set is undone first.
func (a *app) atEnd(f func()) {
	prev := a.restore
	a.restore = func() {
		f()
		if prev != nil {
			prev()
		}
	}
}
