package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness"
)

// suiteFolder lays out a team's scenario folder with the given scenarios,
// records them, and returns the folder.
func suiteFolder(t *testing.T, scenarios map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"scenarios", "fixtures"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range scenarios {
		if err := os.WriteFile(filepath.Join(dir, "scenarios", name+".txtar"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := Run([]string{"record", "--dir", dir}, strings.NewReader(""), &out, &errb, nil); code != ExitOK {
		t.Fatalf("record: exit %d\n%s%s", code, out.String(), errb.String())
	}
	return dir
}

func editScenario(t *testing.T, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, "scenarios", name+".txtar")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

var ciScenarios = map[string]string{
	"alpha": "# Two snapshots.\nuser 'Alpha text'\nmount 30 6\nsnapshot alpha-a\nresize 30 8\nsnapshot alpha-b\n",
	"beta":  "# One snapshot.\nuser 'Beta text'\nmount 30 6\nsnapshot beta\n",
	"gamma": "# Passes.\nuser 'Gamma text'\nmount 30 6\nsnapshot gamma\n",
}

// breakTwo changes alpha's text (both its snapshots differ) and breaks a
// step of beta (line 3).
func breakTwo(t *testing.T, dir string) {
	editScenario(t, dir, "alpha", "Alpha text", "Alpha words")
	editScenario(t, dir, "beta", "mount 30 6", "mount 30")
}

// TestJUnit: the report parses as XML, one test case per scenario, with
// the right failure count, one <failure> per failed case, and every
// snapshot's diff in it.
func TestJUnit(t *testing.T) {
	dir := suiteFolder(t, ciScenarios)
	breakTwo(t, dir)
	report := filepath.Join(t.TempDir(), "junit.xml")
	var out, errb bytes.Buffer
	if code := Run([]string{"run", "--dir", dir, "--junit", report}, strings.NewReader(""), &out, &errb, nil); code != ExitFail {
		t.Fatalf("run: exit %d, want 1\n%s", code, errb.String())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name     string `xml:"name,attr"`
				File     string `xml:"file,attr"`
				Failures []struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, data)
	}
	if doc.Tests != 3 || doc.Failures != 2 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 3 {
		t.Fatalf("tests=%d failures=%d suites=%d; want 3 test cases, 2 failures\n%s", doc.Tests, doc.Failures, len(doc.Suites), data)
	}
	cases := doc.Suites[0].Cases
	// One <failure> per failed case, whatever number of snapshots failed
	// in it: reporters show one.
	if cases[0].Name != "alpha" || len(cases[0].Failures) != 1 || len(cases[1].Failures) != 1 || len(cases[2].Failures) != 0 {
		t.Fatalf("cases = %+v", cases)
	}
	f := cases[0].Failures[0]
	if !strings.HasPrefix(f.Message, "scenarios/alpha.txtar:4: fixtures/alpha-a.screen") || !strings.HasSuffix(f.Message, " (and 1 more failure)") {
		t.Errorf("alpha's failure message = %q", f.Message)
	}
	// Both snapshots' places and diffs, in order, in its text.
	a, b := strings.Index(f.Text, "scenarios/alpha.txtar:4: fixtures/alpha-a.screen"), strings.Index(f.Text, "scenarios/alpha.txtar:6: fixtures/alpha-b.screen")
	if a < 0 || b < a || strings.Count(f.Text, `-"Alpha text`) != 2 || strings.Count(f.Text, `+"Alpha words`) != 2 {
		t.Errorf("alpha's failure text lacks a snapshot's place or diff:\n%s", f.Text)
	}
	if f := cases[1].Failures[0]; !strings.HasPrefix(f.Message, "scenarios/beta.txtar:3: ") {
		t.Errorf("beta's failure = %+v", f)
	}
}

// TestGitHubAnnotations: one ::error line per failure, naming the
// scenario file and line.
func TestGitHubAnnotations(t *testing.T) {
	dir := suiteFolder(t, ciScenarios)
	breakTwo(t, dir)
	var out, errb bytes.Buffer
	if code := Run([]string{"run", "--dir", dir, "--github"}, strings.NewReader(""), &out, &errb, nil); code != ExitFail {
		t.Fatalf("run: exit %d\n%s", code, errb.String())
	}
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "::") {
			lines = append(lines, l)
		}
	}
	want := []*regexp.Regexp{
		regexp.MustCompile(`^::error file=scenarios/alpha\.txtar,line=4,title=alpha%3A fixtures/alpha-a\.screen::fixtures/alpha-a\.screen: the screen differs .*%0A.*-"Alpha text`),
		regexp.MustCompile(`^::error file=scenarios/alpha\.txtar,line=6,title=alpha%3A fixtures/alpha-b\.screen::`),
		regexp.MustCompile(`^::error file=scenarios/beta\.txtar,line=3,title=beta::`),
	}
	if len(lines) != len(want) {
		t.Fatalf("%d annotations, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("annotation %d = %q; want %v", i, lines[i], re)
		}
	}
	// A suite in a folder of the repository: GitHub reads a file from the
	// repository's root (the workflow's $GITHUB_WORKSPACE).
	out.Reset()
	env := []string{"GITHUB_WORKSPACE=" + filepath.Dir(dir)}
	Run([]string{"run", "--dir", dir, "--github"}, strings.NewReader(""), &out, &errb, env)
	if want := "::error file=" + filepath.Base(dir) + "/scenarios/alpha.txtar,line=4,"; !strings.Contains(out.String(), want) {
		t.Errorf("in a folder, no %q in:\n%s", want, out.String())
	}
}

