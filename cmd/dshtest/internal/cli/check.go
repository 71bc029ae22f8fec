package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/surface"
)

func (a *app) checkCommand() *cobra.Command {
	var lfl logFlags
	var asJSON, strict bool
	cmd := &cobra.Command{
		Use:   "check [LOG | --session ID]",
		Short: "Validate a session log and summarise it",
		Long: `check decodes a session log (either vocabulary, with or without upstream's
session header line and packed chunk rows), runs the load-time checks and
the surface fold, and prints a summary: events, types, turns, compactions
and the model surface. A log that fails prints one line naming file:line
and exits 2.

LOG is any form the reader accepts, detected by content: raw JSONL,
.jsonl.zstd (upstream's frames, or a log compressed with the zstd command:
the summary names the framing), a session directory, a web export zip (--subagent ID selects a
subagent's log; the summary lists them), a SQLite database (--session ID),
or, with --session ID and no LOG, the session in the store; "-" reads it
from standard input. The summary says
how many events the load-time upgrades changed and which events are the
synthetic closers of a log that ends inside a turn (--no-recover: none).
A torn tail, a byte-order mark or a retired header field is a warning on
stderr; --strict makes any warning exit 1.`,
		Example: `  dshtest check session.jsonl
  dshtest check session.jsonl --json | jq .surface`,
		Args: logArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			t := newTally()
			lf, err := a.readLog(args, &lfl, t.add)
			if err != nil {
				if asJSON {
					writeJSONError(a.stdout, logName(args, &lfl), err)
				}
				return err
			}
			sum := summarize(lf, t, lf.Surface)
			if asJSON {
				if err := writeJSON(a.stdout, sum); err != nil {
					return err
				}
			} else {
				sum.print(a.stdout)
			}
			if strict && len(sum.Warnings) > 0 {
				return errFailed
			}
			return nil
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 when the log reads only with a warning (for CI)")
	lfl.register(cmd.Flags())
	return cmd
}

// logSummary is what check reports about a valid log.
type logSummary struct {
	File       string         `json:"file"`
	OK         bool           `json:"ok"`
	Events     int            `json:"events"`
	Header     *headerSummary `json:"header,omitempty"`
	Form       string         `json:"form"`
	Framing    *framing       `json:"framing,omitempty"`
	Upgraded   int            `json:"upgraded"`
	Synthetic  []string       `json:"synthetic"`
	Subagents  []string       `json:"subagents,omitempty"`
	Warnings   []string       `json:"warnings"`
	Vocabulary string         `json:"vocabulary"`
	Types      map[string]int `json:"types"`
	Turns      int            `json:"turns"`
	Messages   struct {
		Prompts     int `json:"prompts"`
		Assistant   int `json:"assistant"`
		ToolResults int `json:"toolResults"`
		Context     int `json:"context"`
	} `json:"messages"`
	Replacements struct {
		Checkpoints int `json:"checkpoints"`
		Pruned      int `json:"prunedToolResults"`
		Regenerated int `json:"regeneratedAssistant"`
		Other       int `json:"other"`
	} `json:"replacements"`
	Compactions struct {
		Landed int `json:"landed"`
		Failed int `json:"failed"`
		Open   int `json:"open"`
	} `json:"compactions"`
	Surface struct {
		Nodes      int `json:"nodes"`
		Messages   int `json:"messages"`
		Generation int `json:"generation"`
	} `json:"surface"`
}

// framing is how a Zstandard log's frames cut its text.
type framing struct {
	// Kind is container.Framing: "header+batches" (upstream's) or
	// "stream" (one frame of the whole log, or frames cut anywhere).
	Kind   string `json:"kind"`
	Frames int    `json:"frames"`
}

// text is framing's line in check's summary.
func (f *framing) text() string {
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch container.Framing(f.Kind) {
	case container.FramingBatches:
		return fmt.Sprintf("a header frame, then %s (as dsh writes it)", plural(f.Frames-1, "batch frame"))
	case container.FramingStream:
		if f.Frames == 1 {
			return "one frame of the whole log (as the zstd command writes it)"
		}
		return plural(f.Frames, "frame") + " read as one stream of text"
	}
	return f.Kind
}

type headerSummary struct {
	ID      string `json:"id,omitempty"`
	Version int64  `json:"version"`
}

// tally is the part of check's summary read event by event, so that check
// keeps no event: it is fed as the log is read.
type tally struct {
	s            logSummary // the counting fields only
	older, newer bool
	open         map[string]int // compaction id ("" for older logs) → open starts
}

func newTally() *tally {
	return &tally{s: logSummary{Types: map[string]int{}}, open: map[string]int{}}
}

// add counts one event.
func (t *tally) add(e *sessionlog.Event) {
	s := &t.s
	s.Events++
	s.Types[e.Type]++
	switch {
	case strings.HasPrefix(e.Type, "compact/"), e.Type == sessionlog.TypeSteeringMessage,
		e.Type == sessionlog.TypeTurnStart && hasKey(e.Data, "trigger"):
		t.older = true
	case strings.HasPrefix(e.Type, "compaction/"), e.Ignorable:
		t.newer = true
	}
	switch sessionlog.Canonical(e.Type) {
	case sessionlog.TypeTurnStart:
		s.Turns++
	case sessionlog.TypeCompactionStart:
		var d sessionlog.CompactionStartData
		_ = json.Unmarshal(e.Data, &d)
		t.open[d.CompactionID]++
	case sessionlog.TypeCompactionEnd:
		var d sessionlog.CompactionEndData
		_ = json.Unmarshal(e.Data, &d)
		if t.open[d.CompactionID] > 0 {
			t.open[d.CompactionID]--
		}
		if d.Error != "" {
			s.Compactions.Failed++
		}
	}
	switch {
	case sessionlog.IsAppendSurfaceEvent(e):
		switch e.Type {
		case sessionlog.TypeUserMessage, sessionlog.TypeSteeringMessage:
			if e.Type == sessionlog.TypeSteeringMessage || isHumanPrompt(e) {
				s.Messages.Prompts++
			} else {
				s.Messages.Context++
			}
		case sessionlog.TypeAssistantMessage:
			s.Messages.Assistant++
		case sessionlog.TypeToolResult:
			s.Messages.ToolResults++
		}
	case sessionlog.IsCheckpoint(e):
		s.Replacements.Checkpoints++
		s.Compactions.Landed++
	case sessionlog.IsReplacementSurfaceEvent(e):
		switch e.Type {
		case sessionlog.TypeToolResult:
			s.Replacements.Pruned++
		case sessionlog.TypeAssistantMessage:
			s.Replacements.Regenerated++
		default:
			s.Replacements.Other++
		}
	}
}

// summarize is check's summary of a log read with t fed its events and sf
// its folded surface.
func summarize(lf *load.Log, t *tally, sf *surface.Surface) *logSummary {
	s := &t.s
	s.File, s.OK, s.Synthetic, s.Warnings = lf.Path, true, []string{}, []string{}
	if r := lf; r != nil {
		s.Form = string(r.Form)
		if s.Form == "" {
			s.Form = "jsonl (no session header)"
		}
		if r.Framing != "" {
			s.Framing = &framing{Kind: string(r.Framing), Frames: r.Frames}
		}
		s.Upgraded = r.Upgraded
		for _, c := range r.Closers {
			d := fmt.Sprintf("seq %d %s", c.Seq, c.Kind) // Kind names the type
			if c.CallID != "" {
				d += " for call " + strconv.Quote(c.CallID)
			}
			s.Synthetic = append(s.Synthetic, d)
		}
		s.Subagents = r.Subagents
		for _, w := range r.Warnings {
			s.Warnings = append(s.Warnings, w.String())
		}
	}
	if lf.Header != nil {
		var h headerSummary
		_ = json.Unmarshal(lf.Header, &h)
		s.Header = &h
	}
	for _, n := range t.open {
		s.Compactions.Open += n
	}
	switch {
	case t.older && t.newer:
		s.Vocabulary = "mixed"
	case t.older:
		s.Vocabulary = "older (compact/*)"
	case t.newer:
		s.Vocabulary = "newer (compaction/*)"
	default:
		s.Vocabulary = "unknown (no generation-specific events)"
	}
	s.Surface.Nodes = sf.Len()
	s.Surface.Messages = len(sf.DeriveMessages())
	s.Surface.Generation = sf.Generation()
	return s
}

// isHumanPrompt reports whether a user/message comes from the human.
func isHumanPrompt(e *sessionlog.Event) bool {
	var m struct {
		Source json.RawMessage `json:"source"`
	}
	if json.Unmarshal(e.Data, &m) != nil {
		return false
	}
	return sessionlog.DecodeSource(m.Source).Kind == "user"
}

func (s *logSummary) print(w io.Writer) {
	fmt.Fprintf(w, "%s: ok\n", esc(s.File))
	row := func(k, format string, args ...any) {
		fmt.Fprintf(w, "  %-13s %s\n", k, fmt.Sprintf(format, args...))
	}
	if s.Events == 0 {
		row("events", "0 (an empty session)")
	} else {
		row("events", "%d (seqs 0–%d)", s.Events, s.Events-1)
	}
	if s.Header != nil {
		row("header", "session %s, version %d", quoteNoHTML(s.Header.ID), s.Header.Version)
	}
	if s.Form != "" {
		row("form", "%s", s.Form)
	}
	if s.Framing != nil {
		row("framing", "%s", s.Framing.text())
	}
	row("upgraded", "%d events from older shapes", s.Upgraded)
	if len(s.Synthetic) > 0 {
		row("synthetic", "%d closers appended (the log ends inside a turn; --no-recover: none): %s",
			len(s.Synthetic), strings.Join(s.Synthetic, ", "))
	}
	if len(s.Subagents) > 0 {
		row("subagents", "%s (read one with --subagent ID)", strings.Join(s.Subagents, ", "))
	}
	if len(s.Warnings) > 0 {
		row("warnings", "%d (on stderr)", len(s.Warnings))
	}
	row("vocabulary", "%s", s.Vocabulary)
	row("turns", "%d", s.Turns)
	row("messages", "%d prompts, %d assistant, %d tool results, %d context (append-origin)",
		s.Messages.Prompts, s.Messages.Assistant, s.Messages.ToolResults, s.Messages.Context)
	r := s.Replacements
	row("replacements", "%d checkpoints, %d pruned tool results, %d regenerated assistant, %d other",
		r.Checkpoints, r.Pruned, r.Regenerated, r.Other)
	row("compactions", "%d landed, %d failed, %d open", s.Compactions.Landed, s.Compactions.Failed, s.Compactions.Open)
	row("surface", "%d nodes, %d model messages, generation %d", s.Surface.Nodes, s.Surface.Messages, s.Surface.Generation)
	types := make([]string, 0, len(s.Types))
	for t := range s.Types {
		types = append(types, t)
	}
	sort.Strings(types)
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s %d", esc(t), s.Types[t])
	}
	row("types", "%s", strings.Join(parts, ", "))
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	b, err := encodeJSON(v, true)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// writeJSONError writes the machine form of a bad-input error.
func writeJSONError(w io.Writer, path string, err error) {
	out := struct {
		File  string `json:"file"`
		OK    bool   `json:"ok"`
		Error string `json:"error"`
		Line  int    `json:"line,omitempty"`
		Seq   *int64 `json:"seq,omitempty"`
	}{File: path, Error: err.Error()}
	var ie *sessionlog.Error
	if errors.As(err, &ie) {
		out.Line = ie.Line
		if ie.Seq >= 0 {
			out.Seq = &ie.Seq
		}
	}
	_ = writeJSON(w, out)
}

// hasKey reports whether the JSON object raw has key.
func hasKey(raw json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}
