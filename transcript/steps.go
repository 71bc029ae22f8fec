package transcript

import "github.com/dshtest/dshtest/sessionlog"

// RemovedStep is the step-removal rule of terminal.md §2.6, the one place it
// is written: an llm/retry removes the current step, or else the step the
// last step/end finished; a turn/end removes a step still open. eventType is
// the event's (canonical) type; current and lastDone are the caller's handles
// on the current step and on the step the last step/end finished (the zero
// value for none). It returns the step to remove, or the zero value. After
// either event the caller has no current or last finished step.
//
// The replay path, the live Projector and the invariants' oracle of what a
// transcript must show all apply it.
func RemovedStep[T comparable](eventType string, current, lastDone T) T {
	var none T
	switch eventType {
	case sessionlog.TypeLLMRetry:
		if current != none {
			return current
		}
		return lastDone
	case sessionlog.TypeTurnEnd:
		return current
	}
	return none
}