// TestRunJSONFailures: run --json failures carry file, line, fixture and
// diff fields.
func TestRunJSONFailures(t *testing.T) {
	dir := suiteFolder(t, ciScenarios)
	breakTwo(t, dir)
	var out, errb bytes.Buffer
	Run([]string{"run", "--dir", dir, "--json", "alpha"}, strings.NewReader(""), &out, &errb, nil)
	line, _, _ := strings.Cut(out.String(), "\n")
	var o struct {
		Status   string
		Failures []harness.Failure
	}
	if err := json.Unmarshal([]byte(line), &o); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	if o.Status != "fail" || len(o.Failures) != 2 {
		t.Fatalf("%+v", o)
	}
	f := o.Failures[1]
	if f.File != "scenarios/alpha.txtar" || f.Line != 6 || f.Fixture != "fixtures/alpha-b.screen" ||
		!strings.Contains(f.Diff, `+"Alpha words`) || f.Pending != "fixtures/alpha-b.screen.new" {
		t.Errorf("failure = %+v", f)
	}
}

// TestHostileScenarioName: a scenario file name holding a newline, ESC and
// U+202E reaches no output raw: no annotation line of its own from
// --github, nothing raw in the progress lines or in the JUnit report.
func TestHostileScenarioName(t *testing.T) {
	name := "inj\n::warning title=INJ::x\x1b[2J\u202e"
	dir := t.TempDir() // not suiteFolder: nothing to record, the scenario fails a step
	for _, sub := range []string{"scenarios", "fixtures"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
	}
	if err := os.WriteFile(filepath.Join(dir, "scenarios", name+".txtar"), []byte("# Fails.\nuser 'x'\nmount 30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "junit.xml")
	var out, errb bytes.Buffer
	code := Run([]string{"run", "--dir", dir, "--github", "--junit", report}, strings.NewReader(""), &out, &errb, nil)
	if code != ExitFail {
		t.Fatalf("run: exit %d\n%s", code, errb.String())
	}
	junit, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"stdout": out.String(), "stderr": errb.String(), "junit": string(junit)} {
		if strings.ContainsAny(text, "\x1b\u202e") {
			t.Errorf("%s holds a raw ESC or U+202E:\n%q", what, text)
		}
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "::warning") {
				t.Errorf("%s has an injected annotation line: %q", what, l)
			}
		}
	}
}

