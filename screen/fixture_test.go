package screen

import (
	"bytes"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/google/go-cmp/cmp"
)

func row(text string, runs ...Run) Row { return Row{Text: text, Runs: runs} }

var (
	youRow    = row("You   ", Run{0, 2, "fg=bright-magenta bold underline"})
	chromeRow = row("dshtest · s", Run{0, 6, "fg=bright-magenta bold"})
	statusRow = row("s · 3 events", Run{0, 11, "dim"})
)

func sampleFixture() *Fixture {
	doc := []Row{{}, youRow, row("Hello"), {Text: "wrapped", Wrapped: true}, {}, row("Bye")}
	scr := append([]Row{chromeRow}, doc...)
	scr = append(scr, Row{}, Row{}, Row{}, statusRow)
	return &Fixture{Settings: []string{"terminal 12x11 scheme=dark profile=ansi16", "toggles reasoning=on tools=collapsed"}, Document: doc, Screen: scr}
}

func TestFixtureMarshal(t *testing.T) {
	want := `dshtest fixture v2
terminal 12x11 scheme=dark profile=ansi16
toggles reasoning=on tools=collapsed
document
<blank>
"You   "
  style 0-2 fg=bright-magenta bold underline
"Hello"
~"wrapped"
<blank>
"Bye"
screen
"dshtest · s"
  style 0-6 fg=bright-magenta bold
<blank>
= document 1-5
<blank> x3
"s · 3 events"
  style 0-11 dim
`
	got := string(sampleFixture().Marshal())
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
	}
	f, err := ParseFixture([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sampleFixture(), normalize(f)); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	if f.Setting("terminal") != "12x11" || f.Setting("tools") != "collapsed" || f.Setting("nope") != "" {
		t.Errorf("Setting: %q %q", f.Setting("terminal"), f.Setting("tools"))
	}
}

// normalize clears what the format does not carry (the display width).
func normalize(f *Fixture) *Fixture {
	for _, rows := range [][]Row{f.Document, f.Screen} {
		for i := range rows {
			rows[i].Width = 0
			if len(rows[i].Runs) == 0 {
				rows[i].Runs = nil
			}
		}
	}
	return f
}

// TestFixtureInsertedRow: one row inserted in the transcript, shown in
// both the document and the screen, changes a handful of fixture lines.
func TestFixtureInsertedRow(t *testing.T) {
	var doc []Row
	for i := range 30 {
		doc = append(doc, row(strings.Repeat("x", i%7)+" line", Run{0, 3, "dim"}))
	}
	mk := func(doc []Row) string {
		scr := append([]Row{chromeRow}, doc[len(doc)-10:]...)
		scr = append(scr, statusRow)
		return string((&Fixture{Document: doc, Screen: scr}).Marshal())
	}
	before := mk(doc)
	ins := append(append(append([]Row{}, doc[:25]...), row("a new row")), doc[25:]...)
	after := mk(ins)
	d := udiff.Unified("a", "b", before, after)
	changed := 0
	for _, l := range strings.Split(d, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			changed++
		}
	}
	if changed > 4 {
		t.Errorf("one inserted row changed %d lines:\n%s", changed, d)
	}
	if strings.Count(after, `"a new row"`) != 1 {
		t.Errorf("the new row is written %d times, want once", strings.Count(after, `"a new row"`))
	}
}

func TestParseFixtureErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "no version line"},
		{"dshtest fixture v1\n", `line 1: want "dshtest fixture v2"`},
		{"dshtest fixture v2\nterminal 1x1\n", "no document section"},
		{"dshtest fixture v2\ndocument\n\"a\"\n", "no screen section"},
		{"dshtest fixture v2\ndocument\n<blank>\n  style 0-1 dim\nscreen\n", "line 4: style run without its row"},
		{"dshtest fixture v2\ndocument\n\"a\"\nscreen\n= document 0-1\n", "line 5: bad document reference"},
		{"dshtest fixture v2\ndocument\n\"a\nscreen\n", "line 3: row text is not a JSON string"},
		{"dshtest fixture v2\ndocument\n\"\"\nscreen\n", "line 3: an empty row is written <blank>"},
		{"dshtest fixture v2\ndocument\n\"ab\"\n  style 1-1 dim\n  style 0-0 dim\nscreen\n", "line 5: style run"},
		{"dshtest fixture v2\ndocument\n<blank> x1\nscreen\n", "line 3: malformed blank run"},
		{"dshtest fixture v2\ndocument\nscreen\n= document 0\n", "line 4: bad document reference"},
		{"dshtest fixture v2\ndocument\n0| \"a\"\nscreen\n", `line 3: unexpected "0| \"a\""`},
	} {
		_, err := ParseFixture([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFixture(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// FuzzParseFixture: the reader never panics, and what it reads writes
// back to a file that reads the same.
func FuzzParseFixture(f *testing.F) {
	f.Add(sampleFixture().Marshal())
	f.Add([]byte("dshtest fixture v2\ndocument\n<blank> x3\n\"a\"\n  style 0-0 fg=red\nscreen\n= document 0-3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := ParseFixture(data)
		if err != nil {
			return
		}
		out := fx.Marshal()
		again, err := ParseFixture(out)
		if err != nil {
			t.Fatalf("re-reading the written fixture: %v\n%s", err, out)
		}
		if !bytes.Equal(again.Marshal(), out) {
			t.Fatalf("not stable:\n%s", out)
		}
		if diff := cmp.Diff(normalize(fx), normalize(again)); diff != "" {
			t.Fatalf("round trip mismatch:\n%s", diff)
		}
	})
}
