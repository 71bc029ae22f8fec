package terminal

import (
	"encoding/json"
	"testing"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// The conformance tests render the scenarios of upstream's terminal
// snapshots and compare the transcript rows, cell by cell (text with its
// padding, and style runs), with the upstream .expected.txt files.

const compactionLog = "../sessionlog/testdata/upstream-compaction-scenario.jsonl"

// TestConformanceCompaction renders the compaction scenario through the
// whole-log projection (replay) with the eager step rule and the static
// bash presenter (terminal.md §10).
func TestConformanceCompaction(t *testing.T) {
	events := readLog(t, compactionLog)
	eager := transcript.Options{EagerSteps: true}
	for _, tc := range []struct {
		fixture  string
		seqs     int // events 0..seqs-1
		width    int
		from, to int
	}{
		{"surface-before-compaction", 6, 80, 3, 18},
		{"surface-after-compaction-narrow", 7, 44, 3, 20},
		{"surface-after-compaction-wide", 7, 104, 3, 19},
		{"surface-replayed-compaction", 7, 104, 3, 19},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			tr := transcript.Project(events[:tc.seqs], eager)
			doc := Render(tr, Settings{Width: tc.width, Presenters: staticBash(), Now: ms("2026-07-21 14:40:00")})
			checkWidths(t, doc.Lines, tc.width)
			compareRows(t, screen.Decode(doc.Lines), upstreamRows(t, tc.fixture, tc.from, tc.to), nil)
		})
	}
}

func step(seq int64, turn, stp int64, settled bool, blocks ...transcript.Block) transcript.Item {
	return transcript.Item{ID: transcript.ItemID{Seq: seq}, Kind: transcript.KindStep,
		Step: &transcript.Step{Turn: turn, Step: stp, Settled: settled, Blocks: blocks}}
}

func text(s string) transcript.Block      { return transcript.Block{Type: "text", Text: s} }
func reasoning(s string) transcript.Block { return transcript.Block{Type: "reasoning", Text: s} }

func footer(seq int64, turn, stp int64, timing transcript.Timing, completedAt int64) transcript.Item {
	return transcript.Item{ID: transcript.ItemID{Seq: seq, Part: transcript.PartFooter}, Kind: transcript.KindFooter,
		Footer: &transcript.Footer{Turn: turn, Step: stp, Timing: timing, Completed: completedAt != 0, CompletedAt: completedAt}}
}

func prompt(seq int64, s string) transcript.Item {
	return transcript.Item{ID: transcript.ItemID{Seq: seq}, Kind: transcript.KindPrompt,
		Prompt: &transcript.Prompt{Header: "You", Text: s}}
}

func toolCard(seq int64, name, args string, result *string, isError bool) transcript.Item {
	tc := &transcript.ToolCard{CallID: name, Name: name, Arguments: args}
	if result != nil {
		tc.HasResult, tc.IsError = true, isError
		tc.Result = []sessionlog.ContentBlock{{Type: "text", Text: *result}}
	}
	return transcript.Item{ID: transcript.ItemID{Seq: seq}, Kind: transcript.KindToolCard, Tool: tc}
}

func ptr[T any](v T) *T { return &v }

