package display

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// piStyle is the Style of SGR parameters as pitui-wrap.mjs writes them.
func piStyle(t *testing.T, sgr string) Style {
	var st Style
	if sgr == "" {
		return st
	}
	for _, p := range strings.Split(sgr, ";") {
		switch p {
		case "1":
			st.Attrs |= Bold
		case "2":
			st.Attrs |= Dim
		case "3":
			st.Attrs |= Italic
		case "4":
			st.Attrs |= Underline
		case "35":
			st.Fg = FgAccent
		case "36":
			st.Fg = FgCode
		default:
			t.Fatalf("SGR parameter %q", p)
		}
	}
	return st
}

// TestWrapPiTUI checks Wrap against the rows pi-tui made of 400 random
// lines of words, space runs, long words, CJK and wide clusters in up to
// four styles: every row's text, the style of each of its clusters, and
// the style of its padding.
func TestWrapPiTUI(t *testing.T) {
	b, err := os.ReadFile("testdata/pitui-wrap.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []struct {
		Spans [][2]string `json:"spans"`
		Width int         `json:"width"`
		Rows  []struct {
			Text string  `json:"text"`
			Runs [][]any `json:"runs"`
			Pad  string  `json:"pad"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for n, c := range raw {
		var l Line
		for _, sp := range c.Spans {
			l = append(l, Span{Text: sp[0], Style: piStyle(t, sp[1])})
		}
		w := Wrap(l, c.Width)
		var got, want []string
		for i, row := range w.Rows {
			got = append(got, rowString(Cells(row), w.Pads[i]))
		}
		for _, row := range c.Rows {
			cells := Cells(TextLine(row.Text, Style{}))
			for _, run := range row.Runs {
				st := piStyle(t, run[2].(string))
				for k := int(run[0].(float64)); k <= int(run[1].(float64)); k++ {
					cells[k].Style = st
				}
			}
			want = append(want, rowString(cells, piStyle(t, row.Pad)))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("case %d: Wrap(%q, %d):\n got %q\nwant %q", n, l, c.Width, got, want)
		}
	}
}

// rowString shows a row's clusters with their styles and its padding's.
func rowString(cells []Cell, pad Style) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.Text)
		if c.Style != (Style{}) {
			b.WriteString("{" + string(rune('0'+c.Style.Fg)) + string(rune('0'+c.Style.Attrs)) + "}")
		}
	}
	if pad != (Style{}) {
		b.WriteString(" pad{" + string(rune('0'+pad.Fg)) + string(rune('0'+pad.Attrs)) + "}")
	}
	return b.String()
}
