package cli

import (
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
			// Held until the log has read to its end: a refusal prints
			// nothing on stdout.
			var out bytes.Buffer
			var line []byte
			var encErr error
			lg, err := a.readLog(args, &lfl, func(e *sessionlog.Event) {
				if encErr != nil {
					return
				}
				if line, encErr = jsonl.AppendEvent(line[:0], e); encErr == nil {
					out.Write(display.EscapeJSON(line))
					out.WriteByte('\n')
				}
			})
			if err != nil {
				return err
			}
			if encErr != nil {
				return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: lg.Path, Seq: -1}, encErr.Error(), encErr)
			}
			if withHeader && lg.Header != nil {
				var h bytes.Buffer
				if err := jsonl.NewEncoder(&h).EncodeHeader(lg.Header); err != nil {
					return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: lg.Path, Seq: -1}, err.Error(), err)
				}
				if _, err := a.stdout.Write(display.EscapeJSON(h.Bytes())); err != nil {
					return err
				}
			}
			_, err = a.stdout.Write(out.Bytes())
			return err
		}),
	}
	cmd.Flags().BoolVar(&withHeader, "header", false, "print the log's session header line first (when it has one)")
	lfl.register(cmd.Flags())
	return cmd
}
