package harness

import (
	"fmt"
	"strings"

	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/rogpeppe/go-internal/testscript"
)

// verbRetry is the retry verb.
//
//	retry N/MAX DELAYMS MESSAGE [--as NAME]
//	retry N/always DELAYMS MESSAGE [--as NAME]
//
// Appends llm/retry {turn, step, provider, mode, policyKey, retry:N,
// maxRetries:MAX, delayMs, failure:{message}} for the current step (mode
// "normal"; with "always" there is no maxRetries). It removes the failed
// step block and adds the warning "Retrying model request (N/MAX) in
// DELAYms: MESSAGE" (∞ for always).
//
// Example:
//
//	stream 'Partial answer'
//	retry 1/3 2000 'rate limited'
func verbRetry(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "retry", func(s *script) error {
		p, err := parseArgs("retry", args, flagSpec{values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) != 3 {
			return fmt.Errorf("usage: retry N/MAX DELAYMS MESSAGE [--as NAME]")
		}
		ns, maxs, ok := strings.Cut(p.pos[0], "/")
		if !ok {
			return fmt.Errorf("retry: %q: want N/MAX or N/always", p.pos[0])
		}
		n, err := intArg("retry", "retry", ns)
		if err != nil {
			return err
		}
		delay, err := intArg("retry", "delay", p.pos[1])
		if err != nil {
			return err
		}
		msg, err := textArg(ts, "retry", p.pos[2])
		if err != nil {
			return err
		}
		r := logbuild.Retry{Turn: s.turn, Step: s.step, Mode: logbuild.RetryAlways, PolicyKey: "default",
			N: n, DelayMs: delay, Failure: msg}
		if maxs != logbuild.RetryAlways {
			if r.Max, err = intArg("retry", "maxRetries", maxs); err != nil {
				return err
			}
			r.Mode = logbuild.RetryNormal
		}
		_, err = s.appendLabelled(ts, p, 0, logOnly(sessionlog.TypeLLMRetry, r.Data()))
		s.stream = nil
		return err
	})
}
