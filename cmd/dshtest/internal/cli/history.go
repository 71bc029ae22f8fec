package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/load/summary"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal/display"
)

func (a *app) historyCommand() *cobra.Command {
	var lfl logFlags
	var (
		maxMessages int
		before      int64
		asJSON      bool
	)
	cmd := &cobra.Command{
		Use:   "history [LOG | --session ID] --max N [--before SEQ]",
		Short: "Print one page of session.history over a log",
		Long: `history prints one page of session.history (log.md §12): the contiguous raw
range of the log that holds the newest --max append-origin user and assistant
messages before --before (the tail page when --before is absent). Every event
type is on the page; replacement copies, tool results and log-only events are
never counted. The last line names the command for the next older page.`,
		Example: `  dshtest history session.jsonl --max 3
  dshtest history session.jsonl --max 3 --before 25
  dshtest history session.jsonl --max 50 --json`,
		Args: logArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if maxMessages < 1 || maxMessages > maxHistoryMessages {
				return usagef("--max %d: want 1 to %d messages", maxMessages, maxHistoryMessages)
			}
			if cmd.Flags().Changed("before") && before < 0 {
				return usagef("--before %d: want a seq ≥ 0", before)
			}
			if !cmd.Flags().Changed("before") {
				before = -1
			}
			return a.printHistory(args, &lfl, before, maxMessages, asJSON, cmd)
		}),
	}
	cmd.Flags().IntVar(&maxMessages, "max", history.DefaultMessages, "messages per page (maxMessages), 1 to "+strconv.Itoa(maxHistoryMessages))
	// No default is shown: absent means the tail page, and every value
	// given must be a seq ≥ 0.
	cmd.Flags().Int64Var(&before, "before", 0, "page before this seq ≥ 0 (beforeSeq); absent: the tail page")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the page as one JSON object (one line) with the raw events")
	lfl.register(cmd.Flags())
	return cmd
}

// printHistory prints the page. One pass keeps only what may be on the
// page (history.Pager). A page the pager cannot serve (a source far back in
// the log) pages the whole log, read again; a page whose events outgrow
// what history holds (holdsTooMuch) is printed as the log is read again,
// its events not held.
func (a *app) printHistory(args []string, f *logFlags, before int64, maxMessages int, asJSON bool, cmd *cobra.Command) error {
	lf, err := a.openLog(args, f, readBudget, false, true)
	if err != nil {
		return err
	}
	defer lf.Close()
	pager := history.NewPager(before, maxMessages)
	lg, src, err := a.readHeld(lf, f, func(e *sessionlog.Event) bool {
		if pager.Add(e); pager.Kept() && holdsTooMuch(lf, pager.Size()) {
			pager.GiveUp()
		}
		return true
	})
	if err != nil {
		return err
	}
	flags := f.again(cmd.Flags(), len(args) > 0)
	page, ok := pager.Page()
	switch {
	case !ok:
		// Read again, its warnings printed once already.
		again, err := a.openLog(args, f, readBudget, false, false)
		if err != nil {
			return err
		}
		defer again.Close()
		if lg, err = again.Collect(true); err != nil {
			return a.inputErr(err, f)
		}
		page = history.New(lg.Events).Page(before, maxMessages)
	case !pager.Kept():
		// The page's events are read again as they are printed.
		counted := pager.Counted()
		w := bufio.NewWriterSize(a.stdout, 64<<10)
		events := func(yield func(*sessionlog.Event) bool) error {
			return src(func(e *sessionlog.Event) bool {
				if e.Seq > page.To {
					return false
				}
				return e.Seq < page.From || yield(e)
			})
		}
		if asJSON {
			err = writePageJSON(w, pageJSON(lg.Path, before, maxMessages, page, counted), events)
		} else {
			err = writePage(w, lg.Path, flags, maxMessages, page, counted, events)
		}
		if err != nil {
			return a.inputErr(err, f)
		}
		return w.Flush()
	}
	events := func(yield func(*sessionlog.Event) bool) error {
		for i := range page.Events {
			if !yield(&page.Events[i]) {
				break
			}
		}
		return nil
	}
	if asJSON {
		return writePageJSON(a.stdout, pageJSON(lg.Path, before, maxMessages, page, page.Counted()), events)
	}
	return writePage(a.stdout, lg.Path, flags, maxMessages, page, page.Counted(), events)
}

