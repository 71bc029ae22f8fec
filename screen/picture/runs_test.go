package picture

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// rewrap is a prompt of one line rewrapped by a change of its first word:
// every cell after the change shifts, on this row and the next.
var rewrapOld = []screen.Row{
	{Text: "You"},
	{Text: "please summarize the build", Runs: []screen.Run{{Start: 0, End: 25, Labels: "dim"}}},
	{Text: "logs of today and yesterday", Runs: []screen.Run{{Start: 0, End: 26, Labels: "dim"}}},
	{Text: "status"},
}
var rewrapNew = []screen.Row{
	{Text: "You"},
	{Text: "now summarize the build logs", Runs: []screen.Run{{Start: 0, End: 27, Labels: "dim"}}},
	{Text: "of today and yesterday", Runs: []screen.Run{{Start: 0, End: 21, Labels: "dim"}}},
	{Text: "status"},
}

// TestChangeSummary: a change is counted in rows, however many cells a
// rewrap shifts.
func TestChangeSummary(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new []screen.Row
		want     string
	}{
		{"same", rewrapOld, rewrapOld, "0 rows changed"},
		{"one cell", []screen.Row{{Text: "ab"}}, []screen.Row{{Text: "aB"}}, "1 row changed"},
		{"a rewrap", rewrapOld, rewrapNew, "2 rows changed"},
		{"a row added", rewrapOld[:3], rewrapOld, "1 row changed"},
	} {
		ch := Changes(FromRows(tc.old, 30), FromRows(tc.new, 30))
		if got := ChangeSummary(ch); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestChangedRuns(t *testing.T) {
	const o, x = false, true
	for _, tc := range []struct {
		row   []bool
		width int
		want  [][2]int
	}{
		// Gaps of one and two cells are spanned, of three not.
		{[]bool{o, x, x, o, x, o, o, x, o, o, o, x}, 12, [][2]int{{1, 8}, {11, 12}}},
		{[]bool{o, x, x, o, x, o, o, x, o, o, o, x}, 11, [][2]int{{1, 8}}},
		{[]bool{o, x, x, o, x}, 2, [][2]int{{1, 2}}},
		{[]bool{x, x}, 0, nil},
		{[]bool{o, o}, 2, nil},
	} {
		if diff := cmp.Diff(tc.want, changedRuns(tc.row, tc.width)); diff != "" {
			t.Errorf("%v width %d (-want +got):\n%s", tc.row, tc.width, diff)
		}
	}
}

// TestGridHTMLRuns: each run of changed cells on a row is one framed span
// around the cells, which keep their own style (dim text stays as drawn,
// not crossed by a frame a cell); unchanged rows have no frame.
func TestGridHTMLRuns(t *testing.T) {
	p := PaletteFor(display.SchemeDark)
	old := []screen.Row{{Text: "abcdef", Runs: []screen.Run{{Start: 0, End: 5, Labels: "dim"}}}, {Text: "same"}}
	nw := []screen.Row{{Text: "abXYeZ", Runs: []screen.Run{{Start: 0, End: 5, Labels: "dim"}}}, {Text: "same"}}
	// XY and Z are one run across the unchanged e.
	og, ng := FromRows(old, 8), FromRows(nw, 8)
	var b bytes.Buffer
	GridHTML(&b, ng, p, Changes(og, ng), "g", 2)
	page := b.String()
	rows := regexp.MustCompile(`<div class="row">(.*?)</div>`).FindAllStringSubmatch(page, -1)
	if len(rows) != 2 {
		t.Fatalf("rows = %d:\n%s", len(rows), page)
	}
	open := `<span class="chg" style="outline-color:` + p.Changed.Hex() + `">`
	if n := strings.Count(rows[0][1], open); n != 1 {
		t.Errorf("row 0: %d framed runs, want 1 (XY, e between, Z):\n%s", n, rows[0][1])
	}
	// The run holds exactly its four cells, each still dim.
	dim, _ := ng.Rows[0][2].Style.Colours(p)
	run := regexp.MustCompile(regexp.QuoteMeta(open) + `(.*?)</span></span>`).FindStringSubmatch(rows[0][1])
	if run == nil || strings.Count(run[1], `<span class="c"`) != 4 || !strings.Contains(run[1], ">X<") ||
		strings.Count(run[1], "color:"+dim.Hex()) != 4 {
		t.Errorf("the run is not XYeZ in its own colour %s: %v", dim.Hex(), run)
	}
	if strings.Contains(rows[1][1], "chg") {
		t.Errorf("an unchanged row is framed: %s", rows[1][1])
	}
	if strings.Contains(page, "box-shadow") {
		t.Error("a cell still carries its own frame")
	}
}

// TestSVGRuns: the SVG frames each run once, as GridHTML does.
func TestSVGRuns(t *testing.T) {
	p := PaletteFor(display.SchemeDark)
	og := FromRows([]screen.Row{{Text: "abcdef"}, {Text: "same"}}, 8)
	ng := FromRows([]screen.Row{{Text: "abXYeZ"}, {Text: "same"}}, 8)
	svg := string(SVG(ng, p, Changes(og, ng), 2))
	want := `<rect x="19" y="1" width="34" height="16" fill="none" stroke="` + p.Changed.Hex() + `" stroke-width="2"/>` // XYeZ
	if !strings.Contains(svg, want) || strings.Count(svg, `stroke="`+p.Changed.Hex()+`"`) != 1 {
		t.Errorf("want the one frame %s:\n%s", want, svg)
	}
}

// TestReportGroupsChanges: cards with the same Change are one card that
// names every fixture; the summary still counts fixtures, and says how
// many distinct changes there are.
func TestReportGroupsChanges(t *testing.T) {
	rec := testFixture("dark", []screen.Row{{Text: "Hello there"}})
	nw := testFixture("dark", []screen.Row{{Text: "Hello world"}})
	other := testFixture("dark", []screen.Row{{Text: "Bye"}})
	page := string(Report("t", []Card{
		{Scenario: "s", Fixture: "fixtures/a.screen", Recorded: rec, New: nw, Diff: "-x\n+y", Change: "k1"},
		{Scenario: "s", Fixture: "fixtures/b.screen", Recorded: other, New: nw, Diff: "-z\n+w", Change: "k2"},
		{Scenario: "t", Fixture: "fixtures/c.screen", Recorded: rec, New: nw, Diff: "-x\n+y", Change: "k1"},
		{Scenario: "t", Fixture: "fixtures/d.screen", New: nw},
		{Scenario: "t", Fixture: "fixtures/e.screen", New: nw},
	}))
	if n := strings.Count(page, `<section class="card"`); n != 4 {
		t.Errorf("%d cards, want 4 (a and c one change)", n)
	}
	for _, want := range []string{
		`<h2>fixtures/a.screen and 1 more: the same change</h2>`,
		`The same change in 2 fixtures: <code>fixtures/a.screen</code> (<code>s</code>), <code>fixtures/c.screen</code> (<code>t</code>).`,
		`<h2>fixtures/b.screen</h2>`,
		`3 changed and 2 new fixtures in 2 scenarios, 4 distinct changes (a change shared by several fixtures is shown once).`,
		`1 row changed`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<h2>fixtures/c.screen</h2>") {
		t.Error("the shared change is drawn twice")
	}
}

// TestReportPendingDir: when the pending screens are in a pending
// directory, the summary's commands name it, as they must to find them.
func TestReportPendingDir(t *testing.T) {
	nw := testFixture("dark", []screen.Row{{Text: "Hello world"}})
	for _, tc := range []struct{ dir, want string }{
		{"", "Decide with <code>dshtest review</code>, <code>dshtest accept NAME</code> or <code>dshtest reject NAME</code>."},
		{"'/ci/my pending'", "Decide with <code>dshtest review --pending-dir &#39;/ci/my pending&#39;</code>, <code>dshtest accept --pending-dir &#39;/ci/my pending&#39; NAME</code> or <code>dshtest reject --pending-dir &#39;/ci/my pending&#39; NAME</code>."},
	} {
		page := string(Report("t", []Card{{Scenario: "s", Fixture: "fixtures/a.screen", New: nw, PendingDir: tc.dir}}))
		if !strings.Contains(page, tc.want) {
			t.Errorf("PendingDir %q: the page lacks %s", tc.dir, tc.want)
		}
	}
}
