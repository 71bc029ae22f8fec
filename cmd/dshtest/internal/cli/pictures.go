package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/screen/picture"
	"github.com/dshtest/dshtest/terminal"
)

// This file draws pictures of screens: show (a recorded fixture), render
// --format svg|html (a log), report --html and run --report (every changed
// or pending fixture of a run, as one HTML page).

// renderFormats are render's --format values; showFormats show's.
var (
	renderFormats = []string{"text", "ansi", "fixture", "svg", "html"}
	showFormats   = []string{"svg", "html", "ansi"}
)

// completeValues makes a flag's shell completion offer its values.
func completeValues(cmd *cobra.Command, flag string, values []string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	})
}

// drawDocument writes a picture of a rendered document.
func drawDocument(w *bytes.Buffer, lines []string, s terminal.Settings, format, name string) {
	g := picture.FromRows(screen.Decode(lines), s.Width)
	p := picture.PaletteFor(s.Scheme)
	if format == "svg" {
		w.Write(picture.SVG(g, p, nil, len(lines)))
		return
	}
	w.Write(picture.HTMLPage(filepath.Base(name), g, p, len(lines)))
}

func (a *app) showCommand() *cobra.Command {
	var format, section, dir string
	cmd := &cobra.Command{
		Use:   "show FIXTURE",
		Short: "Draw a recorded fixture as a picture (SVG, HTML or ANSI)",
		Long: `show draws a fixture's screen (or, with --section document, its whole
document) in the scheme's ANSI-16 palette: bold, dim, italic, underline and
inverse as a terminal shows them. FIXTURE is a file (fixtures/x.screen, or a
pending x.screen.new) or a fixture name looked up in the scenario folder's
fixtures/.

Formats: svg (a standalone picture), html (a self-contained page), ansi
(styled text for a terminal). Use them in pull requests and issues.`,
		Example: `  dshtest show fixtures/log-summary.screen > log-summary.svg
  dshtest show log-summary --format html > log-summary.html
  dshtest show log-summary --format ansi --section document`,
		Args:              argsUsage(cobra.ExactArgs(1)),
		ValidArgsFunction: a.completeFixtures(&dir),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(showFormats, format) {
				return usagef("--format %q: want %s", format, strings.Join(showFormats, ", "))
			}
			if section != "screen" && section != "document" {
				return usagef("--section %q: want screen or document", section)
			}
			path := args[0]
			if _, err := os.Stat(path); err != nil && !strings.ContainsAny(path, `/\`) {
				root, rerr := findRoot(dir)
				if rerr != nil {
					return rerr
				}
				path = suitedir.Dir{Root: root}.Fixture(path)
			}
			data, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				return usagef("no fixture %s: name a fixture of fixtures/ (ls fixtures) or a .screen file", esc(path))
			}
			if err != nil {
				return err
			}
			f, err := screen.ParseFixture(data)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			w, h := picture.Size(f)
			rows := f.Screen
			if section == "document" {
				rows, h = f.Document, len(f.Document)
			}
			g := picture.FromRows(rows, w)
			p := picture.FixturePalette(f)
			switch format {
			case "svg":
				_, err = a.stdout.Write(picture.SVG(g, p, nil, h))
			case "html":
				_, err = a.stdout.Write(picture.HTMLPage(filepath.Base(path), g, p, h))
			default:
				_, err = fmt.Fprint(a.stdout, picture.ANSI(g))
			}
			return err
		}),
	}
	cmd.Flags().StringVar(&format, "format", "svg", "picture format: "+strings.Join(showFormats, ", "))
	cmd.Flags().StringVar(&section, "section", "screen", "what to draw: screen or document")
	cmd.Flags().StringVar(&dir, "dir", "", "the folder holding scenarios/ and fixtures/ (default: found from the working directory)")
	completeValues(cmd, "format", showFormats)
	completeValues(cmd, "section", []string{"screen", "document"})
	return cmd
}

// completeFixtures completes fixture names.
func (a *app) completeFixtures(dir *string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		root, err := findRoot(*dir)
		if err != nil {
			return nil, cobra.ShellCompDirectiveDefault
		}
		files, _ := harness.FixtureNames(suitedir.Dir{Root: root}.Fixtures())
		var out []string
		for _, f := range files {
			if n, ok := strings.CutSuffix(f, harness.FixtureSuffix); ok && strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveDefault
	}
}

func (a *app) reportCommand() *cobra.Command {
	var htmlFile, dir, pendingDir string
	cmd := &cobra.Command{
		Use:   "report --html FILE [PATTERN]",
		Short: "Write one self-contained HTML page of every pending screen, recorded beside new",
		Long: `report writes one HTML page (no script, nothing fetched) for the pending
screens a failing run left (fixtures/NAME.screen.new, or --pending-dir):
a summary on top, then a card per change with its scenario, the recorded
and the new screen drawn as cell grids in the scheme's ANSI-16 palette,
each run of changed cells framed, the changed rows counted, and the text
diff beneath. A change shared by several fixtures (the same lines
removed and added, as record groups them) is one card naming them all.
PATTERN selects fixture
names (a regular expression). run --report FILE writes the same page as
part of a failing run.`,
		Example: `  dshtest run || dshtest report --html report.html
  dshtest report --html report.html '^surface-'`,
		Args:              argsUsage(cobra.MaximumNArgs(1)),
		ValidArgsFunction: a.completePending(&dir),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if htmlFile == "" {
				return usagef("report needs --html FILE")
			}
			if root, err := findRoot(dir); err == nil {
				if err := refuseInputs(root, output{"--html", htmlFile}); err != nil {
					return err
				}
			}
			root, ps, err := a.pendingArgs(dir, pendingDir, args)
			if saidNothingPending(a.stdout, "report", err) {
				return nil // no page: there is nothing to draw
			}
			if err != nil {
				return err
			}
			var cards []picture.Card
			for _, p := range ps {
				nw, err := os.ReadFile(p.Path)
				if err != nil {
					return err
				}
				var rec []byte
				if b, err := os.ReadFile(p.Fixture); err == nil {
					rec = b
				}
				c := reportCard(p.Scenario, suitedir.FixtureFile(p.Name), rec, nw)
				if pendingDir != "" {
					c.PendingDir = harness.ShellQuote(pendingDir)
				}
				cards = append(cards, c)
			}
			if err := safefile.WriteFile(htmlFile, picture.Report("dshtest report: "+filepath.Base(root), cards), safefile.Options{Force: true}); err != nil {
				return fmt.Errorf("--html %s: %w", htmlFile, err)
			}
			fmt.Fprintf(a.stdout, "report: %s in %s\n", words.Plural(len(cards), "fixture"), esc(htmlFile))
			return nil
		}),
	}
	cmd.Flags().StringVar(&htmlFile, "html", "", "write the HTML page to FILE")
	cmd.Flags().StringVar(&dir, "dir", "", "the folder holding scenarios/ and fixtures/ (default: found from the working directory)")
	cmd.Flags().StringVar(&pendingDir, "pending-dir", "", "where the pending screens are (default: fixtures/)")
	return cmd
}

// reportCard is the report's card of a fixture: its diff, and for a
// changed one its change as record groups changes (changeKey), so that
// the report shows a change shared by several fixtures once.
func reportCard(scenario, fixture string, rec, nw []byte) picture.Card {
	c := picture.Card{Scenario: scenario, Fixture: fixture, Recorded: rec, New: nw, Diff: suitedir.CompactDiff(string(rec), string(nw))}
	if rec != nil {
		c.Change = changeKey(c.Diff)
	}
	return c
}

// writeRunReport writes run --report's page: a card per snapshot of the
// run that differed from its fixture or had none.
func (a *app) writeRunReport(path, root string, res *harness.Result) error {
	var cards []picture.Card
	for _, o := range res.Outcomes {
		for _, m := range o.Mismatches {
			c := reportCard(m.Scenario, m.Fixture, m.Recorded, m.New)
			if d := m.PendingDir(); d != "" {
				c.PendingDir = harness.ShellQuote(d)
			}
			cards = append(cards, c)
		}
	}
	sort.SliceStable(cards, func(i, j int) bool { return cards[i].Fixture < cards[j].Fixture })
	if err := safefile.WriteFile(path, picture.Report("dshtest run: "+filepath.Base(root), cards), safefile.Options{Force: true}); err != nil {
		return fmt.Errorf("--report %s: %w", path, err)
	}
	fmt.Fprintf(a.stderr, "report: %s in %s\n", words.Plural(len(cards), "changed fixture"), esc(path))
	return nil
}
