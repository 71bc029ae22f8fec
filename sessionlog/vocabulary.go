package sessionlog

// The event vocabulary: every type upstream's two known sets hold, plus the
// retired types this reader still knows, and the rule for the rest. Facts are
// in the spec's vocabulary.md (§2 summary table, §4 legacy types).

import (
	"fmt"
	"slices"
	"strings"
)

// Origin says which vocabulary knows a type.
type Origin uint8

const (
	// OriginUnknown is a type no vocabulary knows (admitted only as
	// log-only, see CheckType).
	OriginUnknown Origin = iota
	// OriginShared types are in both current known sets: P's 52 and B's 45.
	OriginShared
	// OriginP types are known to the P fork only (rc8 sync and fork
	// commits); a B build refuses them.
	OriginP
	// OriginB types are known to the B fork only; a P build refuses them.
	OriginB
	// OriginLegacy types are retired: in neither current set, but written by
	// older builds (compact/*, compact/prune, steering/message).
	OriginLegacy
)

// String names the origin as the spec does.
func (o Origin) String() string {
	switch o {
	case OriginShared:
		return "P+B"
	case OriginP:
		return "P"
	case OriginB:
		return "B"
	case OriginLegacy:
		return "legacy"
	default:
		return "unknown"
	}
}

// TypeInfo describes one event type.
type TypeInfo struct {
	// Name is the type key, as in the envelope's "type".
	Name string
	// Surface is true for the types that carry a surfaceOp (append or
	// replace) and may carry sourceEventSeqs; every other type is log-only.
	// steering/message is a surface type of the older generation.
	Surface bool
	// Origin says which vocabulary knows the type.
	Origin Origin
	// Canonical is the current name of a legacy alias (compact/start →
	// compaction/start, steering/message → user/message); empty when Name
	// is itself current.
	Canonical string
}

// Known reports whether a vocabulary knows the type.
func (t TypeInfo) Known() bool { return t.Origin != OriginUnknown }

// InP reports whether P's known set (52 types) holds the type.
func (t TypeInfo) InP() bool { return t.Origin == OriginShared || t.Origin == OriginP }

// InB reports whether B's known set (45 types) holds the type.
func (t TypeInfo) InB() bool { return t.Origin == OriginShared || t.Origin == OriginB }

// vocabulary is the table, sorted by name. It is never handed out: KnownTypes
// copies it and LookupType returns values.
var vocabulary = func() []TypeInfo {
	shared := []string{
		"agent-preset/selected", "agent/inbox/spliced",
		"approval/asked", "approval/decided", "approval/policy",
		"assistant/chunk", "command/done", "command/run",
		"compaction/end", "compaction/prune", "compaction/start", "compaction/summary",
		"feedback/record", "goal/change", "hook/invoked", "hook/result",
		"llm/retry", "llm/retry-started", "permission/preset", "plan/mode",
		"request/context", "request/header", "sandbox/mode", "schedule/change",
		"session/end-seed", "session/title", "session/title-llm-request",
		"step/end", "step/start", "subagent/descriptor", "todo/write",
		"tool-workflow/agent-end", "tool-workflow/agent-start",
		"tool-workflow/run-end", "tool-workflow/run-start",
		"tool/call", "tool/code-dispatch", "tool/code-dispatch-start",
		"turn/end", "turn/start", "web/deepseek-search-llm-request",
	}
	surface := []string{"user/message", "assistant/message", "tool/result"}
	pOnly := []string{
		"sandbox/writable-roots",
		"team/member", "team/message/delivered", "team/message/queued", "team/task",
		"tui/user-shell-result", "tui/user-shell-start", "tui/workspace-checkpoint",
	}
	var t []TypeInfo
	for _, n := range shared {
		t = append(t, TypeInfo{Name: n, Origin: OriginShared})
	}
	for _, n := range surface {
		t = append(t, TypeInfo{Name: n, Surface: true, Origin: OriginShared})
	}
	for _, n := range pOnly {
		t = append(t, TypeInfo{Name: n, Origin: OriginP})
	}
	t = append(t,
		TypeInfo{Name: "tui/input", Origin: OriginB},
		TypeInfo{Name: "compact/start", Origin: OriginLegacy, Canonical: "compaction/start"},
		TypeInfo{Name: "compact/summary", Origin: OriginLegacy, Canonical: "compaction/summary"},
		TypeInfo{Name: "compact/end", Origin: OriginLegacy, Canonical: "compaction/end"},
		TypeInfo{Name: "compact/prune", Origin: OriginLegacy, Canonical: "compaction/prune"},
		TypeInfo{Name: "steering/message", Surface: true, Origin: OriginLegacy, Canonical: "user/message"},
	)
	slices.SortFunc(t, func(a, b TypeInfo) int { return strings.Compare(a.Name, b.Name) })
	return t
}()

