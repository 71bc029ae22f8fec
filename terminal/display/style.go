package display

import "strings"

// Styled lines: a Line is spans of display-safe text, each in one Style.

// Role is a palette colour role (terminal.md §8). Colours are ANSI-16
// foregrounds only; no role sets a background. The palette package maps a
// role to its colour in each scheme.
type Role uint8

const (
	FgText Role = iota // the terminal default
	FgAccent
	FgCode
	FgSuccess
	FgWarning
	FgError
	FgBrand
	NumRoles
)

// Attr is a set of SGR attributes that compose freely with a colour.
type Attr uint8

const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Strike
	// NumAttrs is the number of attribute sets.
	NumAttrs = 1 << iota
)

// Style is a span's style: one colour role (colours never nest) plus
// attributes. The zero Style is plain text.
type Style struct {
	Fg    Role
	Attrs Attr
}

// With returns s with the attributes a added.
func (s Style) With(a Attr) Style { s.Attrs |= a; return s }

// Span is a run of display-safe text in one style.
type Span struct {
	Text  string
	Style Style
}

// Line is one logical line of styled spans.
type Line []Span

// TextLine is the line of s in one style.
func TextLine(s string, st Style) Line { return Line{{Text: s, Style: st}} }

// Width returns the line's display width in cells.
func (l Line) Width() int {
	w := 0
	for _, sp := range l {
		w += TextWidth(sp.Text)
	}
	return w
}

// PlainText returns the line's text without styles: the spans' texts, one
// after another.
func (l Line) PlainText() string {
	if len(l) == 1 {
		return l[0].Text
	}
	var b strings.Builder
	for _, sp := range l {
		b.WriteString(sp.Text)
	}
	return b.String()
}
