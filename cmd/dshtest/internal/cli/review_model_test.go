package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/cli"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/review"
)

// programOptions pins what Bubble Tea would otherwise detect.
var programOptions = teatest.WithProgramOptions(
	tea.WithColorProfile(colorprofile.ANSI),
	tea.WithEnvironment([]string{"TERM=xterm-256color"}),
)

const trio = `# One prompt at three sizes.
user 'Hello there'
mount 30 6
snapshot trio-a
resize 30 8
snapshot trio-b
resize 24 8
snapshot trio-c
`

func dshtest(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(args, strings.NewReader(""), &out, &errb, nil)
	return out.String() + errb.String(), code
}

// pendingFolder is a scenario folder whose three snapshots all have
// pending screens.
func pendingFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"scenarios", "fixtures"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	scen := filepath.Join(dir, "scenarios", "trio.txtar")
	if err := os.WriteFile(scen, []byte(trio), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := dshtest(t, "record", "--dir", dir); code != 0 {
		t.Fatalf("record: %d\n%s", code, out)
	}
	if err := os.WriteFile(scen, []byte(strings.Replace(trio, "Hello there", "Hello world", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := dshtest(t, "run", "--dir", dir); code != 1 || strings.Count(out, "the screen differs") != 3 {
		t.Fatalf("run: %d\n%s", code, out)
	}
	return dir
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var (
	keyA = tea.KeyPressMsg{Code: 'a', Text: "a"}
	keyR = tea.KeyPressMsg{Code: 'r', Text: "r"}
	keyS = tea.KeyPressMsg{Code: 's', Text: "s"}
)

// TestReviewDecides drives review under teatest: accept the first pending
// screen, reject the second, skip the third; the files end as decided.
func TestReviewDecides(t *testing.T) {
	dir := pendingFolder(t)
	fx := func(n string) string { return filepath.Join(dir, "fixtures", n+".screen") }
	before := map[string][]byte{}
	for _, n := range []string{"trio-a", "trio-b", "trio-c"} {
		before[n] = read(t, fx(n))
		before[n+".new"] = read(t, fx(n)+".new")
	}
	m, err := cli.Review(dir, "", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30), programOptions)
	tm.Send(keyA)
	tm.Send(keyR)
	tm.Send(keyS)
	final := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(*review.Model)

	want := []review.Decision{review.Accepted, review.Rejected, review.Skipped}
	for i, d := range final.Decisions() {
		if d != want[i] {
			t.Errorf("decision %d = %v, want %v", i, d, want[i])
		}
	}
	if got := read(t, fx("trio-a")); !bytes.Equal(got, before["trio-a.new"]) {
		t.Error("trio-a: accepted, but the fixture is not the pending screen")
	}
	if _, err := os.Stat(fx("trio-a") + ".new"); !os.IsNotExist(err) {
		t.Error("trio-a: the pending screen is still there after accepting")
	}
	if got := read(t, fx("trio-b")); !bytes.Equal(got, before["trio-b"]) {
		t.Error("trio-b: rejected, but the fixture changed")
	}
	if _, err := os.Stat(fx("trio-b") + ".new"); !os.IsNotExist(err) {
		t.Error("trio-b: the pending screen is still there after rejecting")
	}
	if got := read(t, fx("trio-c")); !bytes.Equal(got, before["trio-c"]) {
		t.Error("trio-c: skipped, but the fixture changed")
	}
	if got := read(t, fx("trio-c")+".new"); !bytes.Equal(got, before["trio-c.new"]) {
		t.Error("trio-c: skipped, but the pending screen changed")
	}
}

// TestReviewScreen checks what the viewer draws, as decoded cells: the
// recorded and new screens side by side on a wide terminal, stacked on a
// narrow one, the changed cells highlighted, and the document on d.
func TestReviewScreen(t *testing.T) {
	dir := pendingFolder(t)
	m, err := cli.Review(dir, "trio-a", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	rows := screen.Decode(m.Screen())
	if !strings.HasPrefix(rows[0].Text, "review 1/1 · fixtures/trio-a.screen (trio) · screen · ") {
		t.Errorf("header = %q", rows[0].Text)
	}
	if !strings.HasPrefix(rows[1].Text, "recorded ") || !strings.Contains(rows[1].Text, " │ new") {
		t.Errorf("not side by side: %q", rows[1].Text)
	}
	// The prompt row: "Hello there" on the left, "Hello world" on the
	// right, with the changed cells (the "wor…" of world) highlighted.
	found := false
	for _, r := range rows {
		if strings.Contains(r.Text, "Hello world") && strings.HasPrefix(r.Text, "Hello there") {
			found = true
			col := 30 + 3 + len("Hello ") // the w of world (" │ " is three cells)
			hl := false
			for _, run := range r.Runs {
				if run.Start <= col && col <= run.End && strings.Contains(run.Labels, "bg=bright-black") {
					hl = true
				}
			}
			if !hl {
				t.Errorf("the changed cell at column %d is not highlighted: %+v", col, r.Runs)
			}
			for _, run := range r.Runs {
				if run.Start < 6 && strings.Contains(run.Labels, "bg=") {
					t.Errorf("an unchanged cell is highlighted: %+v", run)
				}
			}
		}
	}
	if !found {
		t.Errorf("no row shows both prompts:\n%s", texts(rows))
	}

	// Narrow: one above the other.
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 40})
	rows = screen.Decode(m.Screen())
	if rows[1].TrimRight() != "recorded" {
		t.Errorf("narrow: row 1 = %q, want recorded", rows[1].Text)
	}
	newAt := -1
	for i, r := range rows {
		if r.TrimRight() == "new" {
			newAt = i
		}
	}
	if newAt < 8 {
		t.Errorf("narrow: the new screen is not below the recorded one:\n%s", texts(rows))
	}

	// d shows the document section.
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(tea.KeyPressMsg{Code: 'd', Text: "d"})
	if rows = screen.Decode(m.Screen()); !strings.Contains(rows[0].Text, " · document · ") {
		t.Errorf("after d: header = %q", rows[0].Text)
	}
}

func texts(rows []screen.Row) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.Text + "\n")
	}
	return b.String()
}

