package display

// The glibc width table, for the renderer's test in rowsfit_test.go.
var (
	GlibcWidths   = glibcWidths
	TerminalWidth = terminalWidth
)
