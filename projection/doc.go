// Package projection reads an agent session's append-only event log and
// projects it two ways: the model surface (what the model is sent next) and
// the human transcript (what a person reads).
//
// The package is pure: apart from the JSONL codec's reader and writer it does
// no I/O, and it knows nothing about terminals. The rules it implements are in
// the shared spec (log.md for the log, surface fold and history paging;
// terminal.md for which events become which transcript items).
//
// The central distinction is the event's own surface marker:
// [IsAppendSurfaceEvent] events are durable conversation and feed the
// transcript; [IsReplacementSurfaceEvent] events are model-only copies
// (compaction checkpoints, pruned tool results, regenerated answers) that the
// transcript never renders. A landed compaction checkpoint contributes one
// marker item at its log position instead.
package projection
