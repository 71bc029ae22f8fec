package terminal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal/cards"
)

// probe is upstream's untrusted-text probe: ESC ] 2 ; … BEL TAB DEL U+009B 31m.
const probe = "\x1b]2;snapshot-controlled\x07\t\x7f\u009b31m"

// staticBash is upstream's static bash presenter of the compaction and
// advanced-card scenarios (terminal.md §10.1).
func staticBash() *cards.Presenters {
	return cards.DefaultPresenters().With("bash", staticBashPresenter)
}

func staticBashPresenter(c cards.ToolCall) cards.CardView {
	v := &cards.TerminalView{Title: "pnpm run test:coverage", Description: "Run the coverage gate",
		Cwd: "/workspace/project"}
	if c.HasResult {
		zero := 0
		v.Output = "packages/ui/tui 100%\n4016 tests passed\n1 test skipped\ncoverage complete"
		v.ExitCode = &zero
	}
	return cards.CardView{Terminal: v}
}

// readLog reads a JSONL log.
func readLog(t testing.TB, path string) []sessionlog.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := jsonl.ReadLog(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return lg.Events
}

// upstreamRows parses an upstream snapshot and returns rows from..to.
func upstreamRows(t *testing.T, name string, from, to int) []screen.Row {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "upstream", name+".expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := screen.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s.Range(from, to)
}

// compareRows compares decoded rows with upstream rows (text, trailing
// spaces included, and style runs). known lists rows (by index into want)
// expected to differ, with the reason; they must differ.
func compareRows(t *testing.T, got, want []screen.Row, known map[int]string) {
	t.Helper()
	n := max(len(got), len(want))
	for i := range n {
		var g, w screen.Row
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		same := g.Text == w.Text && fmt.Sprint(g.Runs) == fmt.Sprint(w.Runs)
		reason, isKnown := known[i]
		switch {
		case !same && !isKnown:
			t.Errorf("row %d:\n got %q %v\nwant %q %v", i, g.Text, g.Runs, w.Text, w.Runs)
		case same && isKnown:
			t.Errorf("row %d: expected a known difference (%s), got equal rows", i, reason)
		}
	}
}

// checkWidths fails if any row is wider than width cells.
func checkWidths(t *testing.T, lines []string, width int) {
	t.Helper()
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("row %d is %d cells wide, more than %d: %q", i, w, width, l)
		}
		if strings.ContainsAny(ansi.Strip(l), "\x1b\r\n\t\a") {
			t.Errorf("row %d contains a control character: %q", i, l)
		}
	}
}

// lineDiffText renders a line diff of two row lists for failure messages.
func lineDiffText(a, b []string) string {
	var sb strings.Builder
	n := max(len(a), len(b))
	for i := range n {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			fmt.Fprintf(&sb, "row %d:\n  - %q\n  + %q\n", i, x, y)
		}
	}
	if len(a) != len(b) {
		fmt.Fprintf(&sb, "lengths %d vs %d\n", len(a), len(b))
	}
	return sb.String()
}

func ms(s string) int64 {
	tm, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return tm.UnixMilli()
}
