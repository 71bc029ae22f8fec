package picture

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/screen"

	"github.com/dshtest/dshtest/terminal/display"
)

// Card is one changed or new fixture of a report.
type Card struct {
	// Scenario owns the snapshot; Fixture is its file ("fixtures/x.screen").
	Scenario, Fixture string
	// Recorded is the recorded fixture's bytes (nil when there is none);
	// New is the new screen's.
	Recorded, New []byte
	// Diff is the text diff recorded → new.
	Diff string
	// PendingDir is the --pending-dir DIR the deciding commands need to
	// find the card's pending screen ("" when it is beside the fixture),
	// shell-quoted as it is to be typed.
	PendingDir string
	// Change identifies the change (the caller's rule of "the same
	// change"): cards with the same non-empty Change are one change shared
	// by several fixtures, drawn once with the fixtures listed.
	Change string
}

// Screens parses a fixture and returns its screen grid, its palette and its
// height from the "terminal WxH" setting.
func Screens(data []byte) (Grid, Palette, int, error) {
	f, err := screen.ParseFixture(data)
	if err != nil {
		return Grid{}, Palette{}, 0, err
	}
	w, h := Size(f)
	return FromRows(f.Screen, w), FixturePalette(f), h, nil
}

// Size is a fixture's terminal size from its "terminal WxH" setting (0, 0
// when absent).
func Size(f *screen.Fixture) (int, int) {
	ws, hs, _ := strings.Cut(f.Setting("terminal"), "x")
	w, _ := strconv.Atoi(ws)
	h, _ := strconv.Atoi(hs)
	return w, h
}

// reportCSS styles the report page (the grids' own CSS is cellCSS).
const reportCSS = `body{margin:0;padding:16px 24px;background:#f4f4f5;color:#18181b;font:14px/1.4 system-ui,sans-serif}
h1{font-size:20px;margin:0 0 4px}
.summary{margin:0 0 16px;color:#3f3f46}
.card{background:#fff;border:1px solid #d4d4d8;border-radius:6px;padding:12px 16px;margin:0 0 20px}
.card h2{font-size:16px;margin:0 0 2px;font-family:` + fontStack + `}
.card .meta{color:#52525b;margin:0 0 10px}
.card .also{color:#3f3f46;margin:0 0 10px}
.pair{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.side .label{font-weight:600;margin:0 0 4px}
.none{padding:24px;border:1px dashed #a1a1aa;color:#52525b}
pre.diff{background:#fafafa;border:1px solid #e4e4e7;padding:8px;overflow:auto;font:12px/1.35 ` + fontStack + `;margin:12px 0 0}
pre.diff .add{color:#166534;background:#dcfce7}
pre.diff .del{color:#991b1b;background:#fee2e2}
pre.diff .hunk{color:#6d28d9}
`

