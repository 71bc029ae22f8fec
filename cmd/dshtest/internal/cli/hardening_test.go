package cli

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHardeningRound2 pins the command-level rules of the second
// hardening round: a zip's member names are escaped in check's summary,
// numeric flags are bounded, the text cap names its flag, and run's
// outputs never replace a scenario or a fixture, nor become one.
func TestHardeningRound2(t *testing.T) {
	dir := t.TempDir()
	log := []byte(`{"type":"session","version":0,"id":"s1","createdAt":1700000000000,"cwd":"/w"}
{"type":"turn/start","seq":0,"time":0,"data":{"turn":1,"trigger":{"kind":"message","source":{"kind":"user"}}}}
{"type":"user/message","seq":1,"time":0,"data":{"content":[{"type":"text","text":"hi"}],"source":{"kind":"user"},"role":"user","id":"u1"},"surfaceOp":"append"}
{"type":"turn/end","seq":2,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}
`)
	logPath := filepath.Join(dir, "s.jsonl")
	os.WriteFile(logPath, log, 0o644)
	zipPath := filepath.Join(dir, "esc.zip")
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, name := range []string{"session.jsonl", "subagents/x\x1b]0;PWNED\x07\x1b[2J\u202e\u0085/session.jsonl"} {
		w, _ := zw.Create(name)
		w.Write(log)
	}
	zw.Close()
	os.WriteFile(zipPath, zb.Bytes(), 0o644)

	// run's suite: one scenario and its fixtures.
	root := filepath.Join(dir, "suite")
	for _, sub := range []string{"scenarios", "fixtures"} {
		os.MkdirAll(filepath.Join(root, sub), 0o755)
	}
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(to, b, 0o644)
	}
	repo := filepath.Join("..", "..", "..", "..")
	copyFile(filepath.Join(repo, "scenarios", "context-cards.txtar"), filepath.Join(root, "scenarios", "context-cards.txtar"))
	for _, f := range []string{"context-cards.screen", "context-cards-expanded.screen"} {
		copyFile(filepath.Join(repo, "fixtures", f), filepath.Join(root, "fixtures", f))
	}
	scenario := filepath.Join(root, "scenarios", "context-cards.txtar")
	fixture := filepath.Join(root, "fixtures", "context-cards.screen")
	newScenario := filepath.Join(root, "scenarios", "yy.txtar")
	newFixture := filepath.Join(root, "fixtures", "yy.screen")
	before, _ := os.ReadFile(scenario)
	beforeFixture, _ := os.ReadFile(fixture)

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a substring
		err    string // a substring of standard error
		never  string // never in stdout or stderr
	}{
		{"zip member names escaped", []string{"check", zipPath}, ExitOK, "subagents", "", "\x1b"},
		{"zip member names escaped (C1, BiDi)", []string{"check", zipPath}, ExitOK, `\u202e`, "", "\u202e"},
		{"history --max too large", []string{"history", exampleLog, "--max", "9223372036854775807"}, ExitUsage, "", "want 1 to 1000000 messages", "panic"},
		{"history --max 1e9", []string{"history", exampleLog, "--max", "1000000000"}, ExitUsage, "", "want 1 to 1000000 messages", ""},
		{"text cap names its flag", []string{"check", logPath, "--max-text-bytes", "300"}, ExitUsage, "", "text limit; --max-text-bytes 300 is the limit", ""},
		{"text cap positive", []string{"check", exampleLog, "--max-text-bytes", "0"}, ExitUsage, "", "--max-text-bytes 0: want a positive number", ""},
		{"--junit onto a scenario", []string{"run", "--dir", root, "--junit", scenario}, ExitUsage, "", "refusing to replace", ""},
		{"--report onto a fixture", []string{"run", "--dir", root, "--report", fixture}, ExitUsage, "", "an input of the run", ""},
		{"--junit onto a scenario by another name", []string{"run", "--dir", root, "--junit", filepath.Join(root, "scenarios", ".", "..", "scenarios", "context-cards.txtar")}, ExitUsage, "", "refusing to replace", ""},
		{"--junit as a new scenario", []string{"run", "--dir", root, "--junit", newScenario}, ExitUsage, "", "--junit " + newScenario + ": refusing to write an output where the next run would read it as a scenario of scenarios/", ""},
		{"--report as a new fixture", []string{"run", "--dir", root, "--report", newFixture}, ExitUsage, "", "--report " + newFixture + ": refusing to write an output where the next run would read it as a file of fixtures/", ""},
		{"--report as a new file of fixtures/", []string{"run", "--dir", root, "--report", filepath.Join(root, "fixtures", "report.html")}, ExitUsage, "", "would read it as a file of fixtures/", ""},
		{"report --html as a new fixture", []string{"report", "--dir", root, "--html", newFixture}, ExitUsage, "", "--html " + newFixture + ": refusing to write an output where the next run would read it as a file of fixtures/", ""},
		{"--junit as a new scenario by another name", []string{"run", "--dir", root, "--junit", root + "/fixtures/../scenarios/./yy.txtar"}, ExitUsage, "", "would read it as a scenario of scenarios/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(tt.args, strings.NewReader(""), &stdout, &stderr, nil)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.err) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.err)
			}
			if tt.never != "" && (strings.Contains(stdout.String(), tt.never) || strings.Contains(stderr.String(), tt.never)) {
				t.Errorf("output holds %q:\n%s%s", tt.never, stdout.String(), stderr.String())
			}
		})
	}
	after, _ := os.ReadFile(scenario)
	afterFixture, _ := os.ReadFile(fixture)
	if !bytes.Equal(before, after) || !bytes.Equal(beforeFixture, afterFixture) {
		t.Fatal("an output replaced an input")
	}
	for _, p := range []string{newScenario, newFixture, filepath.Join(root, "fixtures", "report.html")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("an output was written as an input: %s", p)
		}
	}
}

