package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
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

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"", 1, 1, true},
		{"1/1", 1, 1, true},
		{"2/4", 2, 4, true},
		{"0/4", 0, 0, false},
		{"5/4", 0, 0, false},
		{"1/0", 0, 0, false},
		{"x/2", 0, 0, false},
		{"2", 0, 0, false},
	}
	for _, tt := range tests {
		i, n, err := parseShard(tt.in)
		if (err == nil) != tt.ok || i != tt.i || n != tt.n {
			t.Errorf("parseShard(%q) = %d, %d, %v", tt.in, i, n, err)
		}
	}
}

// TestShardPartition: for every n, each name falls in exactly one shard,
// and a name's shard does not depend on the other names.
func TestShardPartition(t *testing.T) {
	var names []string
	for i := range 50 {
		names = append(names, fmt.Sprintf("scenario-%d", i))
	}
	for n := 1; n <= 7; n++ {
		counts := map[int]int{}
		for _, name := range names {
			s := shardOf(name, n)
			if s < 1 || s > n {
				t.Fatalf("shardOf(%q, %d) = %d", name, n, s)
			}
			counts[s]++
		}
		total := 0
		for _, c := range counts {
			total += c
		}
		if total != len(names) {
			t.Errorf("n=%d: %d names in shards, want %d", n, total, len(names))
		}
		if n > 1 && len(counts) < 2 {
			t.Errorf("n=%d: every name in one shard", n)
		}
	}
	// Pinned: a scenario keeps its shard across releases (FNV-1a).
	if got := shardOf("surface-compaction-live", 4); got != 4 {
		t.Errorf("shardOf(surface-compaction-live, 4) = %d, want 4", got)
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want size
		ok   bool
	}{
		{"80x24", size{80, 24}, true},
		{"44X18", size{44, 18}, true},
		{"0x24", size{}, false},
		{"80", size{}, false},
		{"80x", size{}, false},
		{"axb", size{}, false},
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
	d1, d2 := compactDiff(a, edit(a)), compactDiff(b, edit(b))
	if d1 == "" || d2 == "" {
		t.Fatal("no diff")
	}
	if changeKey(d1) != changeKey(d2) {
		t.Errorf("same edit, different keys:\n%s\n---\n%s", d1, d2)
	}
	if d3 := compactDiff(a, strings.Replace(a, "hi", "ho", 1)); changeKey(d3) == changeKey(d1) {
		t.Error("different edits share a key")
	}
	var w bytes.Buffer
	printChanges(&w, "fixtures/", []string{"a.screen", "b.screen"},
		tree{"a.screen": []byte(a), "b.screen": []byte(b)},
		tree{"a.screen": []byte(edit(a)), "b.screen": []byte(edit(b))})
	if !strings.Contains(w.String(), "changed   2 fixtures: same change in fixtures/a.screen, fixtures/b.screen") {
		t.Errorf("not grouped:\n%s", w.String())
	}
}

func TestCompactDiffBounded(t *testing.T) {
	var old, new strings.Builder
	for i := range 200 {
		fmt.Fprintf(&old, "line %d\n", i)
		fmt.Fprintf(&new, "line %d changed\n", i)
	}
	d := compactDiff(old.String(), new.String())
	lines := strings.Split(d, "\n")
	if len(lines) != maxDiffLines+1 || !strings.HasPrefix(lines[maxDiffLines], "… ") {
		t.Errorf("diff of %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	if compactDiff("same\n", "same\n") != "" {
		t.Error("a diff of equal texts")
	}
}

func TestDiffering(t *testing.T) {
	a := tree{"x.screen": []byte("1\n"), "y.screen": []byte("2\n")}
	b := tree{"x.screen": []byte("1\n"), "y.screen": []byte("3\n"), "z.screen": []byte("4\n")}
	var names []string
	for _, d := range differing(a, b, "fixtures/", tree{}, tree{}, "scenarios/") {
		names = append(names, d.name)
	}
	if diff := cmp.Diff([]string{"fixtures/y.screen", "fixtures/z.screen"}, names); diff != "" {
		t.Errorf("differing (-want +got):\n%s", diff)
	}
}

// ev builds an event for the invariant tests.
func ev(typ string, data string, op string) sessionlog.Event {
	e := sessionlog.Event{Type: typ, Data: json.RawMessage(data)}
	if op != "" {
		e.SurfaceOp = json.RawMessage(op)
	}
	return e
}

const (
	prompt    = `{"id":"u","role":"user","content":[{"type":"text","text":"hello"}],"source":{"kind":"user"}}`
	injected  = `{"id":"c","role":"user","content":[{"type":"text","text":"ctx"}],"source":{"kind":"plugin","plugin":"x"}}`
	assistant = `{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":[{"type":"reasoning","text":"think"},{"type":"text","text":"answer"}],"source":{"kind":"model","provider":"p","model":"m"}}}`
	step      = `{"turn":1,"step":1}`
)

// TestExpectedTexts: the texts no-lost-message requires are the
// append-origin prompts and assistant texts, less the steps the renderer
// removes by rule.
func TestExpectedTexts(t *testing.T) {
	tests := []struct {
		name   string
		events []sessionlog.Event
		want   []string
	}{
		{"prompt and answer", []sessionlog.Event{
			ev("user/message", prompt, `"append"`),
			ev("step/start", step, ""),
			ev("assistant/message", assistant, `"append"`),
			ev("step/end", step, ""),
		}, []string{"0 prompt hello", "2 assistant answer"}},
		{"injected context and replacements are not required", []sessionlog.Event{
			ev("user/message", injected, `"append"`),
			ev("assistant/message", assistant, `{"op":"replace","start":0,"end":0}`),
		}, nil},
		{"a retry removes the failed step", []sessionlog.Event{
			ev("step/start", step, ""),
			ev("assistant/message", assistant, `"append"`),
			ev("llm/retry", `{}`, ""),
			ev("assistant/message", assistant, `"append"`),
			ev("step/end", step, ""),
		}, []string{"3 assistant answer"}},
		{"a retry after step/end removes the step just completed", []sessionlog.Event{
			ev("step/start", step, ""),
			ev("assistant/message", assistant, `"append"`),
			ev("step/end", step, ""),
			ev("llm/retry", `{}`, ""),
		}, nil},
		{"turn/end removes a step still open", []sessionlog.Event{
			ev("step/start", step, ""),
			ev("assistant/message", assistant, `"append"`),
			ev("turn/end", `{"turn":1,"reason":{"kind":"aborted"}}`, ""),
		}, nil},
		{"turn/end keeps a completed step", []sessionlog.Event{
			ev("step/start", step, ""),
			ev("assistant/message", assistant, `"append"`),
			ev("step/end", step, ""),
			ev("turn/end", `{"turn":1,"reason":{"kind":"completed"}}`, ""),
		}, []string{"1 assistant answer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.events {
				tt.events[i].Seq = int64(i)
			}
			var got []string
			for _, s := range expectedTexts(tt.events) {
				got = append(got, fmt.Sprintf("%d %s %s", s.seq, s.kind, s.text))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("expectedTexts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNorm(t *testing.T) {
	// The renderer escapes controls as \xNN; norm keeps their letters and
	// digits, so a text is found in the document whatever its escapes.
	if got, want := norm("a\x1b]2;b c\n"), "ax1b2bc"; got != want {
		t.Errorf("norm = %q, want %q", got, want)
	}
	doc := []string{"\x1b[1mhel\x1b[0m  ", "lo   wor", "ld"}
	if got := docNorm(doc); got != "helloworld" {
		t.Errorf("docNorm = %q", got)
	}
}

// TestDocNormStrip checks docNorm's SGR fast path against ansi.Strip on
// random rows of text, wide and invalid UTF-8, SGR sequences and other or
// broken escapes.
func TestDocNormStrip(t *testing.T) {
	slow := func(lines []string) string {
		var b strings.Builder
		for _, l := range lines {
			for _, r := range ansi.Strip(l) {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					b.WriteRune(r)
				}
			}
		}
		return b.String()
	}
	pieces := []string{"a", "Z", "9", " ", "é", "漢", "\xff", "\x1b[1m", "\x1b[0m", "\x1b[38;5;2m", "\x1b[2;35m",
		"\x1b[", "\x1b", "\x1b]0;t\x07", "\x1b[1A", "m", ";", "[", "\x9b", "\u009b", "\u0090", "١"}
	r := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		lines := make([]string, 1+r.IntN(3))
		for i := range lines {
			var b strings.Builder
			for range r.IntN(10) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			lines[i] = b.String()
		}
		if got, want := docNorm(lines), slow(lines); got != want {
			t.Fatalf("docNorm(%q) = %q, want %q", lines, got, want)
		}
	}
}

// TestBadInputEverywhere: every command that reads a log answers every
// kind of bad input with one line naming file:line, exit 2, nothing on
// standard output and no file written. repro alone reads a torn log's
// valid prefix, with a warning naming the line.
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
						if !(in.torn && c[0] == "repro") {
							t.Errorf("%s written", f)
						}
					}
				}
				if in.torn && c[0] == "repro" {
					if code != ExitOK || !strings.HasPrefix(stderr.String(), "dshtest: warning: "+path+":41: truncated last line") {
						t.Errorf("exit %d, stderr %q; want 0 and a warning", code, stderr.String())
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

// TestInvariantsOnGeneratedSessions: on generated sessions of both
// vocabularies, hostile texts included, every invariant holds with the real
// projection (no false alarm), and the surface projector trips at least one
// invariant on every session with a landed checkpoint (no false calm).
func TestInvariantsOnGeneratedSessions(t *testing.T) {
	sizes := []size{{80, 24}, {33, 12}}
	n := 12
	if testing.Short() {
		n = 4
	}
	tripped, withCheckpoint := 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		events := sessiongen.Generate(seed, sessiongen.Config{Turns: 4})
		for _, eager := range []bool{false, true} {
			opts := transcript.Options{EagerSteps: eager}
			c := newChecker(events, sizes, opts, terminal.Projection{}, "gen")
			for _, name := range invariantNames {
				if r := c.check(name); !r.OK {
					t.Errorf("seed %d eager %v: %s: %s", seed, eager, name, r.Detail)
				}
			}
		}
		if len(checkpoints(events)) == 0 {
			continue
		}
		withCheckpoint++
		c := newChecker(events, sizes, transcript.Options{}, surfaceProjection(), "gen")
		for _, name := range invariantNames {
			if !c.check(name).OK {
				tripped++
				break
			}
		}
	}
	if tripped != withCheckpoint {
		t.Errorf("the surface projector tripped an invariant on %d of %d sessions with a checkpoint", tripped, withCheckpoint)
	}
	if withCheckpoint == 0 {
		t.Error("no generated session has a checkpoint")
	}
	t.Logf("%d sessions, %d with a checkpoint", n, withCheckpoint)
}

// skippingLive is a live projector that never sees the events with seq
// from on: a live path that stops applying events.
type skippingLive struct {
	*transcript.Projector
	from int64
}

func (p skippingLive) Apply(e *sessionlog.Event) transcript.Change {
	if e.Seq >= p.from {
		return transcript.Change{}
	}
	return p.Projector.Apply(e)
}

// TestLiveReplayDivergence: when live and replay differ, live-replay names
// the first event after which they do, also when the checker dropped the
// log once the replay was mounted, fed the live model from a second read
// and reads it again for the bisection.
func TestLiveReplayDivergence(t *testing.T) {
	events := sessiongen.GenerateN(4, 400)
	var from int64 = -1
	for _, e := range events[200:] {
		if e.Type == sessionlog.TypeUserMessage {
			from = e.Seq
			break
		}
	}
	if from < 0 {
		t.Fatal("no user message after seq 200")
	}
	proj := terminal.Projection{Live: func(o transcript.Options) terminal.LiveProjector {
		return skippingLive{transcript.NewProjector(o), from}
	}}
	for _, reload := range []bool{false, true} {
		c := newChecker(events, []size{{80, 24}}, transcript.Options{}, proj, "gen")
		reads := 0
		if reload {
			c.reread = func(yield func(*sessionlog.Event) bool) error {
				reads++
				for i := range events {
					if !yield(&events[i]) {
						break
					}
				}
				return nil
			}
		}
		r := c.check(invLiveReplay)
		if want := fmt.Sprintf("first diverging event seq %d", from); r.OK || !strings.Contains(r.Detail, want) {
			t.Errorf("reload %v: %+v, want a failure naming %q", reload, r, want)
		}
		// Read again once for the live model, once for the bisection.
		if reload && (c.events != nil || reads != 2) {
			t.Errorf("checker kept the log (%v) or read it %d times", c.events != nil, reads)
		}
	}
}

// TestRereadChanged: a log that is shorter on the second read (it changed
// while repro read it) fails the invariants with what happened.
func TestRereadChanged(t *testing.T) {
	events := sessiongen.GenerateN(5, 200)
	c := newChecker(events, []size{{80, 24}}, transcript.Options{}, terminal.Projection{}, "gen")
	c.reread = func(yield func(*sessionlog.Event) bool) error {
		for i := range events[:100] {
			if !yield(&events[i]) {
				break
			}
		}
		return nil
	}
	for _, name := range []string{invLiveReplay, invNoLoss} {
		if r := c.check(name); r.OK || !strings.Contains(r.Detail, "the log changed while repro read it: 100 events, not") {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

// TestMemoryBudget: repro's budget is 3.5× the log (at least 64 MiB) and
// is restored afterwards; GOMEMLIMIT, when set, is left to decide.
func TestMemoryBudget(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	for _, tt := range []struct {
		env  map[string]string
		size int64
		want int64
	}{
		{nil, 1 << 30, 7 << 29},
		{nil, 1 << 20, 64 << 20},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, 1 << 30, before},
	} {
		a := &app{env: tt.env}
		restore := a.memoryBudget(tt.size)
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("env %v, size %d: limit %d, want %d", tt.env, tt.size, got, tt.want)
		}
		restore()
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Errorf("env %v: limit %d after restore, want %d", tt.env, got, before)
		}
	}
}
