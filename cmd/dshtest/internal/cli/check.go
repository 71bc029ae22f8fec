package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/load/summary"
	"github.com/dshtest/dshtest/sessionlog"
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
			t := summary.NewTally()
			lf, err := a.readLogSurface(args, &lfl, t.Add)
			if err != nil {
				if asJSON {
					writeJSONError(a.stdout, logName(args, &lfl), err)
				}
				return err
			}
			sum := t.Summarize(lf, lf.Surface)
			if asJSON {
				if err := writeJSON(a.stdout, sum); err != nil {
					return err
				}
			} else {
				printLogSummary(a.stdout, sum)
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

// printLogSummary prints check's summary of a log.
func printLogSummary(w io.Writer, s *summary.Summary) {
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
		row("framing", "%s", s.Framing.Text())
	}
	row("upgraded", "%s from older shapes", words.Plural(s.Upgraded, "event"))
	if len(s.Synthetic) > 0 {
		row("synthetic", "%s appended (the log ends inside a turn; --no-recover: none): %s",
			words.Plural(len(s.Synthetic), "closer"), strings.Join(s.Synthetic, ", "))
	}
	if len(s.Subagents) > 0 {
		subs := make([]string, len(s.Subagents))
		for i, id := range s.Subagents {
			subs[i] = esc(id) // a zip member's name: the log's text
		}
		row("subagents", "%s (read one with --subagent ID)", strings.Join(subs, ", "))
	}
	if len(s.Warnings) > 0 {
		row("warnings", "%d (on stderr)", len(s.Warnings))
	}
	row("vocabulary", "%s", s.Vocabulary)
	row("turns", "%d", s.Turns)
	row("messages", "%s, %d assistant, %s, %d context (append-origin)",
		words.Plural(s.Messages.Prompts, "prompt"), s.Messages.Assistant, words.Plural(s.Messages.ToolResults, "tool result"), s.Messages.Context)
	r := s.Replacements
	row("replacements", "%s, %s, %d regenerated assistant, %d other",
		words.Plural(r.Checkpoints, "checkpoint"), words.Plural(r.Pruned, "pruned tool result"), r.Regenerated, r.Other)
	row("compactions", "%d landed, %d failed, %d open", s.Compactions.Landed, s.Compactions.Failed, s.Compactions.Open)
	row("surface", "%s, %s, generation %d", words.Plural(s.Surface.Nodes, "node"), words.Plural(s.Surface.Messages, "model message"), s.Surface.Generation)
	types := make([]string, 0, len(s.Types))
	for t := range s.Types {
		types = append(types, t)
	}
	sort.Strings(types)
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s %d", esc(t), s.Types[t])
	}
	if len(parts) == 0 {
		parts = []string{"none"}
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
