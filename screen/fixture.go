package screen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// FixtureVersion is the first line of a fixture file.
const FixtureVersion = "dshtest fixture v2"

// Fixture is a fixture file's content: its settings lines (the header
// after the version line), the whole transcript document and the screen.
//
// The file is written so that a pull request's diff of it stays small and
// says each thing once:
//
//	dshtest fixture v2
//	terminal 80x24 scheme=dark profile=ansi16
//	toggles reasoning=on tools=collapsed
//	theme-violations 0
//	document
//	<blank>
//	"You                 "
//	  style 0-2 fg=bright-magenta bold underline
//	~"a wrapped continuation"
//	screen
//	"dshtest · main-session"
//	  style 0-6 fg=bright-magenta bold
//	= document 0-1
//	<blank> x20
//	"main-session · 2 events"
//	  style 0-22 dim
//
// Rows carry no numbers, so one inserted row adds one line (and its style
// lines) and renumbers nothing. A run of blank rows is one line. The
// screen refers to the document rows it shows verbatim ("= document A-B",
// inclusive) and keeps its own rows only for chrome and for what differs,
// so a change that shows in both appears once. Row text is a JSON string
// (HTML characters not escaped), so trailing spaces keep their meaning and
// no escape byte is ever written; each row's style runs follow, indented,
// with named attributes.
type Fixture struct {
	Settings []string
	Document []Row
	Screen   []Row
}

// Marshal writes the fixture in the v2 format.
func (f *Fixture) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(FixtureVersion + "\n")
	for _, s := range f.Settings {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	b.WriteString("document\n")
	AppendFixtureRows(&b, f.Document)
	b.WriteString("screen\n")
	appendScreen(&b, f.Screen, f.Document)
	return b.Bytes()
}

// AppendFixtureRows writes rows in the v2 row format: one line per row
// (blank runs as one line), style runs indented beneath.
func AppendFixtureRows(b *bytes.Buffer, rows []Row) {
	for i := 0; i < len(rows); {
		if rows[i].Blank() {
			j := i
			for j < len(rows) && rows[j].Blank() {
				j++
			}
			appendBlank(b, j-i)
			i = j
			continue
		}
		appendRow(b, rows[i])
		i++
	}
}

func appendBlank(b *bytes.Buffer, n int) {
	if n == 1 {
		b.WriteString("<blank>\n")
		return
	}
	fmt.Fprintf(b, "<blank> x%d\n", n)
}

func appendRow(b *bytes.Buffer, r Row) {
	if r.Wrapped {
		b.WriteByte('~')
	}
	b.WriteString(Quote(r.Text))
	b.WriteByte('\n')
	for _, run := range r.Runs {
		b.WriteString("  ")
		b.WriteString(run.String())
		b.WriteByte('\n')
	}
}

// appendScreen writes the screen rows, referring to stretches of the
// document shown verbatim. At each non-blank row it takes the longest
// stretch of equal document rows (the earliest on a tie); a stretch ends
// before trailing blank rows, which print as blank runs.
func appendScreen(b *bytes.Buffer, scr, doc []Row) {
	for i := 0; i < len(scr); {
		if scr[i].Blank() {
			j := i
			for j < len(scr) && scr[j].Blank() {
				j++
			}
			appendBlank(b, j-i)
			i = j
			continue
		}
		bestJ, bestL := -1, 0
		for j := range doc {
			l := 0
			for i+l < len(scr) && j+l < len(doc) && sameRow(scr[i+l], doc[j+l]) {
				l++
			}
			for l > 0 && scr[i+l-1].Blank() {
				l--
			}
			if l > bestL {
				bestJ, bestL = j, l
			}
		}
		if bestL == 0 {
			appendRow(b, scr[i])
			i++
			continue
		}
		if bestL == 1 {
			fmt.Fprintf(b, "= document %d\n", bestJ)
		} else {
			fmt.Fprintf(b, "= document %d-%d\n", bestJ, bestJ+bestL-1)
		}
		i += bestL
	}
}

