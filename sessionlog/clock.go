package sessionlog

// Clock returns the current time in Unix epoch milliseconds. Sessions stamp
// each appended event with it; tests pass a frozen or stepping clock.
type Clock func() int64