// TestConformanceUntrustedControls renders untrusted-controls' transcript
// (terminal.md §6): the probe in reasoning, text, user text, the tool
// card's description, command, cwd, output and signal, the context label
// and body, and the turn error, all shown as literal \xNN text.
func TestConformanceUntrustedControls(t *testing.T) {
	unsafe := func(c cards.ToolCall) cards.CardView {
		return cards.CardView{Terminal: &cards.TerminalView{Title: "Unsafe title " + probe,
			Description: "Unsafe description " + probe, Cwd: "/unsafe/" + probe,
			Output: "Unsafe output " + probe, Signal: "SIG" + probe}}
	}
	tr := transcript.Transcript{Items: []transcript.Item{
		step(1, 1, 1, true, reasoning("Unsafe reasoning "+probe), text("Unsafe assistant "+probe)),
		footer(1, 1, 1, transcript.Timing{}, 0),
		prompt(3, "Unsafe user "+probe),
		step(4, 1, 1, true, transcript.Block{Type: "tool-call"}),
		toolCard(5, "unsafe", "{}", ptr("ignored"), false),
		footer(4, 1, 1, transcript.Timing{}, ms("2026-07-21 15:00:00")),
		{ID: transcript.ItemID{Seq: 8}, Kind: transcript.KindContext,
			Context: &transcript.ContextCard{Label: "unsafe-" + probe, Text: "Unsafe context " + probe}},
		{ID: transcript.ItemID{Seq: 9}, Kind: transcript.KindNotice,
			Notice: &transcript.Notice{Level: transcript.LevelError, Text: "Unsafe turn error " + probe}},
	}}
	doc := Render(tr, Settings{Width: 100, Presenters: cards.DefaultPresenters().With("unsafe", unsafe)})
	checkWidths(t, doc.Lines, 100)
	compareRows(t, screen.Decode(doc.Lines), upstreamRows(t, "untrusted-controls", 3, 25), nil)
}

// TestConformanceStepTiming renders step-timing-completed: the reasoning
// label and body, the text and the completed footer with all buckets.
func TestConformanceStepTiming(t *testing.T) {
	start := ms("2026-07-21 14:32:06")
	tr := transcript.Transcript{Items: []transcript.Item{
		step(1, 1, 1, true, reasoning("Checking the result."), text("The result is ready.")),
		footer(1, 1, 1, transcript.Timing{WaitMs: 1000, ThinkingMs: 2000, RespondingMs: 3000}, start+6000),
	}}
	doc := Render(tr, Settings{Width: 96})
	compareRows(t, screen.Decode(doc.Lines), upstreamRows(t, "step-timing-completed", 3, 8), nil)
}

// TestConformanceSessionReference renders session-reference's transcript.
func TestConformanceSessionReference(t *testing.T) {
	tr := transcript.Transcript{Items: []transcript.Item{
		prompt(2, "Use @Source session"),
		{ID: transcript.ItemID{Seq: 3}, Kind: transcript.KindSessionRef,
			SessionRef: &transcript.SessionRef{Entries: []string{"Source session (source-session)"}}},
		step(4, 1, 1, true, text("Combined reference request accepted.")),
		footer(4, 1, 1, transcript.Timing{}, ms("2026-07-21 12:30:00")),
	}}
	doc := Render(tr, Settings{Width: 96})
	compareRows(t, screen.Decode(doc.Lines), upstreamRows(t, "session-reference", 3, 11), nil)
}

// TestConformanceHiddenFolded renders tool-cards-hidden-folded in hidden
// mode: one Assistant header per turn, the tool card and the empty second
// block vanish, step 1/2 is a folded continuation. Upstream's rows 14–17
// are the visibility notices, which dshtest shows on the status line
// (terminal.md §11.4), so the document ends at row 13.
func TestConformanceHiddenFolded(t *testing.T) {
	done := ms("2026-07-29 22:30:00")
	tr := transcript.Transcript{Items: []transcript.Item{
		step(2, 1, 1, true, text("Inspecting the renderer first.")),
		footer(2, 1, 1, transcript.Timing{}, 0),
		prompt(3, "Refactor the renderer."),
		step(4, 1, 1, true, transcript.Block{Type: "tool-call"}),
		toolCard(5, "bash", `{"command":"ls"}`, ptr("out"), false),
		footer(4, 1, 1, transcript.Timing{}, done),
		step(8, 1, 2, true, text("The renderer is sound; no refactor needed.")),
		footer(8, 1, 2, transcript.Timing{}, done),
	}}
	doc := Render(tr, Settings{Width: 100, Tools: display.ToolsHidden, MaxToolOutputLines: 3, Presenters: staticBash()})
	compareRows(t, screen.Decode(doc.Lines), upstreamRows(t, "tool-cards-hidden-folded", 3, 13), nil)
}

