package cli

import (
	"runtime/debug"
)

// A command that reads a log works within a memory budget: a multiple of
// the log's text (its JSONL lines after any decompression), and at least
// budgetMin, so that a CI runner can plan for it (issue 16's targets:
// check, history, render and view within twice the text, repro within
// three times). The budget is the runtime's soft memory limit
// (debug.SetMemoryLimit) less budgetReserve, the part of the process's
// resident memory the runtime does not count (the binary's pages); the
// collector works harder only as the heap nears it. GOMEMLIMIT, when set,
// decides instead.
//
// The text's size is known only as it is read (a .jsonl.zstd file's size
// says little of it), so the budget grows with what the reader has read.
const (
	readBudget    = 2.0 // check, history, render, view
	reproBudget   = 3.0
	budgetMin     = 64 << 20
	budgetReserve = 12 << 20
	budgetStep    = 1 << 20 // how often, in bytes of text, the limit is raised
)

// budget is the memory limit of one command.
type budget struct {
	factor float64
	limit  int64 // the limit set, 0 before the first
	before int64 // the limit to restore
	off    bool
}

// startBudget starts a budget of factor times the text; the app restores
// the limit before it when the command ends.
func (a *app) startBudget(factor float64) *budget {
	b := &budget{factor: factor, off: factor <= 0 || a.getenv("GOMEMLIMIT") != ""}
	if !b.off {
		b.before = debug.SetMemoryLimit(-1)
		prev := a.restore
		a.restore = func() {
			debug.SetMemoryLimit(b.before)
			if prev != nil {
				prev()
			}
		}
		b.grow(0)
	}
	return b
}

// budgetLimit is the soft memory limit for text bytes of log at factor.
func budgetLimit(factor float64, text int64) int64 {
	return max(int64(float64(text)*factor), budgetMin) - budgetReserve
}

// grow raises the limit to the budget of text bytes of log.
func (b *budget) grow(text int64) {
	if b == nil || b.off {
		return
	}
	if l := budgetLimit(b.factor, text); l > b.limit {
		b.limit = l
		debug.SetMemoryLimit(l)
	}
}
