package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/cli"
	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/review"
)

// TestREADMEWalkthrough runs the commands of the README's walkthrough (from
// "## Walkthrough" up to "### Reproduce a user's log") in a fresh scenario
// folder and checks that each prints what the README shows.
//
// A block whose first line is "# scenarios/NAME.txtar" is written to that
// file, whole, as a reader who copies it writes it (its first line a
// comment), so the line numbers the README shows are the file's. In a
// block of "$ COMMAND" lines, the lines after a command are its
// output: a line "…" stands for any number of lines, and times (0.03s,
// (34ms)) match any time. dshtest commands run in-process with no CI in
// their environment; dshtest review drives the viewer at 100×24, compares
// its screen and presses a, as the README says; other commands run in sh.
func TestREADMEWalkthrough(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: the walkthrough commits and diffs with it")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "## Walkthrough")
	end := strings.Index(text, "### Reproduce a user's log")
	if start < 0 || end < start {
		t.Fatal("README has no walkthrough")
	}
	// An empty repository: the walkthrough's dshtest init makes the suite.
	dir := t.TempDir()
	t.Chdir(dir)
	sh(t, "git init -q")

	blocks := fencedBlocks(text[start:end])
	ran := map[string]bool{}
	for _, b := range blocks {
		if len(b) > 0 && strings.HasPrefix(b[0], "# scenarios/") {
			name := strings.TrimPrefix(b[0], "# ")
			if err := os.WriteFile(name, []byte(strings.Join(b, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if len(b) == 0 || !strings.HasPrefix(b[0], "$ ") {
			continue
		}
		for i := 0; i < len(b); {
			cmd := strings.TrimPrefix(b[i], "$ ")
			j := i + 1
			for j < len(b) && !strings.HasPrefix(b[j], "$ ") {
				j++
			}
			want := b[i+1 : j]
			i = j
			if c, _, ok := strings.Cut(cmd, "  #"); ok {
				cmd = strings.TrimSpace(c)
			}
			var got []string
			args := splitArgs(cmd)
			switch {
			case len(args) >= 2 && args[0] == "dshtest" && args[1] == "review":
				got = reviewAndAccept(t, dir, args[2:])
			case args[0] == "dshtest":
				var out, errb bytes.Buffer
				cli.Run(args[1:], strings.NewReader(""), &out, &errb, nil)
				got = lines(out.String() + errb.String())
			default:
				got = lines(sh(t, cmd))
			}
			if !matchLines(want, got) {
				t.Errorf("README: $ %s\nwant:\n%s\ngot:\n%s", cmd, strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			if len(args) > 1 {
				ran[args[0]+" "+args[1]] = true
			}
		}
	}
	for _, c := range []string{"dshtest init", "dshtest run", "dshtest record", "dshtest review", "dshtest accept", "git diff"} {
		if !ran[c] {
			t.Errorf("the walkthrough does not run %s", c)
		}
	}
}

// reviewAndAccept is "dshtest review ARGS" at 100×24: its screen, after
// which a is pressed and the screen must be accepted.
func reviewAndAccept(t *testing.T, dir string, args []string) []string {
	t.Helper()
	pattern := ""
	if len(args) > 0 {
		pattern = args[0]
	}
	m, err := cli.Review(dir, pattern, 100, 24)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range screen.Decode(m.Screen()) {
		got = append(got, r.TrimRight())
	}
	m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
	if d := m.Decisions(); len(d) != 1 || d[0] != review.Accepted {
		t.Errorf("review: pressing a gave %v, want accepted", d)
	}
	return got
}

func sh(t *testing.T, cmd string) string {
	t.Helper()
	c := exec.Command("sh", "-c", cmd)
	c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("$ %s: %v\n%s", cmd, err, out)
	}
	return string(out)
}

// fencedBlocks returns the lines of each ``` block of text.
func fencedBlocks(text string) [][]string {
	var out [][]string
	var cur []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			if in {
				out = append(out, cur)
				cur = nil
			}
			in = !in
			continue
		}
		if in {
			cur = append(cur, l)
		}
	}
	return out
}

// splitArgs splits a command line at spaces, keeping '…' quoted words.
func splitArgs(s string) []string {
	var out []string
	var b strings.Builder
	quoted, have := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, have = !quoted, true
		case r == ' ' && !quoted:
			if have {
				out = append(out, b.String())
				b.Reset()
				have = false
			}
		default:
			b.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, b.String())
	}
	return out
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	out := strings.Split(s, "\n")
	for i := range out {
		out[i] = strings.TrimRight(out[i], " ")
	}
	return out
}

var times = regexp.MustCompile(`\b[0-9]+\.[0-9]+s\b|\([0-9]+ms`)

func normal(l string) string {
	return times.ReplaceAllStringFunc(strings.TrimRight(l, " "), func(m string) string {
		if strings.HasPrefix(m, "(") {
			return "(Nms"
		}
		return "N.NNs"
	})
}

// matchLines matches got against want, where a want line "…" stands for
// any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && normal(want[0]) == normal(got[0]) && matchLines(want[1:], got[1:])
}

// verbRow is a row of docs/scenarios.md's verb tables:
// | [`VERB`](../harness/verb_FILE.go) | `SYNTAX`<br>`SYNTAX` | `EXAMPLE` |
var verbRow = regexp.MustCompile("^\\| \\[`([a-z-]+)`\\]\\(\\.\\./(harness/verb_[a-z_]+\\.go)\\) \\| (.+) \\| (.+) \\|$")

// codeSpan is one `…` of a table cell ("\|" stands for "|").
var codeSpan = regexp.MustCompile("`((?:[^`\\\\]|\\\\.)*)`")

// TestDocsVerbs holds docs/scenarios.md's verb tables to the generated
// verb help (harness.VerbHelp): one row per verb, linking the verb's file,
// whose syntax cell is the help's syntax lines and whose example is one of
// the help's example lines.
func TestDocsVerbs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	spans := func(cell string) []string {
		var out []string
		for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
			out = append(out, strings.ReplaceAll(m[1], `\|`, "|"))
		}
		return out
	}
	rows := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		m := verbRow.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		verb, file := m[1], m[2]
		if rows[verb] {
			t.Errorf("docs/scenarios.md: %s has two rows", verb)
		}
		rows[verb] = true
		help, ok := harness.VerbHelp(verb)
		if !ok {
			t.Errorf("docs/scenarios.md: %s is not a verb (dshtest verbs lists them)", verb)
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", file)); err != nil {
			t.Errorf("docs/scenarios.md: %s links %s: %v", verb, file, err)
		}
		syntax, _, _ := strings.Cut(help, "\n\n")
		if got := spans(m[3]); strings.Join(got, "\n") != syntax {
			t.Errorf("docs/scenarios.md: %s: syntax %q, the help says %q", verb, got, syntax)
		}
		examples := map[string]bool{}
		if _, ex, ok := strings.Cut(help, "    Example:\n"); ok {
			for _, e := range strings.Split(ex, "\n") {
				examples[strings.TrimSpace(e)] = true
			}
		}
		if got := spans(m[4]); len(got) != 1 || !examples[got[0]] {
			t.Errorf("docs/scenarios.md: %s: example %q is not one of the help's examples", verb, got)
		}
	}
	for _, v := range harness.Verbs() {
		if !rows[v] {
			t.Errorf("docs/scenarios.md has no row for the verb %s", v)
		}
	}
}
