package container

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/ground/longline"
	"github.com/dshtest/dshtest/sessionlog"
)

// part is one stretch of plaintext fed to the scanner. The scanner reads the
// parts in order as one text: a line may span a part boundary only where
// the boundary is not strict.
type part struct {
	r io.Reader
	// strict: the end of this part is a committed boundary (the last
	// complete Zstandard frame), where a partial line or an unresolved
	// defect is refused instead of becoming a torn tail (containers.md §3.6).
	strict bool
	// torn is the byte offset of an incomplete final Zstandard frame whose
	// recovered plaintext this part is, or -1.
	torn int64
}

// scanner applies upstream's SessionLogScanner rules (containers.md §2) to a
// stream of plaintext, yielding the committed lines one at a time.
type scanner struct {
	name    string
	maxLine int
	maxText int64                      // the cap on the text read, blank and skipped lines included
	text    int64                      // the text read so far
	parts   func() (part, bool, error) // the next part; false when none is left
	cur     part
	br      *bufio.Reader
	acc     longline.Buffer // a line longer than br's buffer
	owned   bool            // the line read last is acc's, given away (Line.Owned)
	started bool

	lineNo   int   // file line of the last line read
	expected int64 // the next event's seq
	kept     int64 // events kept (packed rows expanded)

	issue     string // the first defect's reason; from it on, lines are the torn tail
	issueLine int
	dropped   int // lines from the issue on
	tornPart  int64

	warnings []Warning
	err      error
	done     bool
	line     Line
	members  []fastjson.Span // the buffer of line's Members
	header   []byte          // header line, set by the opener for a Zstandard log
	headerID string
	declared int64 // the plaintext size the container declares, ≤ 0 if none (Log.DeclaredSize)
}

func newScanner(name string, maxLine int, parts func() (part, bool, error)) *scanner {
	return &scanner{name: name, maxLine: maxLine, maxText: DefaultMaxText, parts: parts, tornPart: -1}
}

// readSlice is the reader's ReadSlice, counting the text against the cap:
// decompression stops there, whatever the text is (blank lines too).
func (s *scanner) readSlice() ([]byte, error) {
	b, err := s.br.ReadSlice('\n')
	s.text += int64(len(b))
	if s.text > s.maxText {
		return nil, TextTooLong(sessionlog.Pos{Path: s.name, Line: s.lineNo + 1, Seq: -1}, s.maxText)
	}
	return b, err
}

func (s *scanner) fail(line int, reason string, cause error) bool {
	s.err = refuse(sessionlog.Pos{Path: s.name, Line: line, Seq: -1}, reason, cause)
	s.done = true
	return false
}

// readLine returns the next line of the current part without its newline.
// terminated is false for a final fragment; io.EOF ends the part. s.owned
// says whether the line is a new allocation the scanner gives away
// (longline: a line of a megabyte or more), else it is valid until the
// next read.
func (s *scanner) readLine() (line []byte, terminated bool, err error) {
	s.acc.Reset()
	s.owned = false
	for {
		b, err := s.readSlice()
		switch {
		case err == nil:
			if s.acc.Len() == 0 {
				if len(b)-1 > s.maxLine {
					return nil, false, s.lineTooLong()
				}
				return b[:len(b)-1], true, nil
			}
			if s.acc.Len()+len(b)-1 > s.maxLine {
				return nil, false, s.lineTooLong()
			}
			s.acc.Add(b[:len(b)-1])
			line, s.owned = s.acc.Bytes()
			return line, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if s.acc.Len()+len(b) > s.maxLine {
				return s.overLong()
			}
			s.acc.Add(b)
		case errors.Is(err, io.EOF):
			if s.acc.Len()+len(b) == 0 {
				return nil, false, io.EOF
			}
			if s.acc.Len()+len(b) > s.maxLine {
				return []byte{}, false, nil // a torn over-long final line
			}
			s.acc.Add(b)
			line, s.owned = s.acc.Bytes()
			return line, false, nil
		default:
			return nil, false, err
		}
	}
}

// tooLong handles a line over the limit. The rest of the line is skipped
// without being held: a final line without a newline is a torn tail like
// any other (a torn write of a huge tool result keeps the prefix before
// it), so it comes back as an unterminated empty fragment; a complete line
// is refused with sessionlog.ErrTooLong.
func (s *scanner) tooLong() error {
	s.acc.Reset()
	for {
		_, err := s.readSlice()
		switch {
		case err == nil:
			return s.lineTooLong()
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return errTornLong
		default:
			return err
		}
	}
}

