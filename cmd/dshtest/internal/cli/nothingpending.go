package cli

import (
	"errors"
	"fmt"
	"io"
)

// nothingPending is pendingArgs finding no pending screen: not a failure
// (exit 0), as there is nothing to decide; the command prints it.
type nothingPending string

func (n nothingPending) Error() string { return string(n) }

// saidNothingPending prints err to out as "VERB: MESSAGE" and reports
// true when err is nothingPending.
func saidNothingPending(out io.Writer, verb string, err error) bool {
	var n nothingPending
	if !errors.As(err, &n) {
		return false
	}
	fmt.Fprintf(out, "%s: %s\n", verb, n)
	return true
}