// TestReviewKeys: n and p move between pending screens (wrapping), the
// scroll keys move the body, and q quits without deciding.
func TestReviewKeys(t *testing.T) {
	dir := pendingFolder(t)
	m, err := cli.Review(dir, "", 40, 12) // narrow and short: stacked, scrollable
	if err != nil {
		t.Fatal(err)
	}
	key := func(k tea.KeyPressMsg) tea.Cmd { _, cmd := m.Update(k); return cmd }
	header := func() string { return screen.Decode(m.Screen())[0].Text }
	for _, tc := range []struct {
		key  tea.KeyPressMsg
		want int
	}{
		{tea.KeyPressMsg{Code: 'n', Text: "n"}, 1},
		{tea.KeyPressMsg{Code: 'n', Text: "n"}, 2},
		{tea.KeyPressMsg{Code: 'n', Text: "n"}, 0},
		{tea.KeyPressMsg{Code: 'p', Text: "p"}, 2},
	} {
		key(tc.key)
		if m.Current() != tc.want {
			t.Errorf("after %s: item %d, want %d", tc.key, m.Current(), tc.want)
		}
	}
	if !strings.HasPrefix(header(), "review 3/3 · fixtures/trio-c.screen") {
		t.Errorf("header = %q", header())
	}
	body := func() string { return screen.Decode(m.Screen())[1].TrimRight() }
	if body() != "recorded" {
		t.Errorf("first body row = %q, want recorded", body())
	}
	key(tea.KeyPressMsg{Code: tea.KeyPgDown})
	if body() == "recorded" {
		t.Error("PgDn did not scroll")
	}
	key(tea.KeyPressMsg{Code: tea.KeyHome})
	if body() != "recorded" {
		t.Errorf("Home: first body row = %q", body())
	}
	key(tea.KeyPressMsg{Code: tea.KeyEnd})
	if got := screen.Decode(m.Screen())[9].TrimRight(); got == "" {
		t.Error("End: the last body row is empty, want the new screen's end")
	}
	if cmd := key(tea.KeyPressMsg{Code: 'q', Text: "q"}); cmd == nil {
		t.Error("q did not quit")
	}
	for i, d := range m.Decisions() {
		if d != review.Undecided {
			t.Errorf("item %d decided %v without a decision key", i, d)
		}
	}
}