// lineTooLong is the refusal of a complete line over the limit.
func (s *scanner) lineTooLong() error {
	return lineTooLong(sessionlog.Pos{Path: s.name, Line: s.lineNo + 1, Seq: -1}, s.maxLine)
}

// lineTooLong is the refusal of the line at pos, over the line limit
// limit: the scanner's, and a spool's that watches the text as it copies.
func lineTooLong(pos sessionlog.Pos, limit int) error {
	return refuse(pos, fmt.Sprintf("line is longer than the %d-byte line limit", limit), sessionlog.ErrTooLong)
}

// errTornLong is tooLong's report of a final over-long line without a
// newline: readLine turns it into an unterminated fragment.
var errTornLong = errors.New("torn over-long final line")

// overLong is readLine's result for a line over the limit.
func (s *scanner) overLong() ([]byte, bool, error) {
	if err := s.tooLong(); err != errTornLong {
		return nil, false, err
	}
	return []byte{}, false, nil
}

// readErr turns a read failure into the refusal to return.
func (s *scanner) readErr(err error) bool {
	var ce *sessionlog.Error
	if errors.As(err, &ce) {
		s.err = ce
		s.done = true
		return false
	}
	return s.fail(s.lineNo+1, "read failed: "+err.Error(), err)
}

// nextPart moves to the next part; false when there is none.
func (s *scanner) nextPart() (bool, error) {
	p, ok, err := s.parts()
	if err != nil || !ok {
		return false, err
	}
	s.cur = p
	if s.br == nil {
		s.br = bufio.NewReaderSize(p.r, 64<<10)
	} else {
		s.br.Reset(p.r)
	}
	return true, nil
}

// next advances to the next committed line.
// release drops the scanner's buffers, which a line of megabytes grew,
// and its readers (a decoder's window): its read is over, or its Log
// closed (Next then reports the end).
func (s *scanner) release() {
	s.acc, s.br, s.line, s.done = longline.Buffer{}, nil, Line{}, true
	s.cur, s.parts, s.members = part{}, nil, nil
}

func (s *scanner) Next() bool {
	if s.done {
		return false
	}
	if !s.started {
		s.started = true
		if s.header != nil {
			// A Zstandard log: the opener decoded the header frame.
			s.lineNo = 1
			s.line = Line{Data: s.header, Pos: sessionlog.Pos{Path: s.name, Line: 1, Seq: -1}}
			if ok, err := s.nextPart(); err != nil {
				return s.readErr(err)
			} else if !ok {
				s.cur = part{r: eofReader{}, torn: -1}
				s.br = bufio.NewReader(s.cur.r)
			}
			return true
		}
		return s.readHeader()
	}
	for {
		line, terminated, err := s.readLine()
		if errors.Is(err, io.EOF) {
			if !s.endPart() {
				return false
			}
			continue
		}
		if err != nil {
			return s.readErr(err)
		}
		s.lineNo++
		if !terminated {
			// A final record without a newline is always a torn tail (§2.2).
			if s.cur.strict {
				return s.fail(s.lineNo, "corrupt Zstandard session log: complete frame contains a torn JSONL record", nil)
			}
			s.startIssue("the final line has no newline")
			continue
		}
		if blank(line) {
			// Never JSON: not worth the parser (a log of blank lines
			// inflates from a few kilobytes).
			if s.issue == "" {
				s.startIssue(fmt.Sprintf("corrupt session log: unparsable committed event at line %d", s.lineNo-1))
			} else {
				s.dropped++
			}
			continue
		}
		rec, members, ok := peek(line, s.members)
		if members != nil {
			s.members = members // the buffer, for the next line
		}
		if ok && rec.object && rec.hasType && rec.typ == "session" {
			return s.fail(s.lineNo, fmt.Sprintf("a second session header at line %d", s.lineNo), nil)
		}
		if !ok {
			if s.issue != "" { // a later defect only counts: no text is made for it
				s.dropped++
				continue
			}
			s.startIssue(fmt.Sprintf("corrupt session log: unparsable committed event at line %d", s.lineNo-1))
			continue
		}
		turnEnd := rec.hasType && rec.typ == "turn/end"
		if s.issue != "" {
			s.dropped++
			if turnEnd {
				// A later turn/end proves the defect is in the committed region.
				return s.fail(s.issueLine, s.issue, nil)
			}
			continue
		}
		first, n := rec.seq0, rec.members
		if !rec.row {
			n = 1
			f, isNum := number(rec.seq)
			if !rec.hasSeq || !isNum || f != float64(s.expected) {
				s.startIssue(fmt.Sprintf("corrupt session log: seq gap in committed region at line %d (expected %d, got %s)",
					s.lineNo-1, s.expected, jsString(rec.seq, rec.hasSeq)))
				if turnEnd {
					return s.fail(s.issueLine, s.issue, nil)
				}
				continue
			}
			first = s.expected
		}
		if first != s.expected {
			s.startIssue(fmt.Sprintf("corrupt session log: seq gap in committed region at line %d (expected %d, got %d)",
				s.lineNo-1, s.expected, first))
			continue
		}
		s.expected += n
		s.kept += n
		s.line = Line{Data: line, Owned: s.owned, Pos: sessionlog.Pos{Path: s.name, Line: s.lineNo, Seq: -1}, Members: members}
		return true
	}
}

