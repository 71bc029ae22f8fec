// Package logbuild writes the payloads and events of a session log for the
// code that makes logs rather than reads them: the harness's verbs and the
// session generator (internal/sessiongen). It holds the shapes they share,
// in upstream's key order (compaction start, summary and end in both
// vocabularies, the checkpoint message, prune records) and the pruner's rule
// (log.md §11), so that a payload is built one way and a constant written
// once.
//
// Builders return ordered values (Object, []any) rather than bytes: each
// caller encodes them with its own encoder (the harness with encoding/json,
// the generator with its JSON.stringify-like writer), which is what keeps
// the logs each writes byte for byte as they were.
package logbuild
