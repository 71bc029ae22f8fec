package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// corpusLogs is the corpus of real upstream session logs, the repository's
// copy of the shared one (testdata/corpus).
const corpusLogs = "../testdata/corpus/upstream-logs"

// wantRow is a row as upstream's terminal draws it: its text, trailing
// spaces trimmed, and its style runs as the fixture format writes them,
// "; "-separated ("0-99 dim").
type wantRow struct {
	text, runs string
}

// causeCase pins rows of one corpus log, rendered at a width and tool mode,
// to upstream's: the rows must appear in our document one after another.
type causeCase struct {
	cause, log string
	width      int
	tools      display.ToolMode
	rows       []wantRow
}

// rowRuns formats a row's style runs as wantRow.runs does.
func rowRuns(r screen.Row) string {
	var parts []string
	for _, run := range r.Runs {
		parts = append(parts, strings.TrimPrefix(run.String(), "style "))
	}
	return strings.Join(parts, "; ")
}

// renderCorpusLog renders the one corpus log whose name contains name, as
// dshtest render does: the clock frozen at the last event.
func renderCorpusLog(t *testing.T, name string, width int, tools display.ToolMode) []screen.Row {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(corpusLogs, "*"+name+"*"))
	if len(matches) != 1 {
		t.Fatalf("%d corpus logs match %q", len(matches), name)
	}
	lg, err := load.Read(matches[0], load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := transcript.Project(lg.Events, transcript.Options{})
	s := Settings{Width: width, Tools: tools}
	if n := len(lg.Events); n > 0 {
		s.Now = lg.Events[n-1].Time
	}
	doc := Render(tr, s)
	checkWidths(t, doc.Lines, width)
	return screen.Decode(doc.Lines)
}

// checkCause asserts that c's rows appear, in order and adjacent, in the
// rendered document.
func checkCause(t *testing.T, got []screen.Row, c causeCase) {
	t.Helper()
	for i := range got {
		if i+len(c.rows) > len(got) {
			break
		}
		ok := true
		for k, w := range c.rows {
			g := got[i+k]
			if strings.TrimRight(g.Text, " ") != w.text || rowRuns(g) != w.runs {
				ok = false
				break
			}
		}
		if ok {
			return
		}
	}
	var near strings.Builder
	for _, g := range got {
		if strings.Contains(g.Text, strings.TrimSpace(c.rows[0].text)) || strings.Contains(c.rows[0].text, strings.TrimSpace(g.Text)) && strings.TrimSpace(g.Text) != "" {
			near.WriteString("\n  " + strings.TrimRight(g.Text, " ") + " | " + rowRuns(g))
		}
	}
	t.Errorf("%s: %s at width %d: upstream's rows %q are not in our document; rows like the first:%s", c.cause, c.log, c.width, c.rows, near.String())
}

