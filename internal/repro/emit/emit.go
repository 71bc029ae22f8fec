// Package emit writes a session log as a testscript scenario (.txtar) for
// the harness: the log embedded as session.jsonl, a comment header saying
// what it is and where it came from, and load, mount, resize and snapshot
// steps ready for "dshtest record".
//
// With Options.Scrub the log is anonymised first (see Scrub): texts become
// same-width filler and ids stable aliases, so a private log can be shared
// while it still draws the same shapes on screen.
package emit

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal/display"
)

// Size is a terminal size in cells.
type Size struct{ W, H int }

// Options shape a scenario.
type Options struct {
	// Sizes are the terminal sizes to snapshot at, in order: the first is
	// mounted, later ones are reached with resize. Empty means 80x24.
	Sizes []Size
	// Source says where the log came from (a file, "sessiongen seed 42",
	// a property name); it goes into the header.
	Source string
	// Comment is free text for the header (why the scenario exists, the
	// failure it pins). Each line becomes a "#" comment.
	Comment string
	// Scrub anonymises the log (see Scrub).
	Scrub bool
	// Eager selects upstream's eager step rule (option eager).
	Eager bool
	// MaxToolLines, when non-zero, sets the card fold limit (option
	// max-tool-lines N).
	MaxToolLines int
	// HideReasoning starts with reasoning hidden (toggle reasoning).
	HideReasoning bool
	// ToolPresses presses Ctrl+O this many times before mount (1:
	// expanded, 2: hidden).
	ToolPresses int
	// Light selects the light colour scheme.
	Light bool
	// Now is the frozen clock (epoch ms) the terminal reads as "now"; 0
	// means one second after the last event's time.
	Now int64
	// Live mounts the terminal on events[:LiveFrom] (loaded from the
	// archive; empty when LiveFrom is 0) and appends every later event
	// after the mount (clock T, append 'JSON'), so the snapshots see the
	// live path and the harness compares it with a replay of the same log.
	// The default loads the whole log (load session.jsonl) and mounts on
	// it: the replay path.
	Live     bool
	LiveFrom int
	// Invariants names transcript invariants (the checks of package
	// invariant) to assert on the whole log, at every size of Sizes,
	// before the snapshots: an invariants step that fails while the
	// reported bug is present, so the scenario cannot record the bug as the
	// expected screen.
	Invariants []string
	// Before holds script lines to run before event i is appended (live
	// form only); Before[len(events)] runs after the last one. A
	// "resize W H" line among them changes the size later snapshot names
	// use. Use it to toggle, resize or switch scheme mid-stream.
	Before map[int][]string
}

