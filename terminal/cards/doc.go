// Package cards draws the transcript's cards (terminal.md §5, §2.7 and
// presenters.md): tool cards through their presenters, user shell cards
// and injected-context cards.
//
// A [Presenter] maps a [ToolCall] to a [CardView]: a terminal view (a
// shell command), a diff view (a file edit) or a generic view (a Markdown
// body, or an unknown tool's XML result shown as a tree). [Presenters]
// holds them by tool name: [DefaultPresenters] are the built-in presenters
// of upstream's tools (presenters.md §2), and every other tool gets
// [FallbackPresenter]. A presenter is a pure function of its call and sees
// raw log data; the card escapes every field of the view it returns.
//
// A [Renderer] draws a card under fixed settings as rows: the gap row, the
// header (truncated to max(1, width−2) cells with a trailing "…", not
// padded), and the body, folded to its first and last lines with a
// "… +K lines" marker unless cards are expanded (the preview rule,
// terminal.md §5.3). Whether a card is drawn at all (hidden mode) is the
// renderer's to decide.
//
// Files: presenter*.go the presenters (presenter_json.go their
// JavaScript-compatible JSON and parameter schemas), toolcard.go,
// generic.go, shellcard.go and renderer.go (context cards, the fold) the
// cards, xmltree.go the XML tree, diff.go the line diff.
package cards
