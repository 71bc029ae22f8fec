// Package display is the ground of everything that shows log text: the one
// escaper, the widths terminals draw, styled lines and their wrapping, and
// the names of the display settings. It imports neither Bubble Tea, lipgloss
// nor goldmark, so that a command printing log text (check, history, repro,
// the viewer's surface view) escapes, measures and wraps it as the renderer
// does without linking the renderer.
//
// # Escaping
//
// A log is untrusted input: every string from it that reaches a terminal, a
// JSON output or a written file goes through [Escape] (multi-line text),
// [EscapeInline] (a field printed on one row) or [EscapeJSON] (a JSON
// document) (terminal.md §6 and its amendment, docs/spec/terminal.md §14):
// C0 controls except LF, DEL and C1 controls become \xNN; a character that
// reorders or hides text ([Reorders]) becomes \uNNNN; single-row fields
// also turn LF into \x0a. Bytes that are not valid UTF-8 are shown as
// U+FFFD, as a JSON decoder would have decoded them. No byte of a log can
// move the cursor or retitle the terminal.
//
// # Widths and wrapping
//
// Widths are ansi.StringWidth cells (wide CJK and emoji count 2), widened
// where a terminal measuring by code point (glibc's wcwidth) draws more: an
// emoji modifier standing alone is a cell of its own, 2 wide (termwidth.go).
// [TextWidth] measures plain text so.
//
// A [Line] is one logical line of [Span]s, each display-safe text in one
// [Style] (a palette colour role and attributes). [Wrap] wraps it as pi-tui
// 0.80.7's wrapTextWithAnsi wraps the SGR string of the line: breaks at
// spaces and on either side of a Han, Kana, Hangul or Bopomofo cluster,
// white space dropped at a break but a space that carries a style change
// kept, words longer than the width broken between grapheme clusters; each
// row comes with the style its padding is drawn in (the SGR state it leaves
// open). A grapheme wider than the whole width (a wide rune at width 1) is
// shown as U+FFFD. [WrapLine] is its rows. [CutLine] cuts a line to a width,
// [TruncateLine] with a trailing "…". [WrapText] and [TextWidth] are the
// same rules for one row of plain text, for the views that draw log text
// themselves.
//
// # Settings
//
// [Scheme] and [ToolMode] are the colour scheme and the tool-card mode;
// their String and Parse functions, with [ReasoningName] and
// [ParseReasoning], are the one spelling of each value (names.go).
package display
