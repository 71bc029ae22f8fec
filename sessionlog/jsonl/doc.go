// Package jsonl is the JSONL codec of a session log (log.md §1.3): one event
// per line, plus upstream's persistence container (an optional session
// header line and packed chunk rows), which the Decoder accepts and the
// Encoder never writes.
//
// A decode and encode changes no value: Data, SurfaceOp and SourceEventSeqs
// are kept as raw JSON. A line that cannot be decoded is a *sessionlog.Error that
// names the file, the line and the seq where there is one; ReadLog keeps the
// events before it, so a torn final write leaves a usable log.
package jsonl