// sameRow reports whether two rows print identically.
func sameRow(a, b Row) bool {
	if a.Text != b.Text || a.Wrapped != b.Wrapped || len(a.Runs) != len(b.Runs) {
		return false
	}
	for k := range a.Runs {
		if a.Runs[k] != b.Runs[k] {
			return false
		}
	}
	return true
}

// ParseFixture reads a v2 fixture. Errors name the line ("line 7: …").
// Screen references are resolved, so Screen holds every screen row.
func ParseFixture(data []byte) (*Fixture, error) {
	f := &Fixture{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<26)
	const (
		header = iota
		document
		screen
	)
	section := -1
	var cur *[]Row
	styled := false // the last line was a row of its own or one of its runs
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		wasStyled := styled
		styled = false
		errf := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s", ln, fmt.Sprintf(format, args...))
		}
		switch {
		case section < 0:
			if line != FixtureVersion {
				return nil, errf("want %q, got %q", FixtureVersion, line)
			}
			section = header
		case line == "document" && section == header:
			section, cur = document, &f.Document
		case line == "screen" && section == document:
			section, cur = screen, &f.Screen
		case section == header:
			if line == "" || strings.ContainsAny(line, "\"|") || strings.HasPrefix(line, " ") {
				return nil, errf("unexpected %q in the header", line)
			}
			f.Settings = append(f.Settings, line)
		case strings.HasPrefix(line, "  style "):
			rows := *cur
			if !wasStyled {
				return nil, errf("style run without its row")
			}
			styled = true
			run, err := parseRun(strings.TrimPrefix(line, "  style "))
			if err != nil {
				return nil, errf("%v", err)
			}
			r := &rows[len(rows)-1]
			if n := len(r.Runs); run.Start > run.End || (n > 0 && run.Start <= r.Runs[n-1].End) || run.Labels == "" {
				return nil, errf("style run %q out of order", line)
			}
			r.Runs = append(r.Runs, run)
		case line == "<blank>":
			*cur = append(*cur, Row{})
		case strings.HasPrefix(line, "<blank> x"):
			n, err := strconv.Atoi(strings.TrimPrefix(line, "<blank> x"))
			if err != nil || n < 2 || n > 1<<20 {
				return nil, errf("malformed blank run %q", line)
			}
			*cur = append(*cur, make([]Row, n)...)
		case strings.HasPrefix(line, "= document ") && section == screen:
			from, to, err := parseSpan(strings.TrimPrefix(line, "= document "))
			if err != nil || to >= len(f.Document) {
				return nil, errf("bad document reference %q (the document has %d rows)", line, len(f.Document))
			}
			for k := from; k <= to; k++ {
				r := f.Document[k]
				r.Runs = append([]Run(nil), r.Runs...)
				*cur = append(*cur, r)
			}
		case strings.HasPrefix(line, "\"") || strings.HasPrefix(line, "~\""):
			wrapped := strings.HasPrefix(line, "~")
			var text string
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "~")), &text); err != nil {
				return nil, errf("row text is not a JSON string: %v", err)
			}
			r := Row{Text: text, Wrapped: wrapped}
			if r.Blank() {
				return nil, errf(`an empty row is written <blank>`)
			}
			*cur = append(*cur, r)
			styled = true
		default:
			return nil, errf("unexpected %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if section != screen {
		return nil, fmt.Errorf("no %s section", map[int]string{-1: "version line", header: "document", document: "screen"}[section])
	}
	return f, nil
}

// parseSpan parses "A" or "A-B" with 0 ≤ A ≤ B.
func parseSpan(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || from < 0 || to < from || strconv.Itoa(from) != a || strconv.Itoa(to) != b {
		return 0, 0, fmt.Errorf("malformed span %q", s)
	}
	return from, to, nil
}

// Setting returns the value of key in a settings line "WORD k=v k=v" or
// the first word's argument ("terminal 80x24 …" → Setting("terminal") is
// "80x24"); "" when absent.
func (f *Fixture) Setting(key string) string {
	for _, line := range f.Settings {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == key {
			return fields[1]
		}
		for _, fl := range fields[1:] {
			if k, v, ok := strings.Cut(fl, "="); ok && k == key {
				return v
			}
		}
	}
	return ""
}
