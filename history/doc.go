// Package history pages a session log as session.history does (log.md
// §12.2): newest first, each page one contiguous raw range of the log that
// holds up to a number of counted messages. A History indexes a log once so
// that any page costs about as much as the page itself (an Index builds one
// from a log read once, keeping no event); a Pager finds one page in one
// pass; ScanPage is the spec's reference scan.
package history
