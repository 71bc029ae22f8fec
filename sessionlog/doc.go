// Package sessionlog is the vocabulary of an agent session's append-only
// event log (log.md): the Event envelope, its surface op, the event type
// names in both naming generations (Canonical maps the older to the newer),
// the checkpoint predicates and the decoded views of the payloads the
// projections read.
//
// The central distinction is the event's own surface marker:
// [IsAppendSurfaceEvent] events are durable conversation and feed the human
// transcript; [IsReplacementSurfaceEvent] events are model-only copies
// (compaction checkpoints, pruned tool results, regenerated answers) that the
// transcript never renders. [IsCheckpoint] recognises a compaction checkpoint
// by its declared source, never by its shape.
//
// The package is pure and has no I/O: reading and writing logs is
// sessionlog/jsonl's job, folding them the surface package's, projecting
// them the transcript and history packages'.
package sessionlog