// TestCorpusCauses pins, for each rendering rule our terminal once drew
// differently from upstream's (transcript.ts over pi-tui 0.80.7), rows of
// a real session in the corpus to the rows upstream draws.
func TestCorpusCauses(t *testing.T) {
	if _, err := os.Stat(corpusLogs); err != nil {
		t.Skipf("the corpus is absent (%v): its rows are not checked", err)
	}
	for _, c := range []causeCase{
		{cause: "B: a soft-wrapped dim card row keeps dim on its padding", log: "approval-composer", width: 100,
			rows: []wantRow{
				{"$ echo 'tok63z tokc7y tokibx tokofw tokujv tok10nu tok16rt tok1cvs tok1izr tok1p3q tok1v7p tok21bo", "0-99 dim"},
				{"tok2a4 tok8e3 tokei2 tokkm1 tokqq0 tokwtz tok12xy tok191x tok1f5w tok1l9v tok1rdu tok1xht tok23ls", "0-99 dim"},
			}},
		{cause: "G1: a context card keeps its blank lines", log: "acp-agent__tests__snapshots__text-turn", width: 100,
			rows: []wantRow{
				{"Current runtime context. This snapshot supersedes earlier runtime-context snapshots.", "0-83 dim"},
				{"", ""},
				{"Current DSH file policy: danger-full-access. The DSH file sandbox does not restrict file", "0-99 dim"},
			}},
		{cause: "G1: blank lines are lines of the fold", log: "permission-policy-context", width: 100,
			rows: []wantRow{
				{"<available_skills>", "0-17 dim"},
				{"… +119 lines (Ctrl+O to expand)", "0-30 dim"},
				{"</available_skills>", "0-18 dim"},
			}},
		{cause: "H1: a row may break between any two Han characters", log: "goal-multi-turn-actions", width: 100,
			rows: []wantRow{
				{`Objective: "做两个turn，每个turn输出随机一个包的文件结构。注意你做完一个turn之后，直接输出内容，停止`, "0-99 dim"},
				{`，我们的系统会帮你再开一个turn，你看着做一个类似的"`, "0-50 dim"},
			}},
		{cause: "H2: a styled span ending at the last column pushes its space onto the next row", log: "permission-policy-context", width: 60,
			rows: []wantRow{
				{"No — under the current read-only file policy, write and edit", "46-50 fg=cyan; 56-59 fg=cyan"},
				{" would be denied, though I could attempt a one-shot", ""},
			}},
		{cause: "C: a bare http:// URL with an IP host is an autolink, in a prompt and in reasoning", log: "acp-agent__tests__snapshots__web-fetch", width: 100,
			rows: []wantRow{
				{"Use the web_fetch tool exactly once to fetch http://127.0.0.1:43117/menu.html, then reply with", "45-76 fg=bright-magenta underline"},
			}},
		{cause: "C: reasoning", log: "acp-agent__tests__snapshots__web-fetch", width: 100,
			rows: []wantRow{
				{"The user wants me to use the web_fetch tool exactly once to fetch http://127.0.0.1:43117/menu.html,", "0-65 dim italic; 66-97 fg=bright-magenta dim italic underline; 98-99 dim italic"},
			}},
		{cause: "K: a card header that does not fit is cut with no ellipsis", log: "goal-multi-turn-actions", width: 60,
			rows: []wantRow{
				{"● Tool / bash / List all files in session-reference packag", "0-57 fg=green"},
			}},
		{cause: "P: a fence inside a list item follows the item's text with no blank row", log: "goal-multi-turn-actions", width: 100,
			rows: []wantRow{
				{"- Turn 1 — 随机选中 packages/context/session-reference，输出了文件结构：", "0-1 fg=bright-magenta; 2-7 bold; 20-53 fg=cyan"},
				{"", ""},
				{"    session-reference/", "4-21 fg=cyan"},
			}},
		{cause: "F2: a skill body's <skill_instructions> tag line opens an HTML block, printed literally", log: "skill-load", width: 100,
			rows: []wantRow{
				{"… +263 lines (Ctrl+O to expand)", "0-30 dim"},
			}},
		{cause: "F2: expanded", log: "skill-load", width: 100, tools: display.ToolsExpanded,
			rows: []wantRow{
				{"<skill_instructions>", "0-99 dim"},
				{"# Editing Cordis compositions", "0-99 dim"},
			}},
		{cause: "F2: a blank line between a list and a table is a blank row", log: "acp-agent__tests__snapshots__web-fetch", width: 100, tools: display.ToolsExpanded,
			rows: []wantRow{
				{"- Flat white", "0-1 fg=bright-magenta dim; 2-99 dim"},
				{"", ""},
				{"┌────────────┬───────┐", "0-99 dim"},
			}},
		{cause: "F2: collapsed, the fold counts it", log: "acp-agent__tests__snapshots__web-fetch", width: 100,
			rows: []wantRow{
				{"… +15 lines (Ctrl+O to expand)", "0-29 dim"},
			}},
		{cause: "X1: emphasis nested in bold keeps the dim of a card body", log: "acp-agent__tests__snapshots__web-fetch", width: 100, tools: display.ToolsExpanded,
			rows: []wantRow{
				{"Prices include service & tax — updated daily.", "0-14 dim; 15-24 bold dim; 25-27 bold dim italic"},
			}},
		{cause: "X2: inline code inside bold is bold and dim in a card body", log: "skill-load", width: 100, tools: display.ToolsExpanded,
			rows: []wantRow{
				{"3. Write the copy's description in preset.yml, and its name if you passed none to copy().",
					"0-2 fg=bright-magenta dim; 3-19 bold dim; 20-30 fg=cyan bold dim; 35-44 fg=cyan; 55-58 fg=cyan; 82-87 fg=cyan"},
			}},
		{cause: "X3: a table header cell is bold to its column's width", log: "acp-agent__tests__snapshots__web-fetch", width: 100, tools: display.ToolsExpanded,
			rows: []wantRow{
				{"│ Drink      │ Price │", "0-1 dim; 2-11 bold dim; 15-19 bold"},
			}},
	} {
		t.Run(strings.SplitN(c.cause, ":", 2)[0], func(t *testing.T) {
			checkCause(t, renderCorpusLog(t, c.log, c.width, c.tools), c)
		})
	}
}

// TestCorpusWidths renders every log of the corpus at the widths
// the causes were measured at, tools collapsed and expanded, and checks
// that no row is wider than the width or holds a control character.
func TestCorpusWidths(t *testing.T) {
	if _, err := os.Stat(corpusLogs); err != nil {
		t.Skipf("the corpus is absent (%v)", err)
	}
	if testing.Short() {
		t.Skip("every corpus log at ten settings")
	}
	logs, _ := filepath.Glob(filepath.Join(corpusLogs, "*.jsonl"))
	for _, path := range logs {
		lg, err := load.Read(path, load.Options{})
		if err != nil {
			continue // a log the reader refuses is not rendered
		}
		tr := transcript.Project(lg.Events, transcript.Options{})
		for _, width := range []int{100, 80, 60, 40, 20} {
			for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded} {
				checkWidths(t, Render(tr, Settings{Width: width, Tools: tools}).Lines, width)
			}
		}
	}
}
