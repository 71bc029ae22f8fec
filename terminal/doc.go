// Package terminal is the real terminal renderer of the human transcript: a
// Bubble Tea v2 program with a replay path (mount or resume: rebuild from the
// stored log) and a live path (appended events arrive one by one and update
// the view through the incremental projector).
//
// Everything it shows is a function of the log, the size, the colour scheme,
// the toggles and the injected clock; never of TERM, NO_COLOR, COLORTERM, TZ,
// the locale or timing. Rows are styled with lipgloss v2, which emits SGR
// sequences whatever the terminal; the program's colour profile decides
// what reaches the screen.
//
// [Render] is the pure renderer: a transcript and [Settings] in, a
// [Document] (one styled row per line, SGR only, each at most Width cells)
// out. The program ([New], [Model]) renders the same rows through a per-item
// cache and draws only the visible window. A document with many items to
// render is rendered on several goroutines (the output is the same); a
// [RowCache] lets models that show one session share rows, and
// [Model.DocumentRows] reads a document without collecting it.
//
// # Packages
//
// The renderer is this package and four below it; each imports only those
// listed before it:
//
//   - terminal/display: the one escaper, the widths terminals draw, styled
//     lines and their wrapping, the names of the scheme and tool modes;
//   - terminal/palette: styled lines written as SGR rows in a scheme's
//     colours;
//   - terminal/markdown: Markdown bodies laid out as rows (goldmark);
//   - terminal/cards: the tool presenters and the tool, shell and context
//     cards;
//   - terminal: the items' layout, the document, the row cache and the
//     Bubble Tea program.
//
// # Rendering rules
//
// The layout follows the shared spec, terminal.md, with its §11 amendments:
// UI-action notices (reasoning and card-visibility toggles) go to the status
// line, never into the transcript.
//
// Every string from the log, a tool or a presenter is escaped
// (display.Escape, display.EscapeInline) before styling: no byte of a log
// can move the cursor or retitle the terminal. Rows are word-wrapped to the
// width as terminals measure it (display.WrapLine). The tool-card and
// context-card headers are truncated to max(1, width−2) cells with a
// trailing "…" and are not padded; every other text row is padded with
// spaces to the width; Spacer and gap rows are "" (unwritten).
package terminal
