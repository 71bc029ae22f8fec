package cli

import (
	"bufio"
	"bytes"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal/display"
)

func (a *app) eventsCommand() *cobra.Command {
	var lfl logFlags
	var withHeader bool
	cmd := &cobra.Command{
		Use:   "events [LOG | --session ID]",
		Short: "Print a log's events as dshtest read them, one JSON object a line",
		Long: `events prints the events of a log as the reader understood them: decoded
from whatever form the log came in, older shapes upgraded as upstream's
loader upgrades them, packed chunk rows expanded, and, for a log that ends
inside a turn, the synthetic closers appended (--no-recover: none). Each
event is one line of JSON in dshtest's own form (type, seq, time, data,
surfaceOp, sourceEventSeqs, ignorable), which every dshtest command reads
back as the same events.

LOG is any form the reader accepts (see dshtest check --help). The output
has no session header line; --header keeps the log's, when it has one, as
the first line. A log that cannot be read prints nothing and exits 2.`,
		Example: `  dshtest events session.jsonl.zstd > session.jsonl
  dshtest events export.zip --subagent child-1 --header
  dshtest events sessions.db --session s-one --no-recover | jq -c 'select(.type == "user/message")'`,
		Args: logArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.printEvents(args, &lfl, withHeader)
		}),
	}
	cmd.Flags().BoolVar(&withHeader, "header", false, "print the log's session header line first (when it has one)")
	lfl.register(cmd.Flags())
	return cmd
}

// heldOutput is output held in blocks of a mebibyte: a buffer grown by
// doubling would, as it grows, hold half as much again.
type heldOutput struct {
	blocks [][]byte
	n      int
}

func (h *heldOutput) Write(b []byte) {
	for len(b) > 0 {
		if len(h.blocks) == 0 || len(h.blocks[len(h.blocks)-1]) == cap(h.blocks[len(h.blocks)-1]) {
			h.blocks = append(h.blocks, make([]byte, 0, 1<<20))
		}
		last := &h.blocks[len(h.blocks)-1]
		k := min(len(b), cap(*last)-len(*last))
		*last = append(*last, b[:k]...)
		b = b[k:]
		h.n += k
	}
}

// printEvents prints the log's events, and its header line first with
// withHeader. Nothing is printed for a log it refuses: the output is held
// until the log has read to its end, or, once it outgrows what it may
// hold (holdsTooMuch), the read goes on only to check the log, and the
// events are read again, unchanged, and printed as they come.
func (a *app) printEvents(args []string, f *logFlags, withHeader bool) error {
	lf, err := a.openLog(args, f, readBudget, false, true)
	if err != nil {
		return err
	}
	defer lf.Close()
	var (
		out    heldOutput
		line   []byte
		encErr error
		again  bool // the output was given up: the events are read again
	)
	encode := func(write func([]byte), e *sessionlog.Event) {
		if line, encErr = jsonl.AppendEvent(line[:0], e); encErr == nil {
			line = append(display.EscapeJSON(line), '\n')
			write(line)
		}
	}
	lg, src, err := a.readHeld(lf, f, func(e *sessionlog.Event) bool {
		if again || encErr != nil {
			return true // the rest is checked, not printed
		}
		encode(out.Write, e)
		if holdsTooMuch(lf, int64(out.n)) {
			again, out = true, heldOutput{}
		}
		return true
	})
	if err != nil {
		return err
	}
	if encErr != nil {
		return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: lg.Path, Seq: -1}, encErr.Error(), encErr)
	}
	w := bufio.NewWriterSize(a.stdout, 64<<10)
	if withHeader && lg.Header != nil {
		var h bytes.Buffer
		if err := jsonl.NewEncoder(&h).EncodeHeader(lg.Header); err != nil {
			return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: lg.Path, Seq: -1}, err.Error(), err)
		}
		w.Write(display.EscapeJSON(h.Bytes()))
	}
	if !again {
		for _, b := range out.blocks {
			w.Write(b)
		}
		return w.Flush()
	}
	write := func(b []byte) { w.Write(b) }
	if err := src(func(e *sessionlog.Event) bool { encode(write, e); return encErr == nil }); err != nil {
		return a.inputErr(err, f)
	}
	return w.Flush()
}
