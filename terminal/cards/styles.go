package cards

import "github.com/dshtest/dshtest/terminal/display"

// The styles cards draw with, by the palette roles they use: a pending
// card's header is yellow, a completed one green, a failed one red.
var (
	plain     = display.Style{}
	dimSty    = display.Style{Attrs: display.Dim}
	boldSty   = display.Style{Attrs: display.Bold}
	greenSty  = display.Style{Fg: display.FgSuccess}
	yellowSty = display.Style{Fg: display.FgWarning}
	redSty    = display.Style{Fg: display.FgError}
)