// advancedCards is the advanced-cards scenario's transcript: six cards of
// one tool-call-only step, with presenters standing in for upstream's.
func advancedCards() (transcript.Transcript, *cards.Presenters) {
	args := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	p := staticBash().WithMaxDiffEditLength(2).
		With("subagent", func(cards.ToolCall) cards.CardView {
			return cards.CardView{Generic: &cards.GenericView{Title: "Delegate renderer audit",
				Lines: []string{"The renderer has explicit lifecycle ownership."}}}
		}).
		With("task_output", func(cards.ToolCall) cards.CardView {
			return cards.CardView{Generic: &cards.GenericView{Title: "Read output from background task subagent-7",
				Lines: []string{"", "```console", "started background task bash-5", "```", ""}}}
		}).
		With("skill", func(cards.ToolCall) cards.CardView {
			return cards.CardView{Generic: &cards.GenericView{Title: "Load skill dsh-code-review",
				Lines: []string{"Loaded review instructions."}}}
		}).
		With("edit", cards.EditPresenter).
		With("large_edit", cards.EditPresenter)
	ok := ptr("ok")
	tr := transcript.Transcript{Items: []transcript.Item{
		step(1, 1, 1, true, transcript.Block{Type: "tool-call"}),
		toolCard(3, "bash", "{}", ok, false),
		toolCard(4, "edit", args(map[string]string{"path": "src/view.ts",
			"oldText": "old line\nkeep", "newText": "new line\nkeep"}), ok, false),
		toolCard(5, "subagent", "{}", ok, false),
		toolCard(6, "task_output", "{}", ok, false),
		toolCard(7, "skill", "{}", ok, false),
		toolCard(8, "large_edit", args(map[string]string{"path": "src/large.ts",
			"oldText": "old one\nold two\nold three", "newText": "new one\nnew two\nnew three"}), ok, false),
		footer(1, 1, 1, transcript.Timing{Open: transcript.BucketTools, OpenSince: 1000}, 0),
	}}
	return tr, p
}

// TestConformanceAdvancedCards renders advanced-cards-collapsed and
// -expanded: terminal, diff (exact and approximate) and generic cards
// (with a Markdown code block), folded at 3 lines, and expanded.
func TestConformanceAdvancedCards(t *testing.T) {
	tr, p := advancedCards()
	for _, tc := range []struct {
		fixture  string
		tools    display.ToolMode
		from, to int
		known    map[int]string
	}{
		{"advanced-cards-collapsed", display.ToolsCollapsed, 3, 37, nil},
		// Upstream's expanded rows 48–49 are the UI notice, which dshtest
		// shows on the status line (§11.4).
		{"advanced-cards-expanded", display.ToolsExpanded, 3, 47, nil},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			doc := Render(tr, Settings{Width: 100, Tools: tc.tools, MaxToolOutputLines: 3,
				Presenters: p, Now: 1000})
			checkWidths(t, doc.Lines, 100)
			compareRows(t, screen.Decode(doc.Lines), upstreamRows(t, tc.fixture, tc.from, tc.to), tc.known)
		})
	}
}

// TestDisplayTextMatchesUntrustedControls checks the escaper against every
// probe-carrying transcript row of upstream's untrusted-controls snapshot.
func TestDisplayTextMatchesUntrustedControls(t *testing.T) {
	rows := upstreamRows(t, "untrusted-controls", 3, 25)
	prefixes := map[int]string{6: "Unsafe reasoning ", 7: "Unsafe assistant ", 11: "Unsafe user ",
		15: "● Tool / unsafe / Unsafe description ", 16: "$ Unsafe title ", 17: "/unsafe/",
		18: "Unsafe output ", 22: "Context · unsafe-", 23: "Unsafe context ", 25: "Unsafe turn error "}
	for row, prefix := range prefixes {
		want := rows[row-3].TrimRight()
		if got := prefix + display.EscapeInline(probe); got != want {
			t.Errorf("row %d: got %q, want %q", row, got, want)
		}
	}
	if got, want := "[signal SIG"+display.EscapeInline(probe)+"]", rows[19-3].TrimRight(); got != want {
		t.Errorf("row 19: got %q, want %q", got, want)
	}
}
