package harness

import (
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// verbClock is the clock verb.
//
//	clock MS
//	clock +DELTA
//
// Sets the frozen clock to MS (epoch milliseconds) or moves it by DELTA
// milliseconds. Every append takes the current instant, and the terminal
// reads it as "now" (open timing buckets, the compaction indicator). The
// default is 1784644800000 (2026-07-21 14:40:00 as UTC).
//
// Example:
//
//	clock 1784630400000
//	clock +1500
func verbClock(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "clock", func(s *script) error {
		if len(args) != 1 {
			return fmt.Errorf("usage: clock MS|+DELTA")
		}
		if d, ok := strings.CutPrefix(args[0], "+"); ok {
			n, err := intArg("clock", "delta", d)
			if err != nil {
				return err
			}
			s.now += n
			return nil
		}
		n, err := intArg("clock", "instant", args[0])
		if err != nil {
			return err
		}
		s.now = n
		return nil
	})
}
