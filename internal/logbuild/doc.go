// Package logbuild writes the payloads and events of a session log for the
// code that makes logs rather than reads them: the harness's verbs and the
// session generator (internal/testkit/sessiongen). It holds the shapes they share,
// in upstream's key order, so that a payload is built one way and a
// constant written once:
//
//   - turns and steps: TurnStart (with an older Trigger), Step (step/start
//     and step/end), TurnEnd with its EndReason and Failure, Retry
//     (llm/retry);
//   - messages: Message, UserMessage, ModelMessage, their sources
//     (UserSource, KindSource, PluginSource, ModelSource, ToolSource,
//     SessionRefSource) and content blocks (TextBlock, ReasoningBlock,
//     ToolCallBlock, ImageBlock, ToolResultBlock);
//   - a step's events: Assistant (assistant/message, also a regenerated
//     copy), Steering, Chunk and the stream chunks (BlockStart, Delta,
//     ToolCallDelta, BlockEnd, UsageChunk, Finish), ToolCall, ToolResult
//     with ToolError and meta;
//   - compaction start, summary and end in both vocabularies, the
//     checkpoint message, prune records and the pruner's rule (log.md §11);
//   - the id schemes (SeqID and friends for the harness, GenMessageID and
//     friends for the generator) and the provider and models both claim.
//
// Builders return ordered values (jsonobj.Object, []jsonobj.Object) rather
// than bytes: each caller encodes them with its own encoder (the harness with
// encoding/json, the generator with its JSON.stringify-like writer), which is
// what keeps the logs each writes byte for byte as they were. Where the
// harness wrote a payload from a map, it passes the builder's object through
// Sorted to keep encoding/json's key order.
package logbuild

import ()
