package cli

import "github.com/dshtest/dshtest/internal/ground/membudget"

// The memory budgets of the commands that read a log: a multiple of the
// log's text, less what the runtime does not count (membudget).
var (
	// readBudget is every other command's: check, events, history, render.
	readBudget = membudget.Spec{Factor: 2.0, Reserve: membudget.Reserve}
	// reproBudget: repro holds neither transcript whole (it compares them
	// as it reads), so it keeps within what the other commands do.
	reproBudget = readBudget
	// viewBudget reserves 4 MiB more. view runs the terminal program, and
	// the binary's pages it touches measure 12.5–12.9 MiB on a log of
	// 100k events, past the usual reserve. And it keeps the live
	// transcript whole, an array of items that grows several MiB at a
	// time: at the 64 MiB floor its heap sits at the limit, and the
	// runtime's memory was seen 1.2 MiB past it. With the usual reserve
	// its peak resident size on 100k item-dense events reached 65.0 MiB,
	// once in thirty runs; with this one, 15 runs of each form reached at
	// most 58.0 MiB, its first screen and keys as fast.
	viewBudget = membudget.Spec{Factor: readBudget.Factor, Reserve: membudget.Reserve + 4<<20}
)

// startBudget starts the budget s; the app restores the limit before it
// when the command ends.
func (a *app) startBudget(s membudget.Spec) *membudget.Budget {
	b, undo := membudget.Start(s, a.getenv)
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
