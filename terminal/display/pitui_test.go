package display

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// piStyle is the Style of SGR parameters as pitui-wrap.mjs writes them.
func piStyle(t testing.TB, sgr string) Style {
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

// piCase is one line of testdata/pitui-wrap.json and the rows pi-tui
// made of it, each shown as rowString shows it.
type piCase struct {
	line  Line
	width int
	want  []string
}

// piCases reads testdata/pitui-wrap.json: 400 random lines of words,
// space runs, long words, CJK and wide clusters in up to four styles, and
// pi-tui's rows of each.
func piCases(t testing.TB) []piCase {
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
	var out []piCase
	for _, c := range raw {
		pc := piCase{width: c.Width}
		for _, sp := range c.Spans {
			pc.line = append(pc.line, Span{Text: sp[0], Style: piStyle(t, sp[1])})
		}
		for _, row := range c.Rows {
			cells := Cells(TextLine(row.Text, Style{}))
			for _, run := range row.Runs {
				st := piStyle(t, run[2].(string))
				for k := int(run[0].(float64)); k <= int(run[1].(float64)); k++ {
					cells[k].Style = st
				}
			}
			pc.want = append(pc.want, rowString(cells, piStyle(t, row.Pad)))
		}
		out = append(out, pc)
	}
	return out
}

// TestWrapPiTUI checks Wrap against the rows pi-tui made of piCases' lines,
// and the cell path alone (wrapGeneral, which Wrap passes a printable-ASCII
// line by) too: every row's text, the style of each of its clusters, and
// the style of its padding.
func TestWrapPiTUI(t *testing.T) {
	general := func(l Line, width int) Wrapping {
		if l.Width() <= width {
			return Wrap(l, width)
		}
		return wrapGeneral(l, width)
	}
	for n, c := range piCases(t) {
		for _, wrap := range []struct {
			name string
			fn   func(Line, int) Wrapping
		}{{"Wrap", Wrap}, {"wrapGeneral", general}} {
			w := wrap.fn(c.line, c.width)
			var got []string
			for i, row := range w.Rows {
				got = append(got, rowString(Cells(row), w.Pads[i]))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("case %d: %s(%q, %d):\n got %q\nwant %q", n, wrap.name, c.line, c.width, got, c.want)
			}
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
