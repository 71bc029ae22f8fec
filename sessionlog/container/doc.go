// Package container reads a dsh session log out of every container a user
// can attach, and yields it as a stream of complete JSONL lines, header
// first, each with its position. It knows containers, not events: what the
// lines mean (vocabulary, upgrades, header fields, crash recovery) is the
// reader's business above it. The facts are upstream's, as written down in
// shared/spec/containers.md (cited as §N below).
//
// # Forms, detected by content
//
// Open never trusts a file name. A directory is a session directory holding
// session.jsonl or session.jsonl.zstd (§4; both at once is refused, as one
// upstream root is one encoding). A file is, by its first bytes:
//
//   - "SQLite format 3\x00": a schema-17 SQLite store (§9); Options.Session
//     selects the session (optional when it holds one). It is read by the
//     registered SQLite reader (package sessionlog/sqlite, RegisterSQLite),
//     and refused, with the import line that enables it, when the program
//     links none.
//   - "PK\x03\x04": a web export dsh-session-<id>.zip (§0): its root
//     session.jsonl, or subagents/<id>/session.jsonl with Options.Subagent
//     (the id sanitized as the export does); Log.Subagents lists them.
//   - the Zstandard magic, or a skippable frame's: concatenated frames (§3).
//   - anything else: raw JSONL (§2).
//
// The session store's layout (§4) is package sessionlog/store's; a session
// found there is opened with Options.ID, and a header naming another id is
// refused.
//
// # Raw JSONL (§2)
//
// Lines split on '\n' only. The header gate is the container's part of
// §1.2: line 1 must be a newline-terminated JSON object whose type is
// "session" (its fields are checked above this package). Then, as upstream's
// SessionLogScanner does: a final line without a newline is a torn tail,
// even if it is valid JSON; at the first unparsable line (a blank line, bad
// JSON, a malformed packed row, §5) or seq gap (packed rows expanded), the
// committed prefix ends. If any later complete line is a turn/end, the
// defect is in the committed region and the log is refused with upstream's
// words ("corrupt session log: seq gap in committed region at line N
// (expected E, got S)", "… unparsable committed event at line N", where N
// counts event lines from 1 as upstream counts them: file line N+1, which
// Error.Line gives). Otherwise the rest is a torn tail: a Warning naming the
// file line it starts at and how many lines it dropped, and the prefix is
// used. A second {"type":"session"} line is refused wherever it is, as "a
// second session header at line N".
//
// # Zstandard (§3)
//
// Frames are located structurally first, as scanZstdFrames does: a
// skippable or foreign frame is "invalid frame magic at byte N", reserved
// bits and block types are refused, and an incomplete final frame is known
// before anything is decoded. Each complete frame is then decoded in turn,
// checksum verified, from its byte range of the file; a failure is refused
// naming the frame's byte offset. Log.Framing says which of two framings
// the first frame showed:
//
//   - FramingBatches, upstream's: the first frame decodes to exactly one
//     line, the header, and each later frame is an append batch. A defect
//     inside the complete frames is never a torn tail ("complete frame
//     contains a torn JSONL record"). The complete lines of an incomplete
//     final frame are kept with a torn-tail Warning.
//   - FramingStream, any other cut: one frame of the whole log, as the
//     zstd command compresses a raw log, or frames cut anywhere (mid-line
//     too). The frames, an incomplete final one included, are one stream
//     of raw text, read with the raw rules above; a torn tail names the
//     incomplete frame when there is one.
//
// # SQLite (§9)
//
// The database is opened read-only (mode=ro, query_only, trusted_schema
// off, mmap off; not immutable, since its owner may be writing) and read a
// page of rows per short read transaction, so that an owner in
// rollback-journal mode is never locked out for long and one in WAL mode
// not at all. A wrong user_version or application_id is refused in one
// line. Rows are rebuilt as the JSONL records upstream's writer would have
// written: scalar rows as {type, seq, time, data, sourceEventSeqs?,
// surfaceOp?, ignorable?} (data from TEXT or a zstd BLOB,
// source_event_seqs from its varint/ZigZag BLOB), packed rows (ignorable =
// 0) as {type, seq0, time0, data}, the sessions row as the header line. A
// malformed row or a gap at or before the last turn/end row is refused
// ("invalid committed physical row at seq N"); later, it starts a torn tail.
//
// # Streaming
//
// Nothing is read whole: lines come from a buffered reader, one line at a
// time up to Options.MaxLine (64 MiB by default); Zstandard frames are
// decoded one by one. Because a defect is corruption only if a turn/end
// follows it, a refusal can come at the end of the stream: the lines of a
// log whose Err is not nil must not be used.
package container