// pageOut is history --json's page, but for its events (writePageJSON).
type pageOut struct {
	File          string            `json:"file"`
	BeforeSeq     *int64            `json:"beforeSeq,omitempty"`
	MaxMessages   int               `json:"maxMessages"`
	From          int64             `json:"from"`
	To            int64             `json:"to"`
	HasMore       bool              `json:"hasMore"`
	NextBeforeSeq *int64            `json:"nextBeforeSeq,omitempty"`
	Counted       []int64           `json:"counted"`
	Events        []json.RawMessage `json:"events"`
}

func pageJSON(path string, before int64, maxMessages int, p history.Page, counted []int64) pageOut {
	out := pageOut{File: path, MaxMessages: maxMessages, From: p.From, To: p.To, HasMore: p.HasMore,
		Counted: counted, Events: []json.RawMessage{}}
	if before >= 0 {
		out.BeforeSeq = &before
	}
	if p.HasMore {
		out.NextBeforeSeq = &p.From
	}
	return out
}

// writePageJSON writes the page as one line of JSON, its events as they
// come: out's own members, then each event, as encodeJSON would
// write out with them.
func writePageJSON(w io.Writer, out pageOut, events func(yield func(*sessionlog.Event) bool) error) error {
	b, err := encodeJSON(out, false)
	if err != nil {
		return err
	}
	head, ok := bytes.CutSuffix(b, []byte("]}\n")) // "events":[] ends it
	if !ok {
		return fmt.Errorf("history: the page's JSON does not end with its events")
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	var line []byte
	var compact bytes.Buffer
	var werr error
	first := true
	err = events(func(e *sessionlog.Event) bool {
		var aerr error
		if line, aerr = jsonl.AppendEvent(line[:0], e); aerr != nil {
			return true // as pageJSON left such an event out
		}
		compact.Reset()
		if json.Compact(&compact, line) != nil {
			return true
		}
		if !first {
			_, werr = w.Write([]byte(","))
		}
		first = false
		if werr == nil {
			_, werr = w.Write(display.EscapeJSON(compact.Bytes()))
		}
		return werr == nil
	})
	if err == nil {
		err = werr
	}
	if err == nil {
		_, err = w.Write([]byte("]}\n"))
	}
	return err
}

// writePage prints page p of the log at path, its events as they come, and
// counted its counted messages; flags are the log's flags for the command
// of the next older page (logFlags.again).
func writePage(w io.Writer, path, flags string, maxMessages int, p history.Page, counted []int64, events func(yield func(*sessionlog.Event) bool) error) error {
	if p.To < p.From {
		_, err := fmt.Fprintf(w, "empty page (before seq %d), hasMore %t\n", p.From, p.HasMore)
		return err
	}
	strs := make([]string, len(counted))
	for i, s := range counted {
		strs[i] = fmt.Sprint(s)
	}
	fmt.Fprintf(w, "page seqs %d–%d (%d events), hasMore %t; counted %d: %s\n",
		p.From, p.To, p.To-p.From+1, p.HasMore, len(counted), strings.Join(strs, ", "))
	if err := events(func(e *sessionlog.Event) bool {
		fmt.Fprintf(w, "  %s\n", summary.Describe(e))
		return true
	}); err != nil {
		return err
	}
	if p.HasMore {
		fmt.Fprintf(w, "older: dshtest history %s%s --max %d --before %d\n", esc(path), esc(flags), maxMessages, p.From)
	}
	return nil
}

// quoteNoHTML is s as a JSON string (screen.Quote: "<", ">" and "&" stay
// readable) with the characters Go's encoder leaves raw escaped too
// (display.EscapeJSON: C1, BiDi and tag characters).
func quoteNoHTML(s string) string { return string(display.EscapeJSON([]byte(screen.Quote(s)))) }

// maxHistoryMessages bounds --max: a page of more messages than any log
// holds is a typo, not a request.
const maxHistoryMessages = 1_000_000