// startIssue records the first defect; later ones only count as dropped.
func (s *scanner) startIssue(reason string) {
	if s.issue == "" {
		s.issue = reason
		s.issueLine = s.lineNo
	}
	s.dropped++
}

// endPart handles the end of the current part; false when scanning is over.
func (s *scanner) endPart() bool {
	if s.cur.strict && s.issue != "" {
		return s.fail(s.issueLine, "corrupt Zstandard session log: complete frame contains a torn JSONL record", nil)
	}
	if s.cur.torn >= 0 {
		s.tornPart = s.cur.torn
	}
	ok, err := s.nextPart()
	if err != nil {
		return s.readErr(err)
	}
	if ok {
		return true
	}
	s.done = true
	s.release() // the read is over
	switch {
	case s.tornPart >= 0 && s.issue == "":
		s.warnings = append(s.warnings, Warning{Pos: sessionlog.Pos{Path: s.name, Line: s.lineNo + 1, Seq: -1}, Unit: "line", Kept: s.kept,
			Reason: "the final Zstandard frame at byte " + strconv.FormatInt(s.tornPart, 10) + " is incomplete; its complete lines are kept"})
	case s.tornPart >= 0:
		s.warnings = append(s.warnings, Warning{Pos: sessionlog.Pos{Path: s.name, Line: s.issueLine, Seq: -1}, Dropped: s.dropped, Unit: "line", Kept: s.kept,
			Reason: "the final Zstandard frame at byte " + strconv.FormatInt(s.tornPart, 10) + " is incomplete; " + s.issue})
	case s.issue != "":
		s.warnings = append(s.warnings, Warning{Pos: sessionlog.Pos{Path: s.name, Line: s.issueLine, Seq: -1}, Dropped: s.dropped, Unit: "line", Kept: s.kept,
			Reason: s.issue})
	}
	return false
}

// readHeader reads and yields line 1 of a plaintext log (containers.md §1,
// the gate of parseHeaderRecord; the header's fields are the header layer's).
func (s *scanner) readHeader() bool {
	ok, err := s.nextPart()
	if err != nil {
		return s.readErr(err)
	}
	if !ok {
		return s.fail(0, "empty or header-less session log", nil)
	}
	line, terminated, err := s.readLine()
	if err != nil && !errors.Is(err, io.EOF) {
		return s.readErr(err)
	}
	if !terminated {
		return s.fail(0, "empty or header-less session log", nil)
	}
	s.lineNo = 1
	if reason := headerProblem(line); reason != "" {
		return s.fail(1, reason, nil)
	}
	s.headerID = headerID(line)
	s.line = Line{Data: line, Pos: sessionlog.Pos{Path: s.name, Line: 1, Seq: -1}}
	return true
}

// headerProblem applies the container's part of the header gate: JSON, and
// an object whose type is "session". The field rules belong to the reader.
func headerProblem(line []byte) string {
	rec, _, ok := peek(line, nil)
	if !ok && !rec.row {
		return "corrupt session log: header line is not valid JSON"
	}
	if !rec.object || !rec.hasType || rec.typ != "session" {
		return "corrupt session log: first line is not a session header"
	}
	return ""
}

// headerID returns the header's id when it is a string.
func headerID(line []byte) string {
	v := skipWS(line)
	if len(v) == 0 || v[0] != '{' {
		return ""
	}
	var id string
	members(v[:valueEnd(v)], func(key, val []byte) {
		if keyIs(key, "id") {
			id, _ = stringValue(val)
		}
	})
	return id
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// blank reports whether a line is empty or JSON white space only.
func blank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
