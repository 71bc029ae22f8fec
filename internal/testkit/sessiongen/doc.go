// Package sessiongen generates seeded, valid session logs for property
// tests, soak runs and benchmarks.
//
// [Generate] draws a whole session from a seed: turns and steps in either
// vocabulary (newer: compaction/*, step/start before the prompt; older:
// compact/*, turn/start triggers, steering/message), prompts, injected
// context, streamed chunks settled by assistant/message, tool calls and
// results (errors, exit codes, huge outputs that the pruner then prunes),
// compactions of every shape (automatic head-anchored inside a turn, manual
// mid-range, nested, failed, left open at the tail), regenerations, foreign
// plugin replacements, retries, every turn/end kind, resumes
// (session/end-seed), an ignorable unknown event, and hostile text.
//
// [Real] instead replays whole turns of the real upstream logs of the
// shared corpus, renumbered into one long session: the benchmarks' real
// shape, with upstream's own event types, payloads and packed chunk rows.
//
// Every event goes through surface.Session.Append, so a generated log is
// valid by construction. The same seed and Config give the same bytes.
//
// Text that a JSON string cannot hold: raw invalid UTF-8 is written as the
// escape \ufffd (what Go's encoder and every decoder make of it), and the
// generator also writes lone-surrogate escapes (\udc80), which JSON.parse
// keeps as an unpaired UTF-16 unit and Go decodes to U+FFFD, and escaped
// surrogate pairs (\ud83d\ude00), which decode to one emoji.
package sessiongen
