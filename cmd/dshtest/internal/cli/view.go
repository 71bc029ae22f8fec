package cli

import (
	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/viewer"
	"github.com/dshtest/dshtest/internal/invariant"
	"github.com/dshtest/dshtest/terminal"
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

The clock is frozen at the last event's time, as in render. view needs a
terminal; use render to print.`,
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
			proj, _, err := a.projectionFor()
			if err != nil {
				return err
			}
			lf, err := a.readLog(args, &lfl, readOptions{})
			if err != nil {
				return err
			}
			if !a.isTTY(a.stdout) {
				return usagef("view needs a terminal on standard output; use dshtest render %s to print", lf.Path)
			}
			return viewer.Run(viewModel(lf, surface, s, opts, proj), a.stdin, underlying(a.stdout))
		}),
	}
	df.register(cmd.Flags(), false)
	cmd.Flags().BoolVar(&surface, "surface", false, "page through the model's view (the surface messages) instead")
	lfl.register(cmd.Flags())
	return cmd
}

// viewModel is the full-screen model view shows for lf: the pager over the
// surface messages, or the terminal renderer mounted on the log. Every
// log-derived string in them goes through the one escaper.
func viewModel(lf *logFile, surface bool, s terminal.Settings, opts transcript.Options, proj terminal.Projection) tea.Model {
	if surface {
		return viewer.SurfacePager(sessionIDOf(lf), lf.Session.DeriveMessages(), 80, 24)
	}
	now := invariant.FrozenNow(lf.Events)
	return terminal.New(terminal.Config{
		SessionID:          sessionIDOf(lf),
		Log:                lf.Events,
		Width:              80,
		Height:             24,
		Scheme:             s.Scheme,
		HideReasoning:      s.HideReasoning,
		Tools:              s.Tools,
		Transcript:         opts,
		Projection:         proj,
		MaxToolOutputLines: s.MaxToolOutputLines,
		Clock:              func() int64 { return now },
	})
}
