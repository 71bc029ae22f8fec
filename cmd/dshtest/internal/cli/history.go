package cli

import (
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
			// One pass that keeps only what may be on the page; a page the
			// pager cannot keep (a source far back in the log) pages the
			// whole log, read again.
			pager := history.NewPager(before, maxMessages)
			lf, err := a.readLog(args, &lfl, pager.Add)
			if err != nil {
				return err
			}
			page, ok := pager.Page()
			if !ok {
				// Read again, its warnings printed once already.
				again, err := a.openLog(args, &lfl, readBudget, false, false)
				if err != nil {
					return err
				}
				defer again.Close()
				if lf, err = again.Collect(true); err != nil {
					return a.inputErr(err, &lfl)
				}
				page = history.New(lf.Events).Page(before, maxMessages)
			}
			if asJSON {
				return writeJSONOneLine(a.stdout, pageJSON(lf.Path, before, maxMessages, page))
			}
			writePage(a.stdout, lf.Path, lfl.again(cmd.Flags(), len(args) > 0), maxMessages, page)
			return nil
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

func pageJSON(path string, before int64, maxMessages int, p history.Page) pageOut {
	out := pageOut{File: path, MaxMessages: maxMessages, From: p.From, To: p.To, HasMore: p.HasMore,
		Counted: countedSeqs(p), Events: []json.RawMessage{}}
	if before >= 0 {
		out.BeforeSeq = &before
	}
	if p.HasMore {
		out.NextBeforeSeq = &p.From
	}
	for i := range p.Events {
		b, err := jsonl.AppendEvent(nil, &p.Events[i])
		if err == nil {
			out.Events = append(out.Events, b)
		}
	}
	return out
}

// countedSeqs lists the page's counted messages, newest first.
func countedSeqs(p history.Page) []int64 {
	seqs := []int64{}
	for i := len(p.Events) - 1; i >= 0; i-- {
		e := &p.Events[i]
		if (e.Type == sessionlog.TypeUserMessage || e.Type == sessionlog.TypeAssistantMessage) && sessionlog.IsAppendSurfaceEvent(e) {
			seqs = append(seqs, e.Seq)
		}
	}
	return seqs
}

// writePage prints page p of the log at path; flags are the log's flags
// for the command of the next older page (logFlags.again).
func writePage(w io.Writer, path, flags string, maxMessages int, p history.Page) {
	if len(p.Events) == 0 {
		fmt.Fprintf(w, "empty page (before seq %d), hasMore %t\n", p.From, p.HasMore)
		return
	}
	counted := countedSeqs(p)
	strs := make([]string, len(counted))
	for i, s := range counted {
		strs[i] = fmt.Sprint(s)
	}
	fmt.Fprintf(w, "page seqs %d–%d (%d events), hasMore %t; counted %d: %s\n",
		p.From, p.To, len(p.Events), p.HasMore, len(counted), strings.Join(strs, ", "))
	for i := range p.Events {
		fmt.Fprintf(w, "  %s\n", summary.Describe(&p.Events[i]))
	}
	if p.HasMore {
		fmt.Fprintf(w, "older: dshtest history %s%s --max %d --before %d\n", esc(path), esc(flags), maxMessages, p.From)
	}
}

// quoteNoHTML is s as a JSON string (screen.Quote: "<", ">" and "&" stay
// readable) with the characters Go's encoder leaves raw escaped too
// (display.EscapeJSON: C1, BiDi and tag characters).
func quoteNoHTML(s string) string { return string(display.EscapeJSON([]byte(screen.Quote(s)))) }

// maxHistoryMessages bounds --max: a page of more messages than any log
// holds is a typo, not a request.
const maxHistoryMessages = 1_000_000
