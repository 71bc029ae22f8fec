package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/membudget"
	"github.com/dshtest/dshtest/internal/repro/invariant"
)

var exampleLog = filepath.Join("..", "..", "..", "..", "sessionlog", "testdata", "example-session.jsonl")

// TestRunExitCodes runs the program in-process: 0 when everything held, 1
// for a failed check, 2 for usage errors and bad input.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"type\":\"turn/start\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		env  []string
		code int
		err  string // a substring of standard error
	}{
		{[]string{"check", exampleLog}, nil, ExitOK, ""},
		{[]string{"render", exampleLog, "--width", "44"}, nil, ExitOK, ""},
		{[]string{"history", exampleLog, "--max", "3"}, nil, ExitOK, ""},
		{[]string{"repro", exampleLog, "--size", "80x24"}, nil, ExitOK, ""},
		{[]string{"repro", exampleLog, "--size", "80x24"}, []string{"DSHTEST_PROJECTOR=surface"}, ExitFail, ""},
		{[]string{"check", filepath.Join(dir, "missing.jsonl")}, nil, ExitUsage, "missing.jsonl: no such file or directory"},
		{[]string{"check", bad}, nil, ExitUsage, "bad.jsonl:1: malformed JSON"},
		{[]string{"render", exampleLog, "--width", "0"}, nil, ExitUsage, "--width 0"},
		{[]string{"render"}, nil, ExitUsage, "accepts 1 arg(s)"},
		{[]string{"nope"}, nil, ExitUsage, `unknown command "nope"`},
		{[]string{"record"}, []string{"CI=true"}, ExitUsage, "refuses to run when CI is set"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(tt.args, strings.NewReader(""), &stdout, &stderr, tt.env)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.err) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.err)
			}
			if tt.code == ExitUsage && strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("stderr is not one line: %q", stderr.String())
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"two\nlines", `two\nlines`},
		{"esc \x1b[31m and \u009b", `esc \x1b[31m and \x9b`},
		{"invalid \xff byte", `invalid \xff byte`},
		{"tab\there", "tab here"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := oneLine(strings.Repeat("é", 5000))
	if n := len(long); n > 420 || strings.Contains(long, "\n") || !strings.Contains(long, " … ") {
		t.Errorf("a long message is not shortened: %d bytes", n)
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want invariant.Size
		ok   bool
	}{
		{"80x24", invariant.Size{W: 80, H: 24}, true},
		{"44X18", invariant.Size{W: 44, H: 18}, true},
		{"0x24", invariant.Size{}, false},
		{"80", invariant.Size{}, false},
		{"80x", invariant.Size{}, false},
		{"axb", invariant.Size{}, false},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseSize(%q) = %v, %v", tt.in, got, err)
		}
	}
}

// TestChangeGrouping: the same edit at different rows of different
// fixtures groups as one change; a different edit does not.
func TestChangeGrouping(t *testing.T) {
	a := "0| <blank>\n1| \"You\"\n2| \"hi\"\n"
	b := "0| <blank>\n1| <blank>\n1| \"You\"\n2| \"hi\"\n"
	edit := func(s string) string { return strings.Replace(s, `"You"`, `"Yuo"`, 1) }
	d1, d2 := suitedir.CompactDiff(a, edit(a)), suitedir.CompactDiff(b, edit(b))
	if d1 == "" || d2 == "" {
		t.Fatal("no diff")
	}
	if changeKey(d1) != changeKey(d2) {
		t.Errorf("same edit, different keys:\n%s\n---\n%s", d1, d2)
	}
	if d3 := suitedir.CompactDiff(a, strings.Replace(a, "hi", "ho", 1)); changeKey(d3) == changeKey(d1) {
		t.Error("different edits share a key")
	}
	var w bytes.Buffer
	printChanges(&w, suitedir.InFixtures, []string{"a.screen", "b.screen"},
		suitedir.Tree{"a.screen": []byte(a), "b.screen": []byte(b)},
		suitedir.Tree{"a.screen": []byte(edit(a)), "b.screen": []byte(edit(b))})
	if !strings.Contains(w.String(), "changed   2 fixtures: same change in fixtures/a.screen, fixtures/b.screen") {
		t.Errorf("not grouped:\n%s", w.String())
	}
}

