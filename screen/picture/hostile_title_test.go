package picture

import (
	"strings"
	"testing"
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
