package projection

// HistoryWideGroups is the number of group starts h keeps in its int64
// fallback, for tests that must reach that path.
func HistoryWideGroups(h *History) int { return len(h.wide) }
