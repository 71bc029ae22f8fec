package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal/display"
)

func TestScenario(t *testing.T) {
	events := sessiongen.Generate(2, sessiongen.Config{Turns: 2})
	out, err := Scenario("gen-2", events, Options{
		Sizes:   []Size{{80, 24}, {44, 18}},
		Source:  "sessiongen seed 2",
		Comment: "Property live-replay failed.\nsecond line \x1b[31m",
		Eager:   true, HideReasoning: true, ToolPresses: 2, Light: true,
		Invariants: []string{"no-lost-message", "one-marker"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(out)
	if len(ar.Files) != 1 || ar.Files[0].Name != FileName {
		t.Fatalf("archive files: %v", ar.Files)
	}
	log, err := jsonl.ParseLog(ar.Files[0].Data, FileName)
	if err != nil {
		t.Fatal(err)
	}
	// The archive holds the events in the escaper's JSON form (DEL, C1
	// and reordering characters as \u escapes): the same values.
	if !bytes.Equal(display.EscapeJSON(encodeLog(t, events)), encodeLog(t, log.Events)) {
		t.Fatal("embedded log differs")
	}
	var script []string
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			script = append(script, l)
		}
		if strings.ContainsAny(l, "\x1b") {
			t.Errorf("raw control in header line %q", l)
		}
	}
	now := events[len(events)-1].Time + 1000
	want := []string{"option eager", "scheme light", "toggle reasoning", "toggle tools", "toggle tools",
		"load session.jsonl", "invariants --size 80x24,44x18 no-lost-message one-marker", "clock " + itoa(now),
		"mount 80 24", "snapshot gen-2-80x24", "resize 44 18", "snapshot gen-2-44x18"}
	if diff := cmp.Diff(want, script); diff != "" {
		t.Errorf("script (-want +got):\n%s", diff)
	}
	for _, w := range []string{"# gen-2: a session log of", "# Source: sessiongen seed 2", "# Property live-replay failed.",
		`# second line \x1b[31m`, "# Record its screens from the folder holding scenarios/ and fixtures/: dshtest record '^gen-2$'.",
		"# The invariants step fails while the reported bug is present"} {
		if !bytes.Contains(ar.Comment, []byte(w)) {
			t.Errorf("header lacks %q:\n%s", w, ar.Comment)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestScenarioErrors(t *testing.T) {
	events := sessiongen.Generate(1, sessiongen.Config{Turns: 1})
	for _, name := range []string{"", "a b", "../x", "-x"} {
		if _, err := Scenario(name, events, Options{}); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	if _, err := Scenario("x", nil, Options{}); err == nil {
		t.Error("empty log accepted")
	}
	bad := slices.Clone(events)
	bad[0].Seq = 5
	if _, err := Scenario("x", bad, Options{}); err == nil {
		t.Error("invalid log accepted")
	}
	if _, err := Scenario("x", events, Options{Invariants: []string{"one-marker\nsnapshot x"}}); err == nil {
		t.Error("a multi-line invariant name accepted")
	}
	if _, err := Scenario("x", events, Options{Sizes: []Size{{0, 10}}}); err == nil {
		t.Error("zero size accepted")
	}
}

// clusterWidths returns the display width of each line of s, cluster by
// cluster as the renderer measures (escape sequences are not parsed).
func clusterWidths(s string) []int {
	var out []int
	for _, l := range strings.Split(s, "\n") {
		w := 0
		for l != "" {
			g, gw := ansi.FirstGraphemeCluster(l, ansi.GraphemeWidth)
			if g == "" {
				break
			}
			w += gw
			l = l[len(g):]
		}
		out = append(out, w)
	}
	return out
}

func TestFiller(t *testing.T) {
	for _, s := range []string{"Hello, World 42!", "漢字 🙂 👩‍💻 e\u0301", "a\x1b[31mred\x1b[0m\tz", "line1\nline2\r\n",
		"\u0085\u200b\ufffd", "ｆｕｌｌ", "ÀÉÎ õü → ½"} {
		f := newScrubber().filler(s)
		if !slices.Equal(clusterWidths(s), clusterWidths(f)) {
			t.Errorf("filler(%q) = %q: widths %v, want %v", s, f, clusterWidths(f), clusterWidths(s))
		}
	}
	for _, tc := range []struct {
		in   []string // scrubbed in turn by one scrubber
		want []string
	}{
		{[]string{"Hello, World 42!"}, []string{"Xxxxx, Qxxxx 00!"}},
		{[]string{"漢字🙂"}, []string{"宽宽宽"}},
		// The same word, in any case, is the same filler word throughout;
		// another word of its length is another.
		{[]string{"the cat", "The dog", "THE CAT sat"}, []string{"xxx qxx", "Xxx zxx", "XXX QXX jxx"}},
		{[]string{"a b c d e f g h"}, []string{"x q z j k v y x"}},
		{[]string{"snake_case42 x-y"}, []string{"xxxxx_xxxx00 x-q"}},
	} {
		s := newScrubber()
		for i, in := range tc.in {
			if got := s.filler(in); got != tc.want[i] {
				t.Errorf("filler(%q) = %q, want %q", in, got, tc.want[i])
			}
		}
	}
}

var aliasRE = map[string]*regexp.Regexp{
	"callId": regexp.MustCompile(`^call-\d+$`), "toolCallId": regexp.MustCompile(`^call-\d+$`),
	"compactionId": regexp.MustCompile(`^cmp-\d+$`), "sourceCommandId": regexp.MustCompile(`^cmd-\d+$`),
	"sessionId": regexp.MustCompile(`^session-\d+$`),
}

// walkPair walks an original and a scrubbed payload side by side.
func walkPair(t *testing.T, seq int64, key string, a, b any) {
	t.Helper()
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			t.Fatalf("seq %d: object shape changed under %q", seq, key)
		}
		for k, v := range x {
			walkPair(t, seq, k, v, y[k])
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			t.Fatalf("seq %d: array shape changed under %q", seq, key)
		}
		for i := range x {
			walkPair(t, seq, key, x[i], y[i])
		}
	case string:
		y, ok := b.(string)
		if !ok {
			t.Fatalf("seq %d: string became %T", seq, b)
		}
		if re := aliasRE[key]; re != nil && !re.MatchString(y) {
			t.Errorf("seq %d: %s %q not aliased: %q", seq, key, x, y)
		}
		switch key {
		case "text", "title", "message":
			if !slices.Equal(clusterWidths(x), clusterWidths(y)) {
				t.Errorf("seq %d: %s width changed: %q → %q", seq, key, x, y)
			}
			for _, r := range y {
				if (unicode.IsLetter(r) && !strings.ContainsRune(fillerLetters+strings.ToUpper(fillerLetters)+"宽", r)) || (unicode.IsDigit(r) && r != '0') {
					t.Errorf("seq %d: %s keeps %q: %q", seq, key, r, y)
					break
				}
			}
		}
	default:
		if !cmp.Equal(a, b) {
			t.Errorf("seq %d: %s changed: %v → %v", seq, key, a, b)
		}
	}
}

func TestScrub(t *testing.T) {
	for seed := range int64(12) {
		events := sessiongen.Generate(seed, sessiongen.Config{})
		got, err := Scrub(events)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := surface.Load(got, func() int64 { return 0 }); err != nil {
			t.Fatalf("seed %d: scrubbed log does not load: %v", seed, err)
		}
		f1, _ := surface.Fold(events, 0)
		f2, _ := surface.Fold(got, 0)
		if !slices.Equal(f1.Nodes, f2.Nodes) {
			t.Fatalf("seed %d: surface changed", seed)
		}
		for i := range events {
			if events[i].Type != got[i].Type || events[i].Time != got[i].Time ||
				!bytes.Equal(events[i].SurfaceOp, got[i].SurfaceOp) || !bytes.Equal(events[i].SourceEventSeqs, got[i].SourceEventSeqs) {
				t.Fatalf("seed %d: envelope of seq %d changed", seed, i)
			}
			var a, b any
			if err := json.Unmarshal(events[i].Data, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got[i].Data, &b); err != nil {
				t.Fatal(err)
			}
			walkPair(t, int64(i), "", a, b)
			if bytes.Contains(got[i].Data, []byte(sessiongen.ModelOnlyCanary)) {
				t.Fatalf("seed %d: canary survived scrubbing at seq %d", seed, i)
			}
		}
		again, _ := Scrub(events)
		if !bytes.Equal(encodeLog(t, got), encodeLog(t, again)) {
			t.Fatalf("seed %d: Scrub is not deterministic", seed)
		}
	}
}

func TestScrubAliases(t *testing.T) {
	raw := `{"type":"assistant/message","seq":0,"time":1,"data":{"turn":1,"step":1,"message":{"id":"m-secret","role":"assistant","content":[{"type":"tool-call","id":"c-secret","name":"bash","arguments":"{\"command\":\"cat /home/alice/notes\"}"}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}
{"type":"tool/call","seq":1,"time":2,"data":{"turn":1,"step":1,"callId":"c-secret","name":"bash","arguments":"{\"command\":\"cat /home/alice/notes\"}"}}
{"type":"user/message","seq":2,"time":3,"data":{"id":"u-1","role":"user","content":[{"type":"text","text":"Hi Bob"}],"source":{"kind":"session-reference","version":1,"references":[{"sessionId":"s-9","label":"s-9"},{"sessionId":"s-8","label":"Alice's work"}]}},"surfaceOp":"append"}
`
	log, err := jsonl.ParseLog([]byte(raw), "t")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Scrub(log.Events)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	_ = jsonl.WriteLog(&b, got)
	want := `{"type":"assistant/message","seq":0,"time":1,"data":{"turn":1,"step":1,"message":{"id":"id-1","role":"assistant","content":[{"type":"tool-call","id":"call-1","name":"bash","arguments":"{\"command\":\"xxx /xxxx/xxxxx/qxxxx\"}"}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}
{"type":"tool/call","seq":1,"time":2,"data":{"turn":1,"step":1,"callId":"call-1","name":"bash","arguments":"{\"command\":\"xxx /xxxx/xxxxx/qxxxx\"}"}}
{"type":"user/message","seq":2,"time":3,"data":{"id":"id-2","role":"user","content":[{"type":"text","text":"Xx Qxx"}],"source":{"kind":"session-reference","version":1,"references":[{"sessionId":"session-1","label":"session-1"},{"sessionId":"session-2","label":"Xxxxx'x qxxx"}]}},"surfaceOp":"append"}
`
	if b.String() != want {
		t.Errorf("scrubbed:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestScenarioRunsInHarness records an emitted scenario with the harness
// and then replays it against the recorded fixtures: the archive is a
// scenario the suite accepts as is.
func TestScenarioRunsInHarness(t *testing.T) {
	dir := t.TempDir()
	scen, fix := filepath.Join(dir, "scenarios"), filepath.Join(dir, "fixtures")
	for _, d := range []string{scen, fix} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, seed := range []int64{3, 11, 12, 13} {
		events := sessiongen.Generate(seed, sessiongen.Config{Turns: 2})
		opts := Options{Sizes: []Size{{60, 20}, {30, 12}}, Scrub: i == 1, Live: i >= 2, Source: "emit test"}
		if i%2 == 0 { // the replay form and the live form, each asserting every invariant
			opts.Invariants = invariant.Names()
		}
		if i == 3 {
			opts.LiveFrom = len(events) / 2
			opts.Before = map[int][]string{
				len(events) / 2:   {"toggle reasoning", "scheme light"},
				len(events)/2 + 3: {"resize 50 16", "toggle tools"},
				len(events):       {"toggle reasoning"},
			}
		}
		out, err := Scenario(fmt.Sprintf("gen-%d", seed), events, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(scen, fmt.Sprintf("gen-%d.txtar", seed)), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("record", func(t *testing.T) {
		harness.Run(t, harness.Config{ScenarioDir: scen, FixtureDir: fix, Update: true})
	})
	t.Run("replay", func(t *testing.T) {
		harness.Run(t, harness.Config{ScenarioDir: scen, FixtureDir: fix})
	})
	names, _ := filepath.Glob(filepath.Join(fix, "*"))
	want := []string{"gen-11-30x12", "gen-11-60x20", "gen-12-30x12", "gen-12-60x20", "gen-13-30x12", "gen-13-50x16",
		"gen-3-30x12", "gen-3-60x20"}
	var got []string
	for _, n := range names {
		got = append(got, strings.TrimSuffix(filepath.Base(n), filepath.Ext(n)))
	}
	if !slices.Equal(got, want) {
		t.Errorf("recorded fixtures: %v, want %v", got, want)
	}
}

func encodeLog(t *testing.T, events []sessionlog.Event) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jsonl.WriteLog(&b, events); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
