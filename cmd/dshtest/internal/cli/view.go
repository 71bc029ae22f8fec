package cli

import (
	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/viewer"
	"github.com/dshtest/dshtest/transcript"
)

func (a *app) viewCommand() *cobra.Command {
	var lfl logFlags
	var (
		df      displayFlags
		surface bool
	)
	cmd := &cobra.Command{
		Use:   "view [LOG | --session ID]",
		Short: "Open a log in the real transcript renderer (or page the model's view of it)",
		Long: `view opens the log in the terminal renderer the scenarios pin, full screen on
the alternate screen, mounted on the stored log (the replay path). Keys are
the renderer's:

  Ctrl+R     show or hide reasoning blocks
  Ctrl+O     tool and context cards: collapsed → expanded → hidden
  PgUp/PgDn  scroll a page; Home/End: top, or follow the tail
  q          quit

--surface pages through what the model sees instead: the messages of
deriveMessages in surface order, in the same block format as
"render --projection surface" (q quit, PgUp/PgDn, Up/Down, Home/End).

A long log opens at once: what is not read within a quarter of a second is
read behind the screen ("reading 42%" on the status line) and reaches the
renderer through the live path, the one a running session takes, while the
keys work; the screen it ends on is the replay's. A refusal found on the way
stays on the status line; q then prints it, as render would, and view exits
with its code.

The clock is frozen at the last event's time, as in render (while a long
log is read, at the last event read). view needs a terminal; use render to
print. With LOG "-" the log is read from standard input and the keys from
the terminal (/dev/tty), as a pager reads them.`,
		Example: `  dshtest view session.jsonl
  dshtest view session.jsonl --tools expanded --reasoning off
  dshtest view session.jsonl --surface`,
		Args: logArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			df.width = 80
			s, opts, err := df.settings(0)
			if err != nil {
				return err
			}
			proj, projName, err := a.projectionFor()
			if err != nil {
				return err
			}
			if surface || !a.isTTY(a.stdout) {
				lf, err := a.readLog(args, &lfl, nil)
				if err != nil {
					return err
				}
				if !a.isTTY(a.stdout) {
					return usagef("view needs a terminal on standard output; use dshtest render %s to print", lf.Path)
				}
				in, done, err := a.keys(args)
				if err != nil {
					return err
				}
				defer done()
				a.releaseStdin()
				return runViewer(viewer.SurfacePager(load.SessionID(lf.Header, lf.Path), lf.Session.DeriveMessages(), 80, 24), in, underlying(a.stdout))
			}
			return a.viewLog(args, &lfl, s, opts, proj, projName == "transcript")
		}),
	}
	df.register(cmd.Flags(), false)
	cmd.Flags().BoolVar(&surface, "surface", false, "page through the model's view (the surface messages) instead")
	lfl.register(cmd.Flags())
	return cmd
}

// transcriptModel is the terminal renderer view shows, mounted on log
// with the clock now returns. Every log-derived string in it goes through
// the one escaper.
func transcriptModel(id string, log []sessionlog.Event, replayOnly bool, s terminal.Settings, opts transcript.Options, proj terminal.Projection, now func() int64) *terminal.Model {
	return terminal.New(terminal.Config{
		SessionID:          id,
		Log:                log,
		ReplayOnly:         replayOnly,
		Width:              80,
		Height:             24,
		Scheme:             s.Scheme,
		HideReasoning:      s.HideReasoning,
		Tools:              s.Tools,
		Transcript:         opts,
		Projection:         proj,
		MaxToolOutputLines: s.MaxToolOutputLines,
		Clock:              now,
	})
}
