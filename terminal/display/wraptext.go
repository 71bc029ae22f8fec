package display

// WrapText word-wraps one row of plain, already escaped text to width cells,
// measuring every cell as the renderer does (and as terminals do: see
// termwidth.go), so that a row another view draws from log text fits the
// width just as the transcript's rows do. The text must hold no escape
// sequences: pass it through Escape first.
func WrapText(s string, width int) []string {
	rows := WrapLine(TextLine(s, Style{}), width)
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.PlainText()
	}
	return out
}