// vocabularyIndex is each known type's place in vocabulary. A lookup runs
// twice on every event read (the reader's vocabulary rule, the load's
// known-type check); the binary search it replaces was 2% of render's CPU.
var vocabularyIndex = func() map[string]int {
	m := make(map[string]int, len(vocabulary))
	for i, t := range vocabulary {
		m[t.Name] = i
	}
	return m
}()

// LookupType returns what the vocabulary knows of a type.
func LookupType(name string) (TypeInfo, bool) {
	i, ok := vocabularyIndex[name]
	if !ok {
		return TypeInfo{}, false
	}
	return vocabulary[i], true
}

// KnownTypes returns every known type, sorted by name, in a fresh slice.
func KnownTypes() []TypeInfo { return slices.Clone(vocabulary) }

// TypeCheck is one event's type as the unknown-type rule sees it.
type TypeCheck struct {
	Type string
	Seq  int64
	// Ignorable is true when the envelope carries "ignorable": true.
	Ignorable bool
	// HasSurfaceOp is true when the envelope carries a surfaceOp member.
	HasSurfaceOp bool
	// AllowUnknown is the --allow-unknown flag.
	AllowUnknown bool
}

// CheckType applies the vocabulary rule to one event. A known type passes
// with its TypeInfo. An unknown type is read as log-only (a TypeInfo with
// OriginUnknown) when it carries "ignorable": true or when AllowUnknown is
// set; otherwise it is refused, as upstream refuses it. An unknown type that
// carries a surfaceOp is refused in every case: it claims a place on the
// model surface, which no log-only reading can honour.
//
// Run it on upgraded events (package upgrade), as upstream does, so the
// retired types that load-time upgrades convert or refuse keep their own
// diagnostics.
func CheckType(c TypeCheck) (TypeInfo, error) {
	if t, ok := LookupType(c.Type); ok {
		return t, nil
	}
	if c.HasSurfaceOp {
		return TypeInfo{}, &UnknownTypeError{Type: c.Type, Seq: c.Seq, SurfaceOp: true}
	}
	if c.Ignorable || c.AllowUnknown {
		return TypeInfo{Name: c.Type, Origin: OriginUnknown}, nil
	}
	return TypeInfo{}, &UnknownTypeError{Type: c.Type, Seq: c.Seq}
}

// UnknownTypeError is CheckType's refusal. Its Error is one user-facing line
// without a location; the caller prefixes "file:line: ".
type UnknownTypeError struct {
	Type string
	Seq  int64
	// SurfaceOp is true when the event carries a surfaceOp, so
	// --allow-unknown cannot admit it.
	SurfaceOp bool
}

// Text is the refusal without the seq and the hint.
func (e *UnknownTypeError) Text() string {
	if e.SurfaceOp {
		return fmt.Sprintf("event type %q is unknown to this harness and carries a surfaceOp", e.Type)
	}
	return fmt.Sprintf("event type %q is unknown to this harness and not marked ignorable", e.Type)
}

func (e *UnknownTypeError) Error() string {
	if e.SurfaceOp {
		return fmt.Sprintf("%s (seq %d); it would change the model surface, so not even --allow-unknown reads it", e.Text(), e.Seq)
	}
	return fmt.Sprintf("%s (seq %d); --allow-unknown reads it as log-only", e.Text(), e.Seq)
}
