package sessiongen

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file writes turns: their start, steps, retries and ends.

type endKind string

const (
	endCompleted   endKind = "completed"
	endAborted     endKind = "aborted"
	endError       endKind = "error"
	endDisposed    endKind = "disposed"
	endMaxTokens   endKind = "max-tokens"
	endInterrupted endKind = "interrupted"
	endBlocked     endKind = "blocked"
	endOther       endKind = "paused" // an unknown kind: "Turn ended: paused."
)

func (g *gen) pickEnd() endKind {
	r := g.rng.Float64()
	switch {
	case r < 0.55:
		return endCompleted
	case r < 0.63:
		return endAborted
	case r < 0.71:
		return endError
	case r < 0.76:
		return endDisposed
	case r < 0.83:
		return endMaxTokens
	case r < 0.90:
		return endInterrupted
	case r < 0.97:
		if g.older {
			return endAborted
		}
		return endBlocked
	}
	return endOther
}

// turn writes turn t. cut stops the session inside the turn's last step,
// mid-stream.
func (g *gen) turn(t int64, header, cut bool) {
	g.tick(1000, 120000)
	trigger := "message"
	switch r := g.rng.Float64(); {
	case r < 0.06:
		trigger = "injection"
	case r < 0.1:
		trigger = "retry"
	}
	var tr jsonobj.Object
	if g.older {
		switch trigger {
		case "message":
			tr = logbuild.Trigger("message", logbuild.UserSource())
		case "injection":
			tr = logbuild.Trigger("injection", logbuild.PluginSource("goal"))
		default:
			tr = logbuild.Trigger("retry", nil)
		}
	}
	g.logOnly(sessionlog.TypeTurnStart, logbuild.TurnStart(t, tr))

	if t > 1 && g.chance(0.35*g.cfg.Compactions) {
		g.autoCompaction(t)
	}
	if g.cfg.Chain > 0 && len(g.nodes()) >= g.cfg.Chain {
		g.chainCompaction(t)
	}
	end := g.pickEnd()
	nSteps := g.between(1, g.cfg.MaxStepsPerTurn)

	messages := func() {
		switch trigger {
		case "message":
			g.prompt()
		case "injection":
			g.context(true)
		}
		if g.chance(0.15) {
			g.context(false)
		}
		if g.chance(0.04) {
			g.sessionReference()
		}
	}
	if g.older {
		messages()
		g.tick(0, 5)
		g.logOnly(sessionlog.TypeStepStart, logbuild.Step(t, 1))
	} else {
		g.tick(0, 5)
		g.logOnly(sessionlog.TypeStepStart, logbuild.Step(t, 1))
		messages()
	}
	if header {
		g.requestHeader("initial")
		g.requestContext()
	}

	if end == endBlocked && g.chance(0.5) {
		g.turnEnd(t, 1, end)
		return
	}
	for s := int64(1); s <= int64(nSteps); s++ {
		final := s == int64(nSteps)
		if s > 1 {
			if g.older && g.chance(0.1) {
				g.tick(100, 5000)
				g.appendSurface(sessionlog.TypeSteeringMessage, logbuild.Steering(t, logbuild.UserMessage(g.msgID(),
					[]jsonobj.Object{logbuild.TextBlock(g.txt.prompt())}, logbuild.UserSource())), nil, &nodeMeta{})
			}
			g.tick(0, 10)
			g.logOnly(sessionlog.TypeStepStart, logbuild.Step(t, s))
		}
		if final && cut {
			g.partialStream(t, s)
			return
		}
		if final && (end == endAborted || end == endDisposed || end == endError || end == endInterrupted) && g.chance(0.7) {
			g.partialStream(t, s)
			if end == endError {
				for r := range g.between(0, 3) {
					g.retry(t, s, r+1)
					g.partialStream(t, s)
				}
			}
			if end == endInterrupted {
				g.endSeed()
			}
			g.turnEnd(t, s, end)
			return
		}
		if g.chance(0.08) {
			g.partialStream(t, s)
			g.retry(t, s, 1)
		}
		calls := 0
		if !final {
			calls = g.between(1, g.cfg.MaxCallsPerStep)
		} else if g.chance(0.1) {
			calls = g.between(1, g.cfg.MaxCallsPerStep) // a last step cut short by the turn's end
		}
		g.step(t, s, calls, final && end == endMaxTokens)
		if final && end == endInterrupted {
			g.endSeed()
		}
	}
	g.turnEnd(t, int64(nSteps), end)
}

func (g *gen) turnEnd(t, step int64, end endKind) {
	g.tick(0, 50)
	reason := logbuild.EndReason{Kind: string(end)}
	if end == endError {
		reason.Step = new(step)
		if g.chance(0.6) {
			f := &logbuild.Failure{Message: g.failureText(), Code: new(pick(g, []string{"PROVIDER_ERROR", "RATE_LIMITED", "NETWORK"}))}
			if g.chance(0.5) {
				f.Status = pick(g, []int{429, 500, 503})
			}
			reason.Failure = f
		} else {
			reason.Plain = &logbuild.Failure{Message: g.failureText()}
			if g.chance(0.5) {
				reason.Plain.Code = new("UNKNOWN")
			}
		}
	}
	g.logOnly(sessionlog.TypeTurnEnd, logbuild.TurnEnd(t, reason.Object()))
}

func (g *gen) failureText() string {
	if g.chance(g.cfg.Hostile) {
		return g.txt.hostile()
	}
	return pick(g, []string{"upstream returned 503 Service Unavailable", "connection reset by peer",
		"rate limit exceeded; retry later", "stream ended unexpectedly", "invalid API response: unexpected token"})
}
