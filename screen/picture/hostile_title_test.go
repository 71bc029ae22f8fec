package picture

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/screen"
)

// TestTitlesEscaped: a page's title is a path or a name from the user's
// files: ESC, BEL and U+202E in it reach neither <title> nor a heading raw.
func TestTitlesEscaped(t *testing.T) {
	title := "x\x1b]0;PWNED\x07\u202e.jsonl"
	pages := map[string][]byte{
		"Report":   Report(title, []Card{{Scenario: "s\u202e", Fixture: "f\x1b[2J"}}),
		"HTMLPage": HTMLPage(title, Grid{}, Palette{}, 1),
	}
	for name, page := range pages {
		if strings.ContainsAny(string(page), "\x1b\x07\u202e") {
			t.Errorf("%s holds a raw control or BiDi character", name)
		}
		if !strings.Contains(string(page), `<title>x\x1b]0;PWNED\x07\u202e.jsonl</title>`) {
			t.Errorf("%s's title is not the escaped path", name)
		}
	}
}

// TestFixtureTextEscaped: a crafted fixture's U+202E, U+2066 and U+0085
// reach no picture raw (SVG, HTML, ANSI, the report's diff).
func TestFixtureTextEscaped(t *testing.T) {
	g := FromRows([]screen.Row{{Text: "a\u202eb\u2066c\u0085d", Width: 7}}, 10)
	outs := map[string]string{
		"SVG":    string(SVG(g, Palette{}, nil, 1)),
		"HTML":   string(HTMLPage("t", g, Palette{}, 1)),
		"ANSI":   ANSI(g),
		"report": string(Report("t", []Card{{Diff: "-a\u202eb\n+a\u2066b\u0085"}})),
	}
	for name, out := range outs {
		if strings.ContainsAny(out, "\u202e\u2066\u0085") {
			t.Errorf("%s holds a raw BiDi or C1 character: %q", name, out)
		}
	}
}

// TestSVGIsWellFormedXML: an SVG of a fixture holding characters XML 1.0
// does not allow (U+FFFE, U+FFFF) is still well-formed, which encoding/xml
// checks as a browser's parser does: one such character had made a whole
// picture undrawable.
func TestSVGIsWellFormedXML(t *testing.T) {
	g := FromRows([]screen.Row{{Text: "a\ufffeb\uffffc<&>", Width: 8}}, 10)
	svg := SVG(g, Palette{}, nil, 1)
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v\n%s", err, svg)
		}
	}
}
