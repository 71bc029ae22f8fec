package transcript

// This file fixes the transcript projection's API: the whole-log projection
// (the terminal's replay path) and the incremental projector (its live path).
// Their implementations live in transcript.go and projector.go.

// Change tells a renderer what an Apply changed: every item at index From or
// later may have been added, removed, moved or updated, and the items at the
// indices in Dirty (all below From) were updated in place. From equals the
// old length when nothing structural happened.
type Change struct {
	From  int
	Dirty []int
}