// Report writes one self-contained HTML page (no script, no network) with
// a summary and a card per change: the recorded and the new screen side
// by side (one above the other when the window is narrow), each run of
// changed cells framed, the changed rows counted, and the text diff
// beneath. A change shared by several fixtures (the same Change) is one
// card, drawn from its first fixture, listing the others.
func Report(title string, cards []Card) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s%s</style></head><body>\n",
		html.EscapeString(display.EscapeInline(title)), reportCSS, cellCSS)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(display.EscapeInline(title)))
	changed, created := 0, 0
	scen := map[string]bool{}
	for _, c := range cards {
		scen[c.Scenario] = true
		if c.Recorded == nil {
			created++
		} else {
			changed++
		}
	}
	groups := groupCards(cards)
	shared := ""
	if len(groups) < len(cards) {
		shared = fmt.Sprintf(", %d distinct %s (a change shared by several fixtures is shown once)", len(groups), plural(len(groups), "change", "changes"))
	}
	flag := ""
	if len(cards) > 0 && cards[0].PendingDir != "" {
		flag = " --pending-dir " + cards[0].PendingDir
	}
	fmt.Fprintf(&b, "<p class=\"summary\" id=\"summary\">%d changed and %d new %s in %d %s%s. Decide with <code>dshtest review%s</code>, <code>dshtest accept%s NAME</code> or <code>dshtest reject%s NAME</code>.</p>\n",
		changed, created, plural(len(cards), "fixture", "fixtures"), len(scen), plural(len(scen), "scenario", "scenarios"), shared,
		html.EscapeString(flag), html.EscapeString(flag), html.EscapeString(flag))
	for i, g := range groups {
		card(&b, i, g)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// groupCards groups cards by their Change, in the order of each group's
// first card; a card without a Change is a group of its own.
func groupCards(cards []Card) [][]Card {
	var out [][]Card
	at := map[string]int{}
	for _, c := range cards {
		if c.Change != "" {
			if i, ok := at[c.Change]; ok {
				out[i] = append(out[i], c)
				continue
			}
			at[c.Change] = len(out)
		}
		out = append(out, []Card{c})
	}
	return out
}

func card(b *bytes.Buffer, i int, group []Card) {
	c := group[0]
	title := c.Fixture
	if len(group) > 1 {
		title = fmt.Sprintf("%s and %d more: the same change", c.Fixture, len(group)-1)
	}
	fmt.Fprintf(b, "<section class=\"card\" id=\"card-%d\">\n<h2>%s</h2>\n", i, html.EscapeString(display.EscapeInline(title)))
	if len(group) > 1 {
		var names []string
		for _, o := range group {
			names = append(names, "<code>"+html.EscapeString(display.EscapeInline(o.Fixture))+"</code> (<code>"+html.EscapeString(display.EscapeInline(o.Scenario))+"</code>)")
		}
		fmt.Fprintf(b, "<p class=\"also\">The same change in %d fixtures: %s. Drawn below: the first.</p>\n", len(group), strings.Join(names, ", "))
	}
	var rec, nw Grid
	var recP, newP Palette
	var recH, newH int
	var recErr, newErr error
	if c.Recorded != nil {
		rec, recP, recH, recErr = Screens(c.Recorded)
	}
	if c.New != nil {
		nw, newP, newH, newErr = Screens(c.New)
	}
	var changes [][]bool
	status := "new fixture"
	if c.Recorded != nil && recErr == nil && newErr == nil {
		changes = Changes(rec, nw)
		status = ChangeSummary(changes)
	}
	fmt.Fprintf(b, "<p class=\"meta\">scenario <code>%s</code> · %s</p>\n<div class=\"pair\">\n", html.EscapeString(display.EscapeInline(c.Scenario)), status)
	side := func(label string, data []byte, g Grid, p Palette, h int, err error, id string) {
		fmt.Fprintf(b, "<div class=\"side\"><p class=\"label\">%s</p>", label)
		switch {
		case data == nil:
			b.WriteString(`<div class="none">none</div>`)
		case err != nil:
			fmt.Fprintf(b, `<div class="none">cannot read: %s</div>`, html.EscapeString(display.EscapeInline(err.Error())))
		default:
			GridHTML(b, g, p, changes, id, h)
		}
		b.WriteString("</div>\n")
	}
	side("recorded", c.Recorded, rec, recP, recH, recErr, fmt.Sprintf("card-%d-recorded", i))
	side("new", c.New, nw, newP, newH, newErr, fmt.Sprintf("card-%d-new", i))
	b.WriteString("</div>\n")
	if c.Diff != "" {
		b.WriteString(`<pre class="diff">`)
		for _, l := range strings.Split(c.Diff, "\n") {
			class := ""
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			case strings.HasPrefix(l, "+"):
				class = "add"
			case strings.HasPrefix(l, "-"):
				class = "del"
			case strings.HasPrefix(l, "@@"):
				class = "hunk"
			}
			if class != "" {
				fmt.Fprintf(b, "<span class=\"%s\">%s</span>\n", class, html.EscapeString(visible(l)))
			} else {
				b.WriteString(html.EscapeString(visible(l)) + "\n")
			}
		}
		b.WriteString("</pre>\n")
	}
	b.WriteString("</section>\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
