package invariant

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

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
			for _, s := range shownTexts(ExpectedTexts(tt.events, false), maphash.MakeSeed()) {
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

// exchange is the log of a prompt and a settled answer, given their
// content blocks as JSON array members.
func exchange(prompt, answer string) []sessionlog.Event {
	events := []sessionlog.Event{
		ev("user/message", fmt.Sprintf(`{"id":"u","role":"user","content":[%s],"source":{"kind":"user"}}`, prompt), `"append"`),
		ev("step/start", step, ""),
		ev("assistant/message", fmt.Sprintf(`{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":[%s],"source":{"kind":"model","provider":"p","model":"m"}}}`, answer), `"append"`),
		ev("step/end", step, ""),
	}
	for i := range events {
		events[i].Seq, events[i].Time = int64(i), int64(i)
	}
	return events
}

// block is a content block of type typ holding text.
func block(typ, text string) string {
	b, _ := json.Marshal(map[string]string{"type": typ, "text": text})
	return string(b)
}

// TestShownNorms: a text is looked for as what its Markdown shows, less
// its tables.
func TestShownNorms(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"plain *text*", []string{"plaintext"}},
		{"See:\n\n| a | b |\n|---|---|\n| 1 | 2 |[image]", []string{"See"}},
		{"before\n\n| a |\n|---|\n| 1 |\n\nafter", []string{"before", "after"}},
		{"| a |\n|---|\n| 1 |", nil},
		{"| a | b |\n|---|\n| 1 | 2 |", []string{"ab12"}}, // not a table
		{"see [1]\n\n[1]: http://x.y", []string{"see1httpxy"}},
	}
	for _, tt := range tests {
		var got []string
		for _, n := range shownNorms(tt.text, false) {
			got = append(got, string(n))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("shownNorms(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestNoLossMarkdown: what a prompt's or an answer's Markdown shows is not
// its source (a link definition shows nowhere, a link's title neither, an
// image its alt text alone; a table's cells wrap within their columns and
// a cell past the header's is not drawn, which a prompt's image
// placeholder after a table row becomes), and no-lost-message finds each
// such message shown at every size; it still finds a message lost by the
// text around its tables.
func TestNoLossMarkdown(t *testing.T) {
	table := "| name | description |\n|---|---|\n| alpha beta gamma delta epsilon | zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma |\n| 1 | 2 |"
	bodies := []string{
		"Compare the two plans:\n\n" + table,
		"Here is the comparison you asked for.\n\n" + table + "\n\nEither works.",
		"See the docs [1].\n\n[1]: https://example.com/docs",
		"an image ![alt text](http://x/y.png) here",
		`[link](http://example.com "title here")`,
		"[ref link][r] and [r]\n\n[r]: http://a.b \"T\"",
		"Use &lt;div&gt; and &amp; here, <!-- a comment --> <span>html</span>",
		"<details>\n<summary>More</summary>\n\nbody\n</details>",
		"footnote[^1]\n\n[^1]: the note",
		"- [x] done\n- [ ] todo\n\n1. one\n2. two",
	}
	for _, body := range bodies {
		events := exchange(block("text", body)+`,{"type":"image","mediaType":"image/png","data":"AA=="}`, block("text", body))
		sizes := []Size{{80, 24}, {44, 18}, {104, 30}}
		if r := New(events, sizes, transcript.Options{}, terminal.Projection{}, "t").Check(NoLostMessage); !r.OK {
			t.Errorf("%q, every message shown: %s", body, r.Detail)
		}
	}
	events := exchange(block("text", bodies[0]), "")[:1] // the prompt alone
	lost := terminal.Projection{Live: func(o transcript.Options) terminal.LiveProjector {
		return skippingLive{transcript.NewProjector(o), 0}
	}}
	r := New(events, []Size{{80, 24}}, transcript.Options{}, lost, "t").Check(NoLostMessage)
	if r.OK || !strings.Contains(r.Detail, "seq 0 prompt") {
		t.Errorf("a live path that drops the prompt: %+v, want seq 0 missing", r)
	}
}

// TestMarkdownBodies: prompts and answers in the Markdown an agent writes
// hold every invariant at five sizes, the narrowest one column.
func TestMarkdownBodies(t *testing.T) {
	bodies := []string{
		"## Plan\n\n1. First step with `code` and **bold**\n   - nested bullet with a [link](https://example.com/path/to/page)\n   - another\n2. Second\n\n```python\ndef f(x):\n\treturn x * 2  # a very long comment line that will certainly need to wrap at a narrow width\n```\n\n> **Note:** quoted text\n> with `code`\n\n---\n\nDone.",
		"Tab\tseparated\tvalues\nnext\tline",
		"    indented code block line one\n    line two",
		"RTL: שלום עולם and Arabic مرحبا",
		"zero\u200bwidth and combine\u0301d",
		"Heading\n-------\nbody",
		"###### tiny heading\n\ntext",
		"* a\n* b\n\n+ c\n\n- d",
		"Line one\\\nhard break",
		"***bold italic*** and ~~strike~~ and ~single~",
		"https://bare.example.com/a/very/long/path/that/goes/on/and/on/for/a/while/index.html?query=1&other=2",
		"email me: someone@example.com",
		"<br>\n<p>para</p>",
		"a | b\n--|--\nc | d",
		"text with trailing backslash \\",
		"`code with `` backticks`",
		"```\nunclosed fence\nmore",
		"1) paren list\n2) second",
		"\\# not a heading, \\*not emph\\*",
		"emoji sequence 👨‍👩‍👧 family and flags 🇫🇷",
		"> nested\n> > deeper\n> > > deepest",
		"- item\n\n  ```\n  code in list\n  ```",
		"| a |\n|---|\n| `pipe \\| inside` |",
	}
	sizes := []Size{{80, 24}, {20, 10}, {44, 18}, {104, 30}, {1, 5}}
	for _, body := range bodies {
		events := exchange(block("text", body), block("reasoning", body)+","+block("text", body))
		for _, r := range New(events, sizes, transcript.Options{}, terminal.Projection{}, "t").CheckAll() {
			if !r.OK {
				t.Errorf("%q: %s: %s", body, r.Name, r.Detail)
			}
		}
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

func TestInvariantsOnGeneratedSessions(t *testing.T) {
	sizes := []Size{{80, 24}, {33, 12}}
	n := 12
	if testing.Short() {
		n = 4
	}
	tripped, withCheckpoint := 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		events := sessiongen.Generate(seed, sessiongen.Config{Turns: 4})
		for _, eager := range []bool{false, true} {
			opts := transcript.Options{EagerSteps: eager}
			c := New(events, sizes, opts, terminal.Projection{}, "gen")
			for _, name := range Names() {
				if r := c.Check(name); !r.OK {
					t.Errorf("seed %d eager %v: %s: %s", seed, eager, name, r.Detail)
				}
			}
		}
		if !slices.ContainsFunc(events, func(e sessionlog.Event) bool { return sessionlog.IsCheckpoint(&e) }) {
			continue
		}
		withCheckpoint++
		c := New(events, sizes, transcript.Options{}, mutant.Surface(), "gen")
		for _, name := range Names() {
			if !c.Check(name).OK {
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
		c := New(events, []Size{{80, 24}}, transcript.Options{}, proj, "gen")
		reads := 0
		if reload {
			c = Read(func(yield func(*sessionlog.Event) bool) error {
				reads++
				for i := range events {
					if !yield(&events[i]) {
						break
					}
				}
				return nil
			}, []Size{{80, 24}}, transcript.Options{}, proj, func() string { return "gen" })
		}
		r := c.Check(LiveReplay)
		if want := fmt.Sprintf("first diverging event seq %d", from); r.OK || !strings.Contains(r.Detail, want) {
			t.Errorf("reload %v: %+v, want a failure naming %q", reload, r, want)
		}
		// Read once for the first pass, once for the live path in step
		// with the replay, once more for the whole documents where the
		// paths part, once for the bisection, and kept no event.
		if reload && (c.events != nil || c.scanned.events != nil || reads != 4) {
			t.Errorf("checker kept the log (%v, %v) or read it %d times", c.events != nil, c.scanned.events != nil, reads)
		}
	}
}

// TestRereadChanged: a log that is shorter on the second read (it changed
// while repro read it) fails the invariants with what happened.
func TestRereadChanged(t *testing.T) {
	events := sessiongen.GenerateN(5, 200)
	reads := 0
	read := func(yield func(*sessionlog.Event) bool) error {
		log := events
		if reads++; reads > 1 {
			log = events[:100]
		}
		for i := range log {
			if !yield(&log[i]) {
				break
			}
		}
		return nil
	}
	gen := func() string { return "gen" }
	c := Read(read, []Size{{80, 24}}, transcript.Options{}, terminal.Projection{}, gen)
	for _, name := range []string{LiveReplay, NoLostMessage} {
		if r := c.Check(name); r.OK || !strings.Contains(r.Detail, "the log changed while repro read it: 100 events, not") {
			t.Errorf("%s: %+v", name, r)
		}
	}
	c = Read(read, []Size{{80, 24}}, transcript.Options{}, terminal.Projection{}, gen)
	reads = 0
	if r := c.Check(HistoryPages); r.OK || !strings.Contains(r.Detail, "the log changed while repro read it: 100 events, not") {
		t.Errorf("%s: %+v", HistoryPages, r)
	}
}

// TestReadKeepsNoEvent: a checker that reads the log (Read), handed each
// event in a variable overwritten once yield returns, reaches New's
// verdicts on the same log, under the real projection (keeping no event)
// and under a Replay seam (which is given the log).
func TestReadKeepsNoEvent(t *testing.T) {
	sizes := []Size{{80, 24}, {33, 12}}
	for seed := int64(1); seed <= 6; seed++ {
		events := sessiongen.Generate(seed, sessiongen.Config{Turns: 4})
		for name, proj := range map[string]terminal.Projection{"transcript": {}, "surface": mutant.Surface()} {
			want := New(events, sizes, transcript.Options{}, proj, "gen").CheckAll()
			reads := 0
			c := Read(func(yield func(*sessionlog.Event) bool) error {
				reads++
				var e sessionlog.Event
				for i := range events {
					e = events[i]
					ok := yield(&e)
					e = sessionlog.Event{Type: "overwritten", Seq: -1}
					if !ok {
						break
					}
				}
				return nil
			}, sizes, transcript.Options{}, proj, func() string { return "gen" })
			if diff := cmp.Diff(want, c.CheckAll()); diff != "" {
				t.Errorf("seed %d %s: Read's verdicts differ from New's (-New +Read):\n%s", seed, name, diff)
			}
			// Twice while live and replay agree and the documents show
			// the log's texts in order; a third time to compare the
			// whole documents where the paths part or a text is missed.
			wantReads := 2
			if !want[0].OK || !want[1].OK {
				wantReads = 3
			}
			if want[0].Name != LiveReplay || want[1].Name != NoLostMessage || reads != wantReads {
				t.Errorf("seed %d %s: read the log %d times, want %d", seed, name, reads, wantReads)
			}
			if name == "transcript" && c.scanned.events != nil {
				t.Errorf("seed %d: the checker kept the log's events", seed)
			}
		}
	}
}

// TestHistorySummaryOffPage: a checkpoint that cites a compaction summary
// on another page fails history-pages, which names the summary, the page
// and the checkpoint.
func TestHistorySummaryOffPage(t *testing.T) {
	events := sessiongen.GenerateN(8, 3000)
	var summaries, checkpoints []int
	for i := range events {
		if sessionlog.Canonical(events[i].Type) == sessionlog.TypeCompactionSummary {
			summaries = append(summaries, i)
		}
		if sessionlog.IsCheckpoint(&events[i]) {
			checkpoints = append(checkpoints, i)
		}
	}
	if len(summaries) < 2 || len(checkpoints) < 2 {
		t.Fatalf("%d summaries and %d checkpoints, want two of each", len(summaries), len(checkpoints))
	}
	c := New(events, []Size{{80, 24}}, transcript.Options{}, terminal.Projection{}, "gen")
	if r := c.Check(HistoryPages); !r.OK {
		t.Fatalf("before the edit: %s", r.Detail)
	}
	cp := checkpoints[len(checkpoints)-1]
	events = slices.Clone(events)
	events[cp].SourceEventSeqs = json.RawMessage(fmt.Sprintf("[%d]", events[summaries[0]].Seq))
	c = New(events, []Size{{80, 24}}, transcript.Options{}, terminal.Projection{}, "gen")
	r := c.Check(HistoryPages)
	if r.OK || !strings.HasPrefix(r.Detail, fmt.Sprintf("max 1: summary seq %d is not on the page ", events[summaries[0]].Seq)) ||
		!strings.HasSuffix(r.Detail, fmt.Sprintf("of its checkpoint seq %d", events[cp].Seq)) {
		t.Errorf("history-pages: %+v, want summary seq %d off the page of checkpoint seq %d", r, events[summaries[0]].Seq, events[cp].Seq)
	}
	t.Log(r.Detail)
}

// docNorm is the norm of a whole rendered document, as the streamed search
// reads it a chunk at a time (streamRows).
func docNorm(lines []string) string {
	var b []byte
	for _, l := range lines {
		b = appendRowNorm(b, l)
	}
	return string(b)
}

// TestKeptNorms: the norms of a text of more than keptNorm bytes are not
// kept but worked out again when searched for; a short text's are kept.
func TestKeptNorms(t *testing.T) {
	long := strings.Repeat("lorem ipsum ", keptNorm/8)
	shown := shownTexts([]Text{
		{Seq: 1, Kind: transcript.KindPrompt, Text: "short *prompt*"},
		{Seq: 2, Kind: transcript.KindPrompt, Text: long},
	}, maphash.MakeSeed())
	if len(shown) != 2 || shown[0].norms == nil || shown[1].norms != nil {
		t.Fatalf("kept norms: %d texts, short kept %v, long kept %v", len(shown), shown[0].norms != nil, shown[1].norms != nil)
	}
	want := strings.ReplaceAll(long, " ", "")
	if got := shown[1].normsOf(); len(got) != 1 || string(got[0]) != want || len(shown[1].keys) != 1 {
		t.Errorf("the long text's norms worked out again: %d norms, %d keys", len(got), len(shown[1].keys))
	}
	if got := shown[0].normsOf(); len(got) != 1 || string(got[0]) != "shortprompt" {
		t.Errorf("the short text's norms: %q", got)
	}
}

// TestFeedBoundsPayload: feed holds at most about depth megabytes of
// payload in flight, or one batch however heavy: with events of 4 MiB each
// (a batch of its own each), the reader builds at most one event ahead of
// the one every consumer is done with, while the consumers are slower
// than it.
func TestFeedBoundsPayload(t *testing.T) {
	data := []byte(`"` + strings.Repeat("x", 4<<20) + `"`)
	var made, most atomic.Int64
	var done [2]atomic.Int64
	src := func(yield func(*sessionlog.Event) bool) error {
		for i := range 12 {
			made.Add(1)
			if !yield(&sessionlog.Event{Seq: int64(i), Type: "x/y", Data: data}) {
				return nil
			}
		}
		return nil
	}
	c := &Checker{read: src}
	consumer := func(k int) func(*sessionlog.Event) {
		return func(*sessionlog.Event) {
			runtime.Gosched() // let the reader run ahead if it may
			runtime.Gosched()
			slowest := min(done[0].Load(), done[1].Load())
			if n := made.Load() - slowest; n > most.Load() {
				most.Store(n)
			}
			done[k].Add(1)
		}
	}
	n, err := c.feed(-1, consumer(0), consumer(1))
	if err != nil || n != 12 {
		t.Fatalf("fed %d events: %v", n, err)
	}
	// In flight: the event a consumer reads, and the one the reader has
	// made and waits to send.
	if m := most.Load(); m > 2 {
		t.Errorf("%d heavy events in flight at once, want at most 2", m)
	}
}

// TestShownTextsSpread: shownTexts works its texts out side by side, a
// batch at a time, yet each text's norms, keys, whole key and marker
// count, and which texts' norms it keeps, are what working them out one
// by one in log order gives, on one CPU or several.
func TestShownTextsSpread(t *testing.T) {
	seed := maphash.MakeSeed()
	var want []Text
	add := func(kind transcript.ItemKind, text string) {
		want = append(want, Text{Seq: int64(len(want)), Kind: kind, Text: text})
	}
	big := strings.Repeat("word ", keptNorm/5-100)                          // kept alone, not with the budget spent
	add(transcript.KindPrompt, "a *prompt* quoting "+transcript.MarkerText) // one marker quoted
	for i := range 24 {                                                     // 24 of ~0.8 MiB of norm: past keptNorms
		add(transcript.KindStep, fmt.Sprintf("answer %d\n\n%s", i, big))
		add(transcript.KindPrompt, fmt.Sprintf("prompt %d with \x1b[31m and | a | table |\n|---|---|\n| x | y |", i))
	}
	add(transcript.KindPrompt, strings.Repeat("huge ", keptNorm/3)) // never kept: past keptNorm
	add(transcript.KindStep, "")                                    // no text: not shown
	add(transcript.KindStep, transcript.MarkerText+" and "+transcript.MarkerText)
	marker := norm(transcript.MarkerText)
	for _, procs := range []int{1, 2} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		got := shownTexts(want, seed)
		if len(got) != len(want)-1 {
			t.Fatalf("GOMAXPROCS=%d: %d shown texts, want %d", procs, len(got), len(want)-1)
		}
		kept, keptAny, droppedSmall := 0, false, false
		for i, s := range got {
			norms := shownNorms(s.text, s.kind == "prompt")
			size := 0
			for k, n := range norms {
				size += len(n)
				if k >= len(s.keys) || s.keys[k] != maphash.Bytes(seed, n) {
					t.Fatalf("GOMAXPROCS=%d text %d: key %d is not its norm's", procs, i, k)
				}
			}
			if len(s.keys) != len(norms) {
				t.Errorf("GOMAXPROCS=%d text %d: %d keys, want %d", procs, i, len(s.keys), len(norms))
			}
			if s.whole != normKey(seed, norm(s.text)) || s.markers != strings.Count(norm(s.text), marker) {
				t.Errorf("GOMAXPROCS=%d text %d: whole key or marker count (%d) not its whole norm's", procs, i, s.markers)
			}
			keep := size <= keptNorm && kept+size <= keptNorms
			if keep {
				kept += size
				keptAny = true
			} else if size <= keptNorm {
				droppedSmall = true
			}
			if (s.norms != nil) != keep || keep && !slices.EqualFunc(s.norms, norms, bytes.Equal) {
				t.Errorf("GOMAXPROCS=%d text %d: norms kept %v, want %v", procs, i, s.norms != nil, keep)
			}
		}
		if !keptAny || !droppedSmall {
			t.Fatalf("the test's texts should be kept, and dropped for the budget")
		}
		if q := quotedMarkers(got); q != 3 {
			t.Errorf("GOMAXPROCS=%d: %d quoted markers, want 3", procs, q)
		}
	}
}
