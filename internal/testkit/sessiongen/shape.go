package sessiongen

import (
	"fmt"
	"strings"
)

// A Shape is a kind of log for benchmarks: how big its events are and how
// its turns and compactions are spread. The costs of reading, projecting
// and rendering a log grow with its events more than with its bytes, so
// every figure is measured on logs of several shapes.
type Shape string

// The shapes. ShapeReal is assembled from real logs (Real); the others
// are generated (Shape.Config).
const (
	// ShapeCurrent is the default Config: about 350 bytes an event, prose
	// of a few paragraphs, hostile texts and huge tool outputs.
	ShapeCurrent Shape = "current"
	// ShapeSmall is about 200 bytes an event: many short turns of one or
	// two steps, short texts, a compaction every few hundred events.
	ShapeSmall Shape = "small"
	// ShapeTiny is about 130 bytes an event: token-sized streamed chunks,
	// packed into upstream's chunk rows (containers.md §5) as its
	// persistence writes them by default, which is how a real profile
	// holds 1.3M events in 97 MiB.
	ShapeTiny Shape = "tiny"
	// ShapeReal replays turns taken from real upstream logs (Real).
	ShapeReal Shape = "real"
	// ShapeDense is item-dense, about 225 bytes an event: no streamed
	// chunks (every event is a settled message or a structural event),
	// short turns of one or two steps with a tool call or two, and a
	// chain of nested compactions, each shadowing the whole surface (about
	// 98 nodes, the previous checkpoint among them). A 100k-event log
	// (seed 1) holds about 9.3k prompts, 8.7k tool calls and a chain 352
	// checkpoints deep, and projects to 0.53 transcript items an event,
	// 2.4× the small shape's 0.23 (TestDenseShape).
	ShapeDense Shape = "dense"
)

// Shapes returns every shape, in the order the benchmarks print them.
func Shapes() []Shape { return []Shape{ShapeCurrent, ShapeSmall, ShapeTiny, ShapeReal, ShapeDense} }

// ParseShape returns the shape named s.
func ParseShape(s string) (Shape, error) {
	for _, sh := range Shapes() {
		if string(sh) == s {
			return sh, nil
		}
	}
	names := make([]string, 0, len(Shapes()))
	for _, sh := range Shapes() {
		names = append(names, string(sh))
	}
	return "", fmt.Errorf("sessiongen: unknown shape %q (want %s)", s, strings.Join(names, ", "))
}

// Config returns the Config of a generated shape for about events events;
// ok is false for ShapeReal, which is not generated.
func (s Shape) Config(events int) (cfg Config, ok bool) {
	switch s {
	case ShapeCurrent:
		return Config{Events: events}, true
	case ShapeSmall:
		return Config{Events: events, MaxStepsPerTurn: 2, MaxCallsPerStep: 1, Terse: 1,
			Hostile: 0.02, Huge: 0.002, Compactions: 0.09, OlderFraction: 0.5}, true
	case ShapeTiny:
		return Config{Events: events, MaxStepsPerTurn: 2, MaxCallsPerStep: 1, Terse: 2,
			Hostile: 0.01, Huge: -1, Compactions: 0.09, OlderFraction: 0.5}, true
	case ShapeDense:
		return Config{Events: events, MaxStepsPerTurn: 2, MaxCallsPerStep: 2, Terse: 1,
			Hostile: 0.02, Huge: 0.002, Compactions: -1, Settled: true, Chain: 96, OlderFraction: 0.5}, true
	}
	return Config{}, false
}

// Packed reports whether the shape's logs are written with their chunk
// runs packed into chunk rows (jsonl.AppendPacked).
func (s Shape) Packed() bool { return s == ShapeTiny || s == ShapeReal }
