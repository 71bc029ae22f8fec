// Package markdown lays out Markdown bodies as rows (presenters.md §3):
// prompts, assistant text, reasoning and generic card bodies. The text is
// parsed by goldmark (CommonMark with GFM tables, task items,
// strikethrough and bare autolinks) and laid out by upstream's rules
// (markdown.go), not as goldmark's HTML: block spacing, fences with their
// own open and close rows, headings, lists with accent bullets
// (renumbered), quotes, rules, tables in box drawing, inline code, bold,
// italic, strike and links; a row that wraps inside a styled span keeps
// the style on its padding.
//
// [Rows] lays out a body at a width as [Row]s of styled lines, which the
// renderer writes with its palette; [Fold] builds only the rows a folded
// card keeps, and [ShownText] is the text a body shows, in reading order,
// for the invariants' text oracle. Text in which no Markdown construct can
// start (most tool output) is laid out without goldmark, as goldmark would
// lay it out (plain.go).
//
// The text must be display-safe (display.Escape); the package styles
// nothing itself and imports no terminal library but goldmark.
package markdown