// TestHostileNamesInText: a file name holding a newline and ESC (a
// scenario's, a stray fixture's) is escaped wherever run's text output
// quotes it, the failure text and the closed fixture inventory too: the
// newline shows as \x0a, so no line of stdout, indented or not, is the
// name's injected annotation.
func TestHostileNamesInText(t *testing.T) {
	const evil = "evil\n::warning file=x::INJECTED\x1b[2J"
	const shown = `evil\x0a::warning file=x::INJECTED\x1b[2J`
	tests := []struct {
		name  string
		files map[string]string // relative to the folder, added after recording
		want  []string          // lines of stdout, leading spaces trimmed
	}{
		{"scenario failing a step", map[string]string{"scenarios/" + evil + ".txtar": "# Fails.\nuser 'x'\nmount 30\n"},
			[]string{"FAIL: scenarios/" + shown + ".txtar:3: usage: mount W H"}},
		{"scenario taking another's fixture", map[string]string{"scenarios/" + evil + ".txtar": "# Takes gamma.\nuser 'Gamma text'\nmount 30 6\nsnapshot gamma\n"},
			[]string{"--- FAIL: closed fixture inventory", "fixtures/gamma.screen: snapshotted 2 times (by " + shown + ", gamma); each fixture belongs to exactly one snapshot step: rename all but one"}},
		{"stray fixture", map[string]string{"fixtures/" + evil + ".screen": "x\n"},
			[]string{"--- FAIL: closed fixture inventory", `fixtures/` + shown + `.screen: orphan fixture: no scenario snapshots "evil\n::warning file=x::INJECTED\x1b[2J"; delete it (dshtest record --prune deletes every orphan) or add a snapshot step`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := suiteFolder(t, map[string]string{"gamma": ciScenarios["gamma"]})
			for f, src := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), []byte(src), 0o644); err != nil {
					t.Skipf("no such file name here: %v", err)
				}
			}
			var out, errb bytes.Buffer
			if code := Run([]string{"run", "--dir", dir, "--github"}, strings.NewReader(""), &out, &errb, nil); code != ExitFail {
				t.Fatalf("run: exit %d\n%s%s", code, out.String(), errb.String())
			}
			if strings.Contains(out.String(), "\x1b") {
				t.Errorf("stdout holds a raw ESC:\n%q", out.String())
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(out.String(), "\n") {
				l = strings.TrimLeft(l, " ")
				lines[l] = true
				if strings.HasPrefix(l, "::warning") {
					t.Errorf("a line of stdout is the name's annotation: %q", l)
				}
			}
			for _, w := range tt.want {
				if !lines[w] {
					t.Errorf("stdout lacks the line %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestTextEscaper: run's text escaper is display.Escape (line breaks kept)
// but for a name holding a newline, which it spells on one line, the
// longest name first.
func TestTextEscaper(t *testing.T) {
	tests := []struct {
		names []string
		in    string
		want  string
	}{
		{nil, "a\nb\x1b\u202e", "a\nb\\x1b\\u202e"},
		{[]string{"plain", "x\x1by"}, "plain\nx\x1by", "plain\nx\\x1by"},
		{[]string{"a\nb"}, "FAIL: a\nb.txtar\nnext", "FAIL: a\\x0ab.txtar\nnext"},
		{[]string{"a\nb", "a\nb\nc"}, "(by a\nb\nc, a\nb)\n", "(by a\\x0ab\\x0ac, a\\x0ab)\n"},
	}
	for _, tt := range tests {
		if got := textEscaper(tt.names)(tt.in); got != tt.want {
			t.Errorf("textEscaper(%q)(%q) = %q, want %q", tt.names, tt.in, got, tt.want)
		}
	}
}

// TestHostileFixtureText: a crafted fixture holding raw U+202E, U+2066,
// U+0085, ESC and BEL (a fixture is input too) reaches none of run's
// outputs raw: the plain progress and diff, --json, --github and JUnit.
func TestHostileFixtureText(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"scenarios", "fixtures"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
	}
	repo := filepath.Join("..", "..", "..", "..")
	copyFile := func(from, to string, edit func([]byte) []byte) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, edit(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	same := func(b []byte) []byte { return b }
	copyFile(filepath.Join(repo, "scenarios", "context-cards.txtar"), filepath.Join(dir, "scenarios", "context-cards.txtar"), same)
	copyFile(filepath.Join(repo, "fixtures", "context-cards-expanded.screen"), filepath.Join(dir, "fixtures", "context-cards-expanded.screen"), same)
	copyFile(filepath.Join(repo, "fixtures", "context-cards.screen"), filepath.Join(dir, "fixtures", "context-cards.screen"), func(b []byte) []byte {
		out := bytes.Replace(b, []byte(`"# Project rules`), []byte("\"# Pro\u202e\u2066\u0085\x1b]0;PWNED\x07ject rules"), 1)
		if bytes.Equal(out, b) {
			t.Fatal("the fixture has no line to craft")
		}
		return out
	})
	const raw = "\u202e\u2066\u0085\x1b\x07"
	for _, mode := range []string{"plain", "--json", "--github", "--junit"} {
		t.Run(mode, func(t *testing.T) {
			args := []string{"run", "--dir", dir}
			report := filepath.Join(t.TempDir(), "junit.xml")
			switch mode {
			case "--junit":
				args = append(args, "--junit", report)
			case "--json", "--github":
				args = append(args, mode)
			}
			var out, errb bytes.Buffer
			code := Run(args, strings.NewReader(""), &out, &errb, nil)
			if code == ExitOK {
				t.Fatalf("run passed a crafted fixture\n%s", out.String())
			}
			texts := map[string]string{"stdout": out.String(), "stderr": errb.String()}
			if mode == "--junit" {
				junit, err := os.ReadFile(report)
				if err != nil {
					t.Fatal(err)
				}
				texts["junit"] = string(junit)
			}
			for what, text := range texts {
				if strings.ContainsAny(text, raw) {
					t.Errorf("%s holds a raw BiDi, C1 or control character:\n%q", what, text)
				}
			}
		})
	}
}

// TestHintNamesDir: a run given its suite with --dir suggests commands
// that name it too, so that they work pasted where run was run.
func TestHintNamesDir(t *testing.T) {
	dir := suiteFolder(t, ciScenarios)
	breakTwo(t, dir)
	var out, errb bytes.Buffer
	Run([]string{"run", "--dir", dir, "alpha"}, strings.NewReader(""), &out, &errb, nil)
	for _, want := range []string{"dshtest review --dir " + dir + " alpha-a", "dshtest accept --dir " + dir + " alpha-a"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}
