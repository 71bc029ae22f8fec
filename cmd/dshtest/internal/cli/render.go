package cli

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/viewer"
	"github.com/dshtest/dshtest/transcript"
)

// displayFlags are the renderer settings render and view share.
type displayFlags struct {
	width     int
	scheme    string
	reasoning string
	tools     string
	eager     bool
	maxLines  int
}

func (f *displayFlags) register(fs *pflag.FlagSet, width bool) {
	if width {
		fs.IntVar(&f.width, "width", 80, "document width in cells")
	}
	fs.StringVar(&f.scheme, "scheme", "dark", "colour scheme: dark or light")
	fs.StringVar(&f.reasoning, "reasoning", "on", "show reasoning blocks: on or off")
	fs.StringVar(&f.tools, "tools", "collapsed", "tool cards: collapsed, expanded or hidden")
	fs.BoolVar(&f.eager, "eager", false, "upstream's eager step rule (an empty Assistant block at step/start)")
	registerMaxToolLines(fs, &f.maxLines)
}

// registerMaxToolLines registers --max-tool-lines, the card fold limit (the
// DSL's option max-tool-lines; upstream's maxToolOutputLines).
func registerMaxToolLines(fs *pflag.FlagSet, n *int) {
	fs.IntVar(n, "max-tool-lines", cards.DefaultMaxToolOutputLines,
		"card fold limit: lines a collapsed card body keeps (upstream's CLI harness used 8)")
}

// checkMaxToolLines validates --max-tool-lines.
func checkMaxToolLines(n int) error {
	if n < 1 || n > 100000 {
		return usagef("--max-tool-lines %d: want 1 to 100000", n)
	}
	return nil
}

// settings validates the flags and returns the renderer settings; now is
// the frozen clock reading.
func (f *displayFlags) settings(now int64) (terminal.Settings, transcript.Options, error) {
	s := terminal.Settings{Width: f.width, Now: now, MaxToolOutputLines: f.maxLines}
	if f.width < 1 || f.width > 1000 {
		return s, transcript.Options{}, usagef("--width %d: want 1 to 1000", f.width)
	}
	if err := checkMaxToolLines(f.maxLines); err != nil {
		return s, transcript.Options{}, err
	}
	// The flags are named as the settings, so a name's error is the flag's:
	// --scheme "x": want dark or light.
	var err error
	if s.Scheme, err = display.ParseScheme(f.scheme); err != nil {
		return s, transcript.Options{}, usagef("--%v", err)
	}
	shown, err := display.ParseReasoning(f.reasoning)
	if err != nil {
		return s, transcript.Options{}, usagef("--%v", err)
	}
	s.HideReasoning = !shown
	if s.Tools, err = display.ParseToolMode(f.tools); err != nil {
		return s, transcript.Options{}, usagef("--%v", err)
	}
	return s, transcript.Options{EagerSteps: f.eager}, nil
}

