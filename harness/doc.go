// Package harness is dshtest's scenario DSL and golden-fixture recorder.
//
// A scenario is a testscript archive (scenarios/*.txtar) that tells one
// story about a session log in a handful of verbs: it appends events with a
// frozen clock (turn, user, assistant, tool-call, compact, prune, …), mounts
// the real terminal model on the log, drives it with resizes and key
// toggles, and pins what a person sees with snapshot steps. Each snapshot is
// recorded to or compared with fixtures/NAME.screen, a readable text
// serialisation of the rendered transcript document and the terminal screen.
//
// Every snapshot also proves that the live path equals the replay path:
// the terminal that watched the events arrive one by one must show exactly
// what a terminal mounted on the same stored log shows. On a difference the
// harness bisects over log prefixes and names the first event where the two
// paths diverge.
//
// The terminal model is driven directly (Update with messages; no program,
// no goroutines), so a scenario is deterministic and fast.
//
// Run the suite from go test with [Run], and anywhere else with
// [RunSuite], which returns one [Outcome] per scenario and the closed
// fixture inventory (dshtest run is built on it). To re-record, set
// GOLDIE_UPDATE=1, or pass -update when the test binary links a package
// that defines that flag (goldie's, or teatest's golden package, as every
// teatest user's does): the harness looks the flag up and never defines
// it. Both re-record through [Rerecord], as dshtest record does. Package
// suitedir knows a suite folder's layout, its pending screens and
// record's classification of what changed.
// The verbs are listed by the help verb and in help_gen.go, which is
// generated from the doc comments of the verb_*.go files.
package harness
