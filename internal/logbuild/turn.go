package logbuild

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

// TurnStart is the payload of turn/start. trigger, when non-nil, is the
// older vocabulary's trigger (see Trigger).
func TurnStart(turn int64, trigger jsonobj.Object) jsonobj.Object {
	o := jsonobj.Object{{"turn", turn}}
	if trigger != nil {
		o = append(o, jsonobj.Field{"trigger", trigger})
	}
	return o
}

// Trigger is an older turn/start trigger {kind, source}; a nil source (a
// retry) is not written.
func Trigger(kind string, source any) jsonobj.Object {
	o := jsonobj.Object{{"kind", kind}}
	if source != nil {
		o = append(o, jsonobj.Field{"source", source})
	}
	return o
}

// Step is the payload of step/start and of step/end.
func Step(turn, step int64) jsonobj.Object { return jsonobj.Object{{"turn", turn}, {"step", step}} }

// Failure is an error object: {message, code, status}. Code is written
// when set (also when empty), Status when non-zero.
type Failure struct {
	Message string
	Code    *string
	Status  int
}

// Object is the failure's JSON object.
func (f Failure) Object() jsonobj.Object {
	o := jsonobj.Object{{"message", f.Message}}
	if f.Code != nil {
		o = append(o, jsonobj.Field{"code", *f.Code})
	}
	if f.Status != 0 {
		o = append(o, jsonobj.Field{"status", f.Status})
	}
	return o
}

// EndReason is a turn/end reason. The set of kinds is open.
type EndReason struct {
	Kind string
	// Step is the failed step of an error end.
	Step *int64
	// Failure is the error end's failure object.
	Failure *Failure
	// Plain puts message and code on the reason itself (an older error
	// shape).
	Plain *Failure
	// Error is the current shape's error {message, code}.
	Error *Failure
	// Cause is the current aborted shape's cancel cause, reason {kind}.
	Cause *string
}

// Object is the reason's JSON object: kind, step, failure, message, code,
// error, reason.
func (r EndReason) Object() jsonobj.Object {
	o := jsonobj.Object{{"kind", r.Kind}}
	if r.Step != nil {
		o = append(o, jsonobj.Field{"step", *r.Step})
	}
	if r.Failure != nil {
		o = append(o, jsonobj.Field{"failure", r.Failure.Object()})
	}
	if r.Plain != nil {
		o = append(o, r.Plain.Object()...)
	}
	if r.Error != nil {
		o = append(o, jsonobj.Field{"error", r.Error.Object()})
	}
	if r.Cause != nil {
		o = append(o, jsonobj.Field{"reason", KindSource(*r.Cause)})
	}
	return o
}

// TurnEnd is the payload of turn/end.
func TurnEnd(turn int64, reason jsonobj.Object) jsonobj.Object {
	return jsonobj.Object{{"turn", turn}, {"reason", reason}}
}

// Retry modes. An "always" retry has no maxRetries.
const (
	RetryNormal = "normal"
	RetryAlways = "always"
)

// Retry is an llm/retry.
type Retry struct {
	Turn, Step int64
	Mode       string
	PolicyKey  string
	N          int64 // this retry, 1-based
	Max        int64 // maxRetries, not written for RetryAlways
	DelayMs    int64
	Failure    string
}

// Data is the payload of llm/retry.
func (r Retry) Data() jsonobj.Object {
	o := jsonobj.Object{{"turn", r.Turn}, {"step", r.Step}, {"provider", DefaultProvider},
		{"mode", r.Mode}, {"policyKey", r.PolicyKey}, {"retry", r.N}}
	if r.Mode != RetryAlways {
		o = append(o, jsonobj.Field{"maxRetries", r.Max})
	}
	return append(o, jsonobj.Field{"delayMs", r.DelayMs}, jsonobj.Field{"failure", Failure{Message: r.Failure}.Object()})
}
