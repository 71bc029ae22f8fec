package terminal

import (
	"github.com/dshtest/dshtest/terminal/display"
)

// The styles the renderer draws with, by the palette roles they use.
var (
	plain     = display.Style{}
	dimSty    = display.Style{Attrs: display.Dim}
	headerSty = display.Style{Fg: display.FgAccent, Attrs: display.Bold | display.Underline}
	reasonSty = display.Style{Attrs: display.Dim | display.Italic}
	yellowSty = display.Style{Fg: display.FgWarning}
	redSty    = display.Style{Fg: display.FgError}
)