// contextCardsSuite copies the repository's context-cards scenario and
// its fixtures into a suite of its own, the fixture's line "Keep functions
// short." replaced by line.
func contextCardsSuite(t *testing.T, line string) string {
	repo := filepath.Join("..", "..", "..", "..")
	root := t.TempDir()
	for _, sub := range []string{"scenarios", "fixtures"} {
		os.MkdirAll(filepath.Join(root, sub), 0o755)
	}
	for _, f := range []string{"scenarios/context-cards.txtar", "fixtures/context-cards.screen", "fixtures/context-cards-expanded.screen"} {
		b, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "fixtures/context-cards.screen" {
			b = bytes.Replace(b, []byte("Keep functions short."), []byte(line), 1)
		}
		os.WriteFile(filepath.Join(root, f), b, 0o644)
	}
	return root
}

// TestRecordDiffEscaped: record's diff of a fixture is the fixture's text,
// input like a log: it goes through the one escaper as run's diff does, so
// a fixture holding BiDi, isolate or C1 characters (or an ESC) shows them
// as escapes, with --dry-run and without.
func TestRecordDiffEscaped(t *testing.T) {
	hostile := "Keep \u202efunctions\u2066 sh\u0085ort\x1b[2J."
	tests := []struct {
		name string
		args []string
		out  string // a line of stdout
	}{
		{"dry run", []string{"record", "context-cards", "--dry-run"}, `record: dry run: 0 created, 1 changed, 1 unchanged, 0 orphaned; nothing written`},
		{"record", []string{"record", "context-cards"}, `record: 0 created, 1 changed, 1 unchanged, 0 orphaned`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := contextCardsSuite(t, hostile)
			var stdout, stderr bytes.Buffer
			args := append(append([]string{}, tt.args...), "--dir", root)
			if code := Run(args, strings.NewReader(""), &stdout, &stderr, nil); code != ExitOK {
				t.Fatalf("exit %d; stderr: %s", code, stderr.String())
			}
			out := stdout.String()
			for _, want := range []string{`-"1. Keep \u202efunctions\u2066 sh\x85ort\x1b[2J.`, "\n" + tt.out + "\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			for _, raw := range []string{"\u202e", "\u2066", "\u0085", "\x1b"} {
				if strings.Contains(out+stderr.String(), raw) {
					t.Errorf("output holds %q raw:\n%s", raw, out)
				}
			}
		})
	}
}

// TestReportPathEscaped: the line naming the report's file (stderr of run
// --report, stdout of report --html) prints the user's path through the one
// escaper, as every path in a message is.
func TestReportPathEscaped(t *testing.T) {
	root := contextCardsSuite(t, "Keep functions long. ") // a failing run
	out := t.TempDir()
	report := filepath.Join(out, "r\x1b]0;T\x07\u202e.html")
	shown := filepath.Join(out, `r\x1b]0;T\x07\u202e.html`)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a line of stdout
		stderr string // a line of stderr
	}{
		{"run --report", []string{"run", "--dir", root, "--report", report}, ExitFail, "", "report: 1 changed fixture in " + shown},
		{"report --html", []string{"report", "--dir", root, "--html", report}, ExitOK, "report: 1 fixture in " + shown, ""},
	}
	for _, tt := range tests { // in order: the run leaves the pending screen report draws
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run(tt.args, strings.NewReader(""), &stdout, &stderr, nil); code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			for _, c := range []struct{ name, got, want string }{{"stdout", stdout.String(), tt.stdout}, {"stderr", stderr.String(), tt.stderr}} {
				if c.want != "" && !strings.Contains("\n"+c.got, "\n"+c.want+"\n") {
					t.Errorf("%s lacks the line %q:\n%s", c.name, c.want, c.got)
				}
				for _, raw := range []string{"\x1b", "\x07", "\u202e"} {
					if strings.Contains(c.got, raw) {
						t.Errorf("%s holds %q raw:\n%s", c.name, raw, c.got)
					}
				}
			}
			if _, err := os.Stat(report); err != nil {
				t.Errorf("no report written: %v", err)
			}
		})
	}
}