// ev builds an event for the invariant tests.
func TestBadInputEverywhere(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(exampleLog)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	garbage := make([]byte, 2048)
	for i := range garbage {
		garbage[i] = byte(i*7919 + 13)
	}
	last := lines[len(lines)-2] // the final event line (the split leaves "" last)
	torn := strings.Join(lines[:len(lines)-2], "") + last[:len(last)/2]
	badOp := strings.Join(lines[:2], "") + strings.Replace(lines[2], `"surfaceOp":"append"`, `"surfaceOp":7`, 1)
	inputs := []struct {
		name, content string
		pos           string // the file:line prefix, "" when the file is missing
		torn          bool
	}{
		{"missing.jsonl", "", "", false},
		{"empty.jsonl", "", ":1: empty log", false},
		{"malformed.jsonl", strings.Join(lines[:2], "") + "{\"type\":\n", ":3: malformed JSON", false},
		{"badop.jsonl", badOp, ":3: session event \"user/message\" carries an invalid surfaceOp (seq 2)", false},
		{"torn.jsonl", torn, ":41: truncated last line", true},
		{"big.jsonl", strings.Join(lines[:3], "") + strings.Repeat("z", 1<<20) + "\n", ":4: malformed JSON", false},
		{"garbage.bin", string(garbage), ":1: malformed JSON", false},
	}
	commands := [][]string{
		{"check", "FILE"},
		{"check", "FILE", "--json"},
		{"render", "FILE"},
		{"render", "FILE", "--projection", "surface"},
		{"history", "FILE", "--max", "2"},
		{"view", "FILE"},
		{"repro", "FILE", "--size", "40x10"},
		{"repro", "FILE", "--emit", filepath.Join(dir, "out.txtar")},
		{"repro", "FILE", "--minimize", "no-lost-message", "--out", filepath.Join(dir, "small.jsonl")},
	}
	for _, in := range inputs {
		path := filepath.Join(dir, in.name)
		if in.name != "missing.jsonl" {
			write(in.name, in.content)
		}
		for _, c := range commands {
			args := make([]string, len(c))
			for i, a := range c {
				args[i] = strings.ReplaceAll(a, "FILE", path)
			}
			t.Run(in.name+" "+strings.Join(c, " "), func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				code := Run(args, strings.NewReader(""), &stdout, &stderr, nil)
				for _, f := range []string{"out.txtar", "small.jsonl"} {
					if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
						os.Remove(filepath.Join(dir, f))
						if !in.torn {
							t.Errorf("%s written", f)
						}
					}
				}
				if in.torn {
					// Every command reads a torn log's valid prefix, with
					// the same warning (view then needs a terminal).
					wantCode := ExitOK
					if c[0] == "view" {
						wantCode = ExitUsage
					}
					if code != wantCode || !strings.HasPrefix(stderr.String(), "dshtest: warning: "+path+":41: truncated last line") {
						t.Errorf("exit %d, stderr %q; want %d and a warning", code, stderr.String(), wantCode)
					}
					return
				}
				if code != ExitUsage {
					t.Errorf("exit %d, want %d", code, ExitUsage)
				}
				want := "dshtest: " + path + in.pos
				if in.pos == "" {
					want += ": no such file or directory"
				}
				if got := stderr.String(); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
					t.Errorf("stderr %q, want one line starting %q", got, want)
				}
				if stdout.Len() > 0 && !(len(c) > 2 && c[2] == "--json") {
					t.Errorf("stdout %q", stdout.String())
				}
			})
		}
	}
}

// TestMemoryBudget: a command's budget is its factor times the text read
// (at least 64 MiB), less its reserve and a thirty-second; it grows with
// the text and never shrinks, is restored when the command ends, and
// GOMEMLIMIT, when set, is left to decide.
func TestMemoryBudget(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	for _, tt := range []struct {
		env    map[string]string
		budget membudget.Spec
		text   []int64 // the text read, step by step
		want   int64
	}{
		{nil, reproBudget, nil, 64<<20 - 12<<20 - 2<<20},
		{nil, reproBudget, []int64{1 << 20}, 64<<20 - 12<<20 - 2<<20},
		{nil, reproBudget, []int64{1 << 20, 1 << 30}, 2<<30 - 12<<20 - 2<<30/32},
		{nil, readBudget, []int64{1 << 30, 1 << 20}, 2<<30 - 12<<20 - 2<<30/32}, // never lowered
		{nil, viewBudget, nil, 64<<20 - 16<<20 - 2<<20},
		{nil, viewBudget, []int64{1 << 30}, 2<<30 - 16<<20 - 2<<30/32},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, readBudget, []int64{1 << 30}, before},
	} {
		a := &app{env: tt.env}
		b := a.startBudget(tt.budget)
		for _, n := range tt.text {
			b.Grow(n)
		}
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("env %v, budget %+v, text %v: limit %d, want %d", tt.env, tt.budget, tt.text, got, tt.want)
		}
		if a.restore != nil {
			a.restore()
		}
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Errorf("env %v: limit %d after restore, want %d", tt.env, got, before)
		}
	}
}

// TestSpendBudget: a spent budget turns the collector's pacing off (the
// limit alone paces it) until the command ends, unless GOGC is set or the
// budget is off (GOMEMLIMIT set): then no limit would pace it.
func TestSpendBudget(t *testing.T) {
	gcBefore := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gcBefore)
	for _, tt := range []struct {
		env  map[string]string
		want int
	}{
		{nil, -1},
		{map[string]string{"GOGC": "200"}, 100},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, 100},
	} {
		a := &app{env: tt.env}
		a.spendBudget(a.startBudget(reproBudget))
		if got := debug.SetGCPercent(-1); got != tt.want {
			t.Errorf("env %v: GC percent %d while the command runs, want %d", tt.env, got, tt.want)
		}
		debug.SetGCPercent(tt.want)
		if a.restore != nil {
			a.restore()
		}
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("env %v: GC percent %d after the command, want 100", tt.env, got)
		}
	}
}
