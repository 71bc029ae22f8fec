// Package surface folds a session log into the model surface (log.md §4–§6):
// the ordered nodes the model is sent next, which compaction, pruning and
// regeneration rewrite with replace ops. It also validates stored logs and
// candidate appends (ValidateLog, CheckMessageShape), keeps a
// Session (an append-only log with its surface, Load and Resume), and
// derives the model messages of a surface (DeriveMessages).
//
// Error texts are the spec's, so that a rejected append reads as upstream's.
package surface
