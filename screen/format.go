package screen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// AppendRows writes rows in the fixture row format, numbered from first:
//
//	0| <blank>
//	1-2| <blank>
//	3| "You      "
//	  style 0-2 fg=bright-magenta bold underline
//
// A run of blank rows prints as one line. A non-blank row prints as its
// number, "~" if it is a wrapped continuation, and its text as a JSON string
// (HTML characters are not escaped), then one indented line per style run.
func AppendRows(b *bytes.Buffer, rows []Row, first int) {
	blankFrom := -1
	flush := func(end int) {
		if blankFrom < 0 {
			return
		}
		if blankFrom == end {
			fmt.Fprintf(b, "%d| <blank>\n", blankFrom)
		} else {
			fmt.Fprintf(b, "%d-%d| <blank>\n", blankFrom, end)
		}
		blankFrom = -1
	}
	for i, r := range rows {
		n := first + i
		if r.Blank() {
			if blankFrom < 0 {
				blankFrom = n
			}
			continue
		}
		flush(n - 1)
		b.WriteString(strconv.Itoa(n))
		if r.Wrapped {
			b.WriteByte('~')
		}
		b.WriteString("| ")
		b.WriteString(Quote(r.Text))
		b.WriteByte('\n')
		for _, run := range r.Runs {
			b.WriteString("  ")
			b.WriteString(run.String())
			b.WriteByte('\n')
		}
	}
	flush(first + len(rows) - 1)
}

// Quote returns s as a JSON string without HTML escaping, so that "<", ">"
// and "&" stay readable.
func Quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// Snapshot is a parsed fixture or upstream .expected.txt file: its header
// lines (everything before the first row line) and its rows by absolute
// row number. Blank rows are present as zero Rows.
type Snapshot struct {
	Header []string
	Rows   map[int]Row
	// Last is the highest row number seen.
	Last int
}

// Parse reads the row format AppendRows writes (and upstream's
// .expected.txt files use). Lines before the first row line are header
// lines. A line that is neither a row, a style run nor a header is an error
// naming its line number.
func Parse(data []byte) (*Snapshot, error) {
	s := &Snapshot{Rows: map[int]Row{}, Last: -1}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<26)
	seenRow := false
	cur := -1
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if strings.HasPrefix(line, "  style ") {
			if cur < 0 {
				return nil, fmt.Errorf("screen: line %d: style run before any row", ln)
			}
			run, err := parseRun(strings.TrimPrefix(line, "  style "))
			if err != nil {
				return nil, fmt.Errorf("screen: line %d: %w", ln, err)
			}
			r := s.Rows[cur]
			r.Runs = append(r.Runs, run)
			s.Rows[cur] = r
			continue
		}
		head, rest, ok := strings.Cut(line, "| ")
		num := strings.TrimSuffix(head, "~")
		if ok && num != "" && isRowNumber(num) {
			seenRow = true
			from, to := num, num
			if a, b, ok := strings.Cut(num, "-"); ok {
				from, to = a, b
			}
			lo, _ := strconv.Atoi(from)
			hi, _ := strconv.Atoi(to)
			if rest == "<blank>" {
				for n := lo; n <= hi; n++ {
					s.Rows[n] = Row{}
				}
				s.Last = max(s.Last, hi)
				cur = -1
				continue
			}
			var text string
			if err := json.Unmarshal([]byte(rest), &text); err != nil {
				return nil, fmt.Errorf("screen: line %d: row text is not a JSON string: %w", ln, err)
			}
			s.Rows[lo] = Row{Text: text, Wrapped: strings.HasSuffix(head, "~")}
			s.Last = max(s.Last, lo)
			cur = lo
			continue
		}
		if seenRow && !strings.HasPrefix(line, "#") && line != "" && !isSectionLine(line) {
			return nil, fmt.Errorf("screen: line %d: unexpected %q", ln, line)
		}
		if !seenRow {
			s.Header = append(s.Header, line)
		}
	}
	return s, sc.Err()
}

// Range returns rows from..to (inclusive) in order, with missing rows blank.
func (s *Snapshot) Range(from, to int) []Row {
	out := make([]Row, 0, max(0, to-from+1))
	for n := from; n <= to; n++ {
		out = append(out, s.Rows[n])
	}
	return out
}

func isSectionLine(line string) bool {
	return !strings.Contains(line, "|")
}

func isRowNumber(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

func parseRun(s string) (Run, error) {
	span, labels, ok := strings.Cut(s, " ")
	if !ok {
		return Run{}, fmt.Errorf("malformed style run %q", s)
	}
	a, b, ok := strings.Cut(span, "-")
	if !ok {
		return Run{}, fmt.Errorf("malformed style span %q", span)
	}
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return Run{}, fmt.Errorf("malformed style span %q", span)
	}
	return Run{Start: start, End: end, Labels: labels}, nil
}

// TrimRight returns the row's text with trailing spaces removed, for
// comparisons that ignore padding.
func (r Row) TrimRight() string { return strings.TrimRight(r.Text, " ") }