func (a *app) renderCommand() *cobra.Command {
	var lfl logFlags
	var (
		df         displayFlags
		format     string
		projecting string
	)
	cmd := &cobra.Command{
		Use:   "render [LOG | --session ID]",
		Short: "Print a log's full transcript document (or the model's view of it)",
		Long: `render prints the whole human transcript of a log as the terminal renders it,
scrollback included, at --width.

Formats:
  text     plain rows, trailing spaces trimmed (default)
  ansi     the styled rows, SGR escapes included
  fixture  the fixture row format (row text as JSON strings plus style runs, no row numbers)
  svg      a picture of the document in the scheme's ANSI-16 palette
  html     a self-contained HTML page of the same picture

--projection surface prints what the model sees instead: the messages of
deriveMessages in surface order, one block per message (seq, role, source,
then the content, one line per block).

The clock is frozen at the last event's time, so the output is stable.`,
		Example: `  dshtest render session.jsonl
  dshtest render session.jsonl --width 44 --tools expanded --reasoning off
  dshtest render session.jsonl --format fixture > /tmp/doc.screen
  dshtest render session.jsonl --projection surface`,
		Args: logArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			s, opts, err := df.settings(0)
			if err != nil {
				return err
			}
			if !slices.Contains(renderFormats, format) {
				return usagef("--format %q: want %s", format, strings.Join(renderFormats, ", "))
			}
			if projecting != "transcript" && projecting != "surface" {
				return usagef("--projection %q: want transcript or surface", projecting)
			}
			var out bytes.Buffer
			if projecting == "surface" {
				lf, err := a.readLog(args, &lfl, nil)
				if err != nil {
					return err
				}
				writeSurface(&out, lf.Session.DeriveMessages())
				_, err = a.stdout.Write(out.Bytes())
				return err
			}
			var last []sessionlog.Event // the last event read, for the frozen clock
			if format == "text" || format == "ansi" {
				// Drawn as the log is read (terminal.ReplayDrawer): no event
				// is held, nor any item once drawn. The rows drawn during the
				// read wait in a spool until the log has been read whole, so
				// that a log refused halfway prints none; the spool stops the
				// drawing ahead once it holds as much as the payloads read
				// (a log of long prompts draws about its own size, a short
				// line padded in ansi many times it), and the rest is
				// written as it is drawn after the read.
				// Text is drawn unstyled: an unstyled row is the styled
				// row's text less its trailing spaces (TestUnstyledRows),
				// what text prints, without the sequences and padding
				// written only to be taken out again.
				s.Unstyled = format == "text"
				var spool rowSpool
				var read atomic.Int64
				rw := rowWriter{w: &spool, format: format} // stdout once the read is over
				d := terminal.NewReplayDrawer(opts, s, func(row string) bool {
					rw.row(row)
					return spool.n < max(spoolMin, read.Load())
				})
				_, err := a.readLogSpending(args, &lfl, func(e *sessionlog.Event) {
					read.Add(int64(len(e.Data)))
					d.Apply(e)
					last = append(last[:0], *e)
				})
				d.Stop()
				if err != nil {
					return err
				}
				w := bufio.NewWriterSize(a.stdout, 64<<10)
				if _, err := spool.WriteTo(w); err != nil {
					return err
				}
				spool, rw.w = rowSpool{}, w // the drawing goroutine has ended (Stop)
				d.Finish(terminal.FrozenNow(last))
				return w.Flush()
			}
			// The replay, fed as the log is read: no event is held.
			replay := transcript.NewReplay(opts)
			lf, err := a.readLogSpending(args, &lfl, func(e *sessionlog.Event) {
				replay.Apply(e)
				last = append(last[:0], *e)
			})
			if err != nil {
				return err
			}
			s.Now = terminal.FrozenNow(last)
			tr := replay.Transcript()
			doc := terminal.Render(tr, s)
			if format == "fixture" {
				screen.AppendFixtureRows(&out, screen.Decode(doc.Lines))
			} else {
				drawDocument(&out, doc.Lines, s, format, lf.Path)
			}
			_, err = a.stdout.Write(out.Bytes())
			return err
		}),
	}
	df.register(cmd.Flags(), true)
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(renderFormats, ", "))
	completeValues(cmd, "format", renderFormats)
	cmd.Flags().StringVar(&projecting, "projection", "transcript", "what to print: transcript (the human view) or surface (the model's)")
	lfl.register(cmd.Flags())
	return cmd
}

// rowWriter writes rows in render's text or ansi format to w: styled
// rows in ansi, unstyled ones (terminal.Settings.Unstyled) in text.
type rowWriter struct {
	w      io.Writer
	format string
	buf    []byte
}

// row writes one row, in ansi with a closing reset. A write's error is the
// writer's to keep (a bufio.Writer returns it from Flush).
func (rw *rowWriter) row(l string) {
	rw.buf = append(rw.buf[:0], l...)
	if rw.format == "ansi" {
		rw.buf = append(rw.buf, "\x1b[0m"...)
	}
	rw.buf = append(rw.buf, '\n')
	_, _ = rw.w.Write(rw.buf)
}

// rowSpool holds the rows render draws while it reads, in chunks, so that
// growing it copies nothing (a doubling buffer held up to twice what it
// had).
type rowSpool struct {
	chunks [][]byte
	n      int64
}

// spoolMin is what a spool may hold whatever has been read.
const spoolMin = 8 << 20

const spoolChunk = 1 << 20

func (s *rowSpool) Write(p []byte) (int, error) {
	written := len(p)
	s.n += int64(written)
	for len(p) > 0 {
		k := len(s.chunks) - 1
		if k < 0 || len(s.chunks[k]) == cap(s.chunks[k]) {
			s.chunks = append(s.chunks, make([]byte, 0, spoolChunk))
			k++
		}
		c := &s.chunks[k]
		n := min(len(p), cap(*c)-len(*c))
		*c = append(*c, p[:n]...)
		p = p[n:]
	}
	return written, nil
}

// WriteTo writes what the spool holds to w.
func (s *rowSpool) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, c := range s.chunks {
		k, err := w.Write(c)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// writeSurface writes the model's messages in render's block format
// (viewer.WriteSurface).
func writeSurface(w io.Writer, msgs []surface.ModelMessage) { viewer.WriteSurface(w, msgs) }
