package picture

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

func TestParseLabels(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Style
	}{
		{"", Style{Fg: -1, Bg: -1}},
		{"fg=bright-magenta bold underline", Style{Fg: 13, Bg: -1, Bold: true, Underline: true}},
		{"dim italic", Style{Fg: -1, Bg: -1, Dim: true, Italic: true}},
		{"fg=red inverse strike", Style{Fg: 1, Bg: -1, Inverse: true, Strike: true}},
		{"fg=#010203 bg=ansi-200", Style{Fg: -1, Bg: -1}},
	} {
		if diff := cmp.Diff(tc.want, ParseLabels(tc.in)); diff != "" {
			t.Errorf("ParseLabels(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestColours(t *testing.T) {
	p := PaletteFor(display.SchemeDark)
	fg, bg := ParseLabels("fg=green inverse").Colours(p)
	if fg != p.Bg || bg != p.ANSI[2] {
		t.Errorf("inverse green: fg %s bg %s", fg.Hex(), bg.Hex())
	}
	fg, _ = ParseLabels("dim").Colours(p)
	if fg == p.Fg || fg == p.Bg {
		t.Errorf("dim is not between the foreground and the background: %s", fg.Hex())
	}
}

func TestFromRowsAndChanges(t *testing.T) {
	a := FromRows([]screen.Row{{Text: "a中b", Runs: []screen.Run{{Start: 1, End: 2, Labels: "fg=red"}}}}, 6)
	if len(a.Rows[0]) != 4 || a.Rows[0][1].Width != 2 || a.Rows[0][2].Width != 0 || a.Rows[0][1].Style.Fg != 1 || a.Rows[0][3].Style.Fg != -1 {
		t.Fatalf("cells = %+v", a.Rows[0])
	}
	b := FromRows([]screen.Row{{Text: "a中c"}, {Text: "x"}}, 6)
	ch := Changes(a, b)
	var at []string
	for r, row := range ch {
		for c, v := range row {
			if v {
				at = append(at, string(rune('0'+r))+":"+string(rune('0'+c)))
			}
		}
	}
	if diff := cmp.Diff([]string{"0:1", "0:2", "0:3", "1:0"}, at); diff != "" {
		t.Errorf("changed cells (-want +got):\n%s", diff)
	}
}

func TestANSIAndSVG(t *testing.T) {
	g := FromRows([]screen.Row{{Text: "Hi <x>\x1b", Runs: []screen.Run{{Start: 0, End: 1, Labels: "fg=bright-magenta bold"}}}}, 10)
	if got := ANSI(g); got != "\x1b[0;1;95mHi\x1b[0m <x>\\x1b\x1b[0m\n" {
		t.Errorf("ANSI = %q", got)
	}
	svg := string(SVG(g, PaletteFor(display.SchemeDark), nil, 2))
	for _, want := range []string{`height="36"`, `fill="#d670d6" font-weight="bold">H</text>`, `>&lt;</text>`} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q:\n%s", want, svg)
		}
	}
}

// FuzzReport: any bytes as a recorded or new fixture make a page, never a
// panic, and nothing of them reaches the page unescaped.
func FuzzReport(f *testing.F) {
	f.Add([]byte("dshtest fixture v2\nterminal 4x2 scheme=dark\ndocument\n\"<b>\"\n  style 0-0 fg=red\nscreen\n= document 0\n"), []byte("x"))
	f.Fuzz(func(t *testing.T, rec, nw []byte) {
		page := string(Report("t", []Card{{Scenario: "s", Fixture: "f", Recorded: rec, New: nw, Diff: string(nw)}}))
		if strings.Contains(page, "<b>") || strings.Contains(page, "\x1b") {
			t.Fatalf("unescaped input in the page")
		}
	})
}
