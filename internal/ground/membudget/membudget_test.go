package membudget

import (
	"runtime/debug"
	"sync/atomic"
	"testing"
)

// TestWindow: a decoder's window not yet written is added to the limit,
// less as the decoder writes it (a decoder used again has written as far
// as the text read before); the limit never falls.
func TestWindow(t *testing.T) {
	noEnv := func(string) string { return "" }
	spec := Spec{Factor: 2, Reserve: Reserve}
	b, restore := Start(spec, noEnv)
	defer restore()
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	base := budgetLimit(spec, 0)
	if got := limit(); got != base {
		t.Fatalf("limit %d, want %d", got, base)
	}
	var decoded atomic.Int64
	const window = 128 << 20
	b.Window(window, decoded.Load)
	if got := limit(); got != base+window-window/8 {
		t.Errorf("with a window: limit %d, want %d", got, base+window-window/8)
	}
	// 100 MiB decoded, 40 MiB of it read: the rest of the window is added,
	// and the written part counts as live (at 1×: it makes no garbage).
	decoded.Store(100 << 20)
	b.Read(40 << 20)
	const rest = window - 100<<20
	if got, want := limit(), max(budgetLimit(spec, 40<<20), 100<<20)+rest-rest/8; got != want {
		t.Errorf("100 MiB decoded: limit %d, want %d", got, want)
	}
	// All of the window written, and the text read past it: the limit
	// falls by the window's part.
	decoded.Store(400 << 20)
	b.Read(400 << 20)
	if got, want := limit(), budgetLimit(spec, 400<<20); got != want {
		t.Errorf("the window written: limit %d, want %d", got, want)
	}
	// A decoder released: the limit falls back to the budget of the text.
	b.Window(1<<30, decoded.Load) // more window than text read
	if got := limit(); got <= budgetLimit(spec, 400<<20) {
		t.Fatalf("a new window: limit %d, not raised", got)
	}
	b.Window(0, nil)
	if got, want := limit(), budgetLimit(spec, 400<<20); got != want {
		t.Errorf("the window released: limit %d, want %d", got, want)
	}
	// A budget that is off, or GOMEMLIMIT, ignores a window.
	off, undo := Start(spec, func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	})
	defer undo()
	before := limit()
	off.Window(window, decoded.Load)
	if got := limit(); got != before {
		t.Errorf("GOMEMLIMIT set: limit %d, want %d", got, before)
	}
}

// TestLimit: the limit is the budget, at least budgetMin, less the spec's
// reserve and a thirty-second of the budget.
func TestLimit(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		text int64
		want int64
	}{
		{Spec{Factor: 2, Reserve: Reserve}, 0, 64<<20 - Reserve - 2<<20},
		{Spec{Factor: 2, Reserve: Reserve + 4<<20}, 0, 64<<20 - Reserve - 4<<20 - 2<<20},
		{Spec{Factor: 2, Reserve: Reserve}, 20 << 20, 64<<20 - Reserve - 2<<20},
		{Spec{Factor: 2, Reserve: Reserve}, 64 << 20, 128<<20 - Reserve - 4<<20},
		{Spec{Factor: 3, Reserve: 16 << 20}, 64 << 20, 192<<20 - 16<<20 - 6<<20},
	} {
		if got := budgetLimit(c.spec, c.text); got != c.want {
			t.Errorf("budgetLimit(%+v, %d) = %d, want %d", c.spec, c.text, got, c.want)
		}
	}
}
