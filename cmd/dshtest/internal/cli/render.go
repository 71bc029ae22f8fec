package cli

import (
	"bytes"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/viewer"
	"github.com/dshtest/dshtest/projection"
	"github.com/dshtest/dshtest/projection/terminal"
	"github.com/dshtest/dshtest/screen"
)

// displayFlags are the renderer settings render and view share.
type displayFlags struct {
	width     int
	scheme    string
	reasoning string
	tools     string
	eager     bool
}

func (f *displayFlags) register(fs *pflag.FlagSet, width bool) {
	if width {
		fs.IntVar(&f.width, "width", 80, "document width in cells")
	}
	fs.StringVar(&f.scheme, "scheme", "dark", "colour scheme: dark or light")
	fs.StringVar(&f.reasoning, "reasoning", "on", "show reasoning blocks: on or off")
	fs.StringVar(&f.tools, "tools", "collapsed", "tool cards: collapsed, expanded or hidden")
	fs.BoolVar(&f.eager, "eager", false, "upstream's eager step rule (an empty Assistant block at step/start)")
}

// settings validates the flags and returns the renderer settings; now is
// the frozen clock reading.
func (f *displayFlags) settings(now int64) (terminal.Settings, projection.TranscriptOptions, error) {
	s := terminal.Settings{Width: f.width, Now: now}
	if f.width < 1 || f.width > 1000 {
		return s, projection.TranscriptOptions{}, usagef("--width %d: want 1 to 1000", f.width)
	}
	switch f.scheme {
	case "dark":
		s.Scheme = terminal.SchemeDark
	case "light":
		s.Scheme = terminal.SchemeLight
	default:
		return s, projection.TranscriptOptions{}, usagef("--scheme %q: want dark or light", f.scheme)
	}
	switch f.reasoning {
	case "on":
	case "off":
		s.HideReasoning = true
	default:
		return s, projection.TranscriptOptions{}, usagef("--reasoning %q: want on or off", f.reasoning)
	}
	mode, err := parseTools(f.tools)
	if err != nil {
		return s, projection.TranscriptOptions{}, err
	}
	s.Tools = mode
	return s, projection.TranscriptOptions{EagerSteps: f.eager}, nil
}

func parseTools(s string) (terminal.ToolMode, error) {
	switch s {
	case "collapsed":
		return terminal.ToolsCollapsed, nil
	case "expanded":
		return terminal.ToolsExpanded, nil
	case "hidden":
		return terminal.ToolsHidden, nil
	}
	return 0, usagef("--tools %q: want collapsed, expanded or hidden", s)
}

// frozenNow is the clock every offline rendering uses: the time of the
// log's last event, so open timing buckets read the same on every run.
func frozenNow(events []projection.Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[len(events)-1].Time
}

func (a *app) renderCommand() *cobra.Command {
	var (
		df         displayFlags
		format     string
		projecting string
	)
	cmd := &cobra.Command{
		Use:   "render LOG.jsonl",
		Short: "Print a log's full transcript document (or the model's view of it)",
		Long: `render prints the whole human transcript of a log as the terminal renders it,
scrollback included, at --width.

Formats:
  text     plain rows, trailing spaces trimmed (default)
  ansi     the styled rows, SGR escapes included
  fixture  the fixture row format (row text as JSON strings plus style runs)

--projection surface prints what the model sees instead: the messages of
deriveMessages in surface order, one block per message (seq, role, source,
then the content, one line per block).

The clock is frozen at the last event's time, so the output is stable.`,
		Example: `  dshtest render session.jsonl
  dshtest render session.jsonl --width 44 --tools expanded --reasoning off
  dshtest render session.jsonl --format fixture > /tmp/doc.screen
  dshtest render session.jsonl --projection surface`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			s, opts, err := df.settings(0)
			if err != nil {
				return err
			}
			if format != "text" && format != "ansi" && format != "fixture" {
				return usagef("--format %q: want text, ansi or fixture", format)
			}
			if projecting != "transcript" && projecting != "surface" {
				return usagef("--projection %q: want transcript or surface", projecting)
			}
			lf, err := a.readLog(args[0], readOptions{})
			if err != nil {
				return err
			}
			var out bytes.Buffer
			if projecting == "surface" {
				writeSurface(&out, lf.Session.DeriveMessages())
			} else {
				s.Now = frozenNow(lf.Events)
				doc := terminal.Render(projection.Project(lf.Events, opts), s)
				writeDocument(&out, doc.Lines, format)
			}
			_, err = a.stdout.Write(out.Bytes())
			return err
		}),
	}
	df.register(cmd.Flags(), true)
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, ansi or fixture")
	cmd.Flags().StringVar(&projecting, "projection", "transcript", "what to print: transcript (the human view) or surface (the model's)")
	return cmd
}

// writeDocument writes styled rows in one of render's formats.
func writeDocument(w *bytes.Buffer, lines []string, format string) {
	switch format {
	case "ansi":
		for _, l := range lines {
			w.WriteString(l)
			w.WriteString("\x1b[0m\n")
		}
	case "fixture":
		screen.AppendRows(w, screen.Decode(lines), 0)
	default:
		for _, l := range plainLines(lines) {
			w.WriteString(l)
			w.WriteByte('\n')
		}
	}
}

// plainLines strips styling and trailing spaces.
func plainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return out
}

// writeSurface writes the model's messages in render's block format
// (viewer.WriteSurface).
func writeSurface(w io.Writer, msgs []projection.ModelMessage) { viewer.WriteSurface(w, msgs) }

// escapeControls is the renderer's displayText escape (terminal.md §6 and
// its escaping amendment): the one escaper, terminal.Escape.
func escapeControls(s string) string { return terminal.Escape(s) }