// FileName is the name of the embedded log in the archive.
const FileName = "session.jsonl"

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Scenario returns the .txtar scenario for events. name names the scenario
// and prefixes its snapshots (NAME-WxH); it must be a file-name-safe word
// (letters, digits, '.', '_', '-').
//
// events must be a valid log; Scenario checks it with surface.Load
// (after scrubbing, when Scrub is set) so that a scenario never embeds a
// log the harness would refuse.
func Scenario(name string, events []sessionlog.Event, opts Options) ([]byte, error) {
	if !nameRE.MatchString(name) {
		return nil, fmt.Errorf("emit: scenario name %q: want letters, digits, '.', '_' or '-'", name)
	}
	if len(events) == 0 {
		return nil, errors.New("emit: empty log")
	}
	if opts.Scrub {
		var err error
		if events, err = Scrub(events); err != nil {
			return nil, err
		}
	}
	if _, err := surface.Load(events, func() int64 { return 0 }); err != nil {
		return nil, fmt.Errorf("emit: the log does not load: %w", err)
	}
	var log bytes.Buffer
	if err := jsonl.WriteLog(&log, events); err != nil {
		return nil, fmt.Errorf("emit: %w", err)
	}
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.HasPrefix(l, "-- ") {
			return nil, errors.New("emit: a log line would read as an archive file marker")
		}
	}
	mode := "loaded and mounted (the replay path)"
	if opts.Live {
		if opts.LiveFrom < 0 || opts.LiveFrom > len(events) {
			return nil, fmt.Errorf("emit: LiveFrom %d out of range", opts.LiveFrom)
		}
		mode = fmt.Sprintf("events %d- appended after mount (the live path)", opts.LiveFrom)
	}
	sizes := opts.Sizes
	if len(sizes) == 0 {
		sizes = []Size{{80, 24}}
	}
	for _, s := range sizes {
		if s.W < 1 || s.H < 1 {
			return nil, fmt.Errorf("emit: bad size %dx%d", s.W, s.H)
		}
	}
	now := opts.Now
	if now == 0 {
		now = events[len(events)-1].Time + 1000
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: a session log of %d events (seqs 0-%d), %s,\n# snapshotted at %s.\n",
		name, len(events), len(events)-1, mode, sizeList(sizes))
	if opts.Source != "" {
		comment(&b, "Source: "+opts.Source)
	}
	if opts.Comment != "" {
		b.WriteString("#\n")
		comment(&b, opts.Comment)
	}
	if opts.Scrub {
		b.WriteString("#\n")
		comment(&b, "Scrubbed: every text is same-width filler (each word a filler word of its length, the same word the same "+
			"filler throughout; digits 0, wide runes 宽; white space, punctuation and controls kept) and ids are aliases "+
			"(id-N, call-N, cmp-N, cmd-N, session-N).")
	}
	b.WriteString("#\n")
	if len(opts.Invariants) > 0 {
		comment(&b, "The invariants step fails while the reported bug is present, and dshtest record refuses the scenario until it is fixed.")
	}
	comment(&b, "Record its screens from the folder holding scenarios/ and fixtures/: dshtest record '^"+name+"$'.")
	b.WriteString("\n")
	if opts.Eager {
		b.WriteString("option eager\n")
	}
	if opts.MaxToolLines > 0 {
		fmt.Fprintf(&b, "option max-tool-lines %d\n", opts.MaxToolLines)
	}
	if opts.Light {
		b.WriteString("scheme light\n")
	}
	if opts.HideReasoning {
		b.WriteString("toggle reasoning\n")
	}
	for range opts.ToolPresses % 3 {
		b.WriteString("toggle tools\n")
	}
	// The stored part: the whole log for a replay, events[:LiveFrom] for
	// the live form.
	stored := events
	if opts.Live {
		stored = events[:opts.LiveFrom]
	}
	cur := sizes[0]
	if len(stored) > 0 {
		fmt.Fprintf(&b, "load %s\n", FileName)
	}
	if opts.Live {
		clock := events[0].Time
		if len(stored) > 0 {
			clock = stored[len(stored)-1].Time
		}
		fmt.Fprintf(&b, "clock %d\n", clock)
		fmt.Fprintf(&b, "mount %d %d\n", cur.W, cur.H)
		for i := opts.LiveFrom; i < len(events); i++ {
			for _, l := range opts.Before[i] {
				b.WriteString(l + "\n")
				if f := strings.Fields(l); len(f) == 3 && f[0] == "resize" {
					fmt.Sscan(f[1], &cur.W)
					fmt.Sscan(f[2], &cur.H)
				}
			}
			if t := events[i].Time; t != clock {
				fmt.Fprintf(&b, "clock %d\n", t)
				clock = t
			}
			line, err := jsonl.AppendEvent(nil, &events[i])
			if err != nil {
				return nil, fmt.Errorf("emit: %w", err)
			}
			b.WriteString("append '")
			b.WriteString(strings.ReplaceAll(string(display.EscapeJSON(line)), "'", "''"))
			b.WriteString("'\n")
		}
		for _, l := range opts.Before[len(events)] {
			b.WriteString(l + "\n")
			if f := strings.Fields(l); len(f) == 3 && f[0] == "resize" {
				fmt.Sscan(f[1], &cur.W)
				fmt.Sscan(f[2], &cur.H)
			}
		}
	}
	if len(opts.Invariants) > 0 {
		for _, n := range opts.Invariants {
			if !nameRE.MatchString(n) {
				return nil, fmt.Errorf("emit: invariant name %q: want letters, digits, '.', '_' or '-'", n)
			}
		}
		fmt.Fprintf(&b, "invariants --size %s %s\n", strings.ReplaceAll(sizeList(sizes), ", ", ","), strings.Join(opts.Invariants, " "))
	}
	fmt.Fprintf(&b, "clock %d\n", now)
	for i, s := range sizes {
		switch {
		case i == 0 && !opts.Live:
			fmt.Fprintf(&b, "mount %d %d\n", s.W, s.H)
		case i > 0:
			fmt.Fprintf(&b, "resize %d %d\n", s.W, s.H)
			cur = s
		}
		fmt.Fprintf(&b, "snapshot %s-%dx%d\n", name, cur.W, cur.H)
	}
	if len(stored) > 0 {
		var log bytes.Buffer
		if err := jsonl.WriteLog(&log, stored); err != nil {
			return nil, fmt.Errorf("emit: %w", err)
		}
		b.WriteString("\n-- " + FileName + " --\n")
		// The same events, with DEL, C1 and reordering characters as JSON
		// escapes: the archive is read by people too.
		b.Write(display.EscapeJSON(log.Bytes()))
	}
	return b.Bytes(), nil
}

func sizeList(sizes []Size) string {
	var s []string
	for _, z := range sizes {
		s = append(s, fmt.Sprintf("%dx%d", z.W, z.H))
	}
	return strings.Join(s, ", ")
}

// comment writes text as "# " lines. Controls and characters that reorder
// text are shown escaped by the one escaper (the terminal's), so the script
// stays one command per line and reads as it is.
func comment(b *bytes.Buffer, text string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(strings.TrimRight("# "+display.EscapeInline(l), " "))
		b.WriteByte('\n')
	}
}
