package terminal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/transcript"
)

// cliSnapshots is upstream's CLI snapshot suite, real sessions with the
// screens upstream's terminal drew for them (reference/upstream-cli-snapshots),
// in the shared tree beside the repository root.
const cliSnapshots = "../../shared/reference/upstream-cli-snapshots"

// cliPair is one pair of the suite: which expected rows cannot derive from
// the stored log (presenters.md §4.2), and which of our rows stand for
// something the live run did not draw.
type cliPair struct {
	name string
	// skip maps expected row numbers to the §4.2 reason they are not
	// compared.
	skip map[int]string
	// extra reports our rows that the live run could not have drawn, with
	// the reason; they are left out of the comparison.
	extra func(row screen.Row) (string, bool)
}

var cliPairs = []cliPair{
	{name: "bash-terminal-card"},
	{name: "multi-turn-conversation", skip: map[int]string{
		6: "§4.2: spacer of the live /plan notice", 7: "§4.2: `Plan mode on.` is a live command notice",
		14: "§4.2: spacer of the live plan-mode context card", 15: "§4.2: live plan-mode context card (absent from the log)",
		16: "§4.2: live plan-mode context card body", 17: "§4.2: spacer of the live `Plan mode off.` notice",
		18: "§4.2: `Plan mode off.` is a live command notice",
	}},
	{name: "parallel-file-reads", skip: map[int]string{
		11: "§4.2: `1: alpha` comes from the live re-executed read, which carried meta",
		17: "§4.2: `1: beta` comes from the live re-executed read, which carried meta",
	}, extra: func(row screen.Row) (string, bool) {
		// The stored log has no read meta, so its replay shows the raw
		// envelope (presenters.md §2.2.2); the live screen's absence of
		// these rows is §4.2's "absence of the envelope rows".
		t := strings.TrimRight(row.Text, " ")
		for _, p := range []string{"<path>", "<type>", "<content>", "</content>", "1: alpha", "1: beta"} {
			if strings.HasPrefix(t, p) {
				return "§4.2: envelope row of the stored (meta-less) read result", true
			}
		}
		return "", false
	}},
}

// footerShape is a timing footer's text: compared by shape only, as the
// oracle's clock was frozen (presenters.md §0 item 3).
var footerShape = regexp.MustCompile(`^Model wait \d+(m\d\d)?\.\ds( · (Thinking|Response|Tools) \d+(m\d\d)?\.\ds)*( · Completed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d)? *$`)

// TestConformanceCLISnapshots reads the suite's raw logs, in upstream's
// older message shapes, through the one reading path (package reader:
// header rules, load-time upgrades, vocabulary, recovery), exactly as a
// user's log is read; renders them through the replay path with upstream's
// eager step rule, at the oracle's width and fold limit 8; and compares
// every transcript row that derives from the log with upstream's screen, in
// text and style runs. Timing footers are compared by shape; {{cwd}} reads
// as /workspace/project, as upstream's screen text does.
func TestConformanceCLISnapshots(t *testing.T) {
	if _, err := os.Stat(cliSnapshots); err != nil {
		t.Skipf("the shared reference is absent (%v): the upstream CLI snapshots are not checked", err)
	}
	for _, pair := range cliPairs {
		t.Run(pair.name, func(t *testing.T) {
			lg, err := load.Read(filepath.Join(cliSnapshots, pair.name, "session.jsonl"), load.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range lg.Warnings {
				t.Logf("reader: %s", w)
			}
			t.Logf("reader: %s form, %d events, %d upgraded, %d synthetic closers", lg.Form, len(lg.Events), lg.Upgraded, len(lg.Closers))
			for i := range lg.Events {
				lg.Events[i].Data = readCwd(lg.Events[i].Data)
			}
			exp, err := os.ReadFile(filepath.Join(cliSnapshots, pair.name, "terminal.expected.txt"))
			if err != nil {
				t.Fatal(err)
			}
			snap, err := screen.Parse(exp)
			if err != nil {
				t.Fatal(err)
			}
			width := 100
			tr := transcript.Project(lg.Events, transcript.Options{EagerSteps: true})
			doc := Render(tr, Settings{Width: width, MaxToolOutputLines: 8})
			checkWidths(t, doc.Lines, width)
			compareCLI(t, pair, screen.Decode(doc.Lines), transcriptRows(snap))
		})
	}
}

// readCwd reads the recorder's {{cwd}} placeholder in an event's payload as
// the working directory upstream's screen text shows. The replacement is
// plain JSON string text, so the payload stays valid.
func readCwd(data json.RawMessage) json.RawMessage {
	return bytes.ReplaceAll(data, []byte("{{cwd}}"), []byte("/workspace/project"))
}

// numberedRow is an expected row with its row number on upstream's screen.
type numberedRow struct {
	n   int
	row screen.Row
}

// transcriptRows is the transcript part of an upstream screen: from row 3
// (after the banner) to the blank row before the status line.
func transcriptRows(s *screen.Snapshot) []numberedRow {
	end := s.Last
	for n := 3; n <= s.Last; n++ {
		if strings.HasPrefix(s.Rows[n].Text, "/workspace/project  ") {
			end = n - 2
			break
		}
	}
	var out []numberedRow
	for n := 3; n <= end; n++ {
		out = append(out, numberedRow{n, s.Rows[n]})
	}
	return out
}

// compareCLI compares our rows with upstream's, leaving out the skipped and
// extra rows, and prints the row diff of every difference.
func compareCLI(t *testing.T, pair cliPair, got []screen.Row, want []numberedRow) {
	t.Helper()
	var g []screen.Row
	for _, r := range got {
		if pair.extra != nil {
			if reason, ok := pair.extra(r); ok {
				t.Logf("left out our row %q: %s", strings.TrimRight(r.Text, " "), reason)
				continue
			}
		}
		g = append(g, r)
	}
	var w []numberedRow
	for _, r := range want {
		if reason, ok := pair.skip[r.n]; ok {
			t.Logf("skipped upstream row %d %q: %s", r.n, strings.TrimRight(r.row.Text, " "), reason)
			continue
		}
		w = append(w, r)
	}
	t.Logf("%d rows compared, %d upstream rows skipped, %d of our rows left out", len(w), len(want)-len(w), len(got)-len(g))
	var diff strings.Builder
	for i := range max(len(g), len(w)) {
		var gr screen.Row
		var wr numberedRow
		wr.n = -1
		if i < len(g) {
			gr = g[i]
		}
		if i < len(w) {
			wr = w[i]
		}
		if sameCLIRow(gr, wr.row) {
			continue
		}
		fmt.Fprintf(&diff, "upstream row %d:\n  - %q %v\n  + %q %v\n", wr.n, wr.row.Text, wr.row.Runs, gr.Text, gr.Runs)
	}
	if diff.Len() > 0 {
		t.Errorf("rows differ (- upstream, + ours):\n%s", diff.String())
	}
}

// sameCLIRow compares two rows in text and style runs; two timing footers
// compare by shape: both match footerShape, both completed or neither, and
// ours is one dim run over its text.
func sameCLIRow(got, want screen.Row) bool {
	if footerShape.MatchString(want.Text) {
		gt := strings.TrimRight(got.Text, " ")
		return footerShape.MatchString(got.Text) &&
			strings.Contains(got.Text, "· Completed ") == strings.Contains(want.Text, "· Completed ") &&
			fmt.Sprint(got.Runs) == fmt.Sprint([]screen.Run{{Start: 0, End: len([]rune(gt)) - 1, Labels: "dim"}})
	}
	return got.Text == want.Text && fmt.Sprint(got.Runs) == fmt.Sprint(want.Runs)
}
