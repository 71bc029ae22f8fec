package terminal

// InlineText is DisplayText for one row: a log-derived string with every
// control character escaped, line breaks included, so that it cannot move
// the cursor or break the row it is printed in (a listing, an error line).
func InlineText(s string) string { return escape(s, true) }
