package container

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// DefaultMaxLine is the default cap on one line's length, 64 MiB.
const DefaultMaxLine = 64 << 20

// DefaultMaxText is the default cap on a log's whole text (its JSONL lines
// after any decompression), 2 GiB: a compressed log is refused past it
// rather than inflated without bound (a read keeps within twice the text,
// repro three times: 4 and 6 GiB at most), and a copy of a database made to
// read it is no larger.
const DefaultMaxText = 2 << 30

// Form names the container a log was found in.
type Form string

// The forms, detected by content (containers.md §0).
const (
	FormJSONL  Form = "jsonl"      // raw JSONL text (§2)
	FormZstd   Form = "jsonl.zstd" // concatenated Zstandard frames (§3)
	FormZip    Form = "zip"        // a web export dsh-session-<id>.zip (§0)
	FormSQLite Form = "sqlite"     // a schema-17 SQLite database (§9)
)

// SQLiteMagic is how a SQLite database's file starts.
const SQLiteMagic = "SQLite format 3\x00"

// Options select what to read and bound how.
type Options struct {
	// Session selects a session of a SQLite database by id; it may be empty
	// when the database holds exactly one session.
	Session string
	// Subagent selects subagents/<id>/session.jsonl of a web export instead
	// of its root session.jsonl. The id is sanitized as the export does.
	Subagent string
	// MaxLine caps one line's length in bytes; 0 means DefaultMaxLine.
	MaxLine int
	// MaxText caps the log's whole text in bytes; 0 means DefaultMaxText.
	MaxText int64
	// ID, when set, is the session id the header must name (a store's
	// session, found by it): a header naming another is refused, as
	// upstream's stored-identity check refuses it.
	ID string
	// Decoders, when set, keeps a Zstandard log's decoder from one read
	// to the next (a log read twice holds one window); nil makes one per
	// read.
	Decoders *Decoders
}

// LineLimit is the cap MaxLine sets.
func (o Options) LineLimit() int {
	if o.MaxLine <= 0 {
		return DefaultMaxLine
	}
	return o.MaxLine
}

// TextLimit is the cap MaxText sets.
func (o Options) TextLimit() int64 {
	if o.MaxText <= 0 {
		return DefaultMaxText
	}
	return o.MaxText
}

// Line is one complete JSONL record of a log: the header, a SessionEvent,
// or a packed chunk row, exactly as stored (for SQLite, as upstream's JSONL
// writer would have written it).
type Line struct {
	// Data is the record without its newline. It is valid only until the
	// next call to Next, unless Owned: copy it to keep it.
	Data []byte
	// Owned says that Data is a new allocation the container gives away
	// (a line of a megabyte or more, gathered from several reads): a
	// reader may keep it, or slices of it, instead of a copy. Nothing
	// writes to it after.
	Owned bool
	// Pos is where the record lies: Line is its 1-based line of the log's
	// plaintext (the header is 1; for SQLite, the row's place in seq order
	// counting the header as 1, which is the line it would be in the JSONL
	// form), Seq the SQLite row's seq (seq0 for a packed row) or -1.
	Pos sessionlog.Pos
	// Members is the split of a line the container checked in one pass
	// (the usual line: an object without white space whose keys need no
	// unescaping), its top-level members in order, so that the decoder
	// need not split it again; nil for any other line. Valid as Data is.
	Members []fastjson.Span
}

// Lines is what each form provides: its lines in order, header first,
// then its verdict and torn tails once Next has returned false. A form read
// by another package (the SQLite reader, RegisterSQLite) hands Open one
// through NewLog.
type Lines interface {
	Next() bool
	Line() Line
	Err() error
	Warnings() []Warning
	// HeaderID is the header's id, once the header has been read ("" if
	// it is not a string).
	HeaderID() string
}

func (s *scanner) Line() Line          { return s.line }
func (s *scanner) Err() error          { return s.err }
func (s *scanner) Warnings() []Warning { return s.warnings }
func (s *scanner) HeaderID() string    { return s.headerID }

// Log is an open session log: a stream of its lines, header first.
//
//	lg, err := container.Open(path, container.Options{})
//	if err != nil { … }
//	defer lg.Close()
//	for lg.Next() { use(lg.Line()) }
//	if err := lg.Err(); err != nil { … refuse: the lines read are not a committed prefix … }
//	for _, w := range lg.Warnings() { … }
//
// A refusal can surface only at the end (a defect is corruption only if a
// later turn/end follows it), so the lines of a log whose Err is non-nil
// must not be used.
type Log struct {
	name      string
	form      Form
	src       Lines
	closers   []io.Closer
	subagents []string
	zstd      zstdFraming
}

// Next advances to the next line; false at the end or on a refusal.
func (l *Log) Next() bool { return l.src.Next() }

// Line is the current line.
func (l *Log) Line() Line { return l.src.Line() }

// Err is the refusal that ended the stream, an *Error, or nil.
func (l *Log) Err() error { return l.src.Err() }

// Warnings are the torn tails met, once Next has returned false.
func (l *Log) Warnings() []Warning { return l.src.Warnings() }

// Name is what is being read, as errors name it.
func (l *Log) Name() string { return l.name }

// Form is the container the log was found in.
func (l *Log) Form() Form { return l.form }

// HeaderID is the header's id, once the header has been read ("" if it is
// not a string).
func (l *Log) HeaderID() string { return l.src.HeaderID() }

// DeclaredSize is the size of the plaintext the container declares before
// it is read (a Zstandard log's frame content sizes), or -1. A torn last
// frame declares more than it yields; a file may lie: it sizes buffers and
// progress, never a check.
func (l *Log) DeclaredSize() int64 {
	src := l.src
	if c, ok := src.(*identity); ok {
		src = c.Lines
	}
	if s, ok := src.(*scanner); ok && s.declared > 0 {
		return s.declared
	}
	return -1
}

// Framing is how a Zstandard log's frames cut its plaintext, or "" for
// another form; Frames is how many complete frames it has.
func (l *Log) Framing() (f Framing, frames int) { return l.zstd.framing, l.zstd.frames }

// Window is the most memory a Zstandard log's decoder allocates for its
// history: the largest window its frames declare, allocated whole at a
// frame's first block and written as the frame's text is decoded, so that
// the part past the text read so far is not resident (0 for another form).
// A memory budget of the text counts that part as free.
func (l *Log) Window() int64 { return l.zstd.window }

// Decoded is how much of a Zstandard log's text its decoder has written
// so far, ahead of the lines read (0 for another form). It may be called
// from any goroutine.
func (l *Log) Decoded() int64 {
	if l.zstd.decoded == nil {
		return 0
	}
	return l.zstd.decoded.Load()
}

// Subagents lists the subagent logs of a web export (the sanitized ids of
// its subagents/<id>/session.jsonl), sorted; nil for other forms.
func (l *Log) Subagents() []string { return l.subagents }

// Close releases the files and decoders, and the buffers of its lines:
// a Log closed before its end (a read of the first events only) may be
// held a while longer, and a line of megabytes grew them.
func (l *Log) Close() error {
	src := l.src
	if c, ok := src.(*identity); ok {
		src = c.Lines
	}
	if s, ok := src.(*scanner); ok {
		s.release()
	}
	var first error
	for i := len(l.closers) - 1; i >= 0; i-- {
		if err := l.closers[i].Close(); err != nil && first == nil {
			first = err
		}
	}
	l.closers = nil
	return first
}

// Open opens the log at path, detecting its form by content: a directory is
// a session directory holding session.jsonl or session.jsonl.zstd (§4); a
// file is SQLite, a zip export, Zstandard or raw JSONL by its first bytes.
func Open(path string, opts Options) (*Log, error) {
	return opts.checkID(open(path, opts))
}

func open(path string, opts Options) (*Log, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot open: "+sessionlog.OSText(err), err)
	}
	if fi.IsDir() {
		file, err := SessionFile(path)
		if err != nil {
			return nil, err
		}
		path = file
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot open: "+sessionlog.OSText(err), err)
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot open: "+sessionlog.OSText(err), err)
	}
	if !fi.Mode().IsRegular() {
		// A pipe or a device (/dev/stdin): read it as a stream.
		lg, err := openReader(f, path, opts)
		if err != nil {
			f.Close()
			return nil, err
		}
		lg.closers = append([]io.Closer{f}, lg.closers...)
		return lg, nil
	}
	var magic [16]byte
	n, _ := f.ReadAt(magic[:], 0)
	if sniff(magic[:n]) == FormSQLite {
		f.Close()
		return openSQLite(path, opts)
	}
	lg, err := openReaderAt(path, f, fi.Size(), magic[:n], opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	lg.closers = append([]io.Closer{f}, lg.closers...)
	return lg, nil
}

// SessionFile finds the log of a session directory: its session.jsonl or
// session.jsonl.zstd (Open reads a directory through it).
func SessionFile(dir string) (string, error) {
	var found []string
	for _, name := range []string{"session.jsonl", "session.jsonl.zstd"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return "", refuse(sessionlog.Pos{Path: dir, Seq: -1}, "not a session directory: it holds neither session.jsonl nor session.jsonl.zstd", nil)
	case 2:
		return "", refuse(sessionlog.Pos{Path: dir, Seq: -1}, "session directory holds both session.jsonl and session.jsonl.zstd; upstream refuses a root with both encodings", nil)
	}
	return found[0], nil
}

// sniff names the form of a file by its first bytes.
func sniff(b []byte) Form {
	switch {
	case bytes.HasPrefix(b, []byte(SQLiteMagic)):
		return FormSQLite
	case bytes.HasPrefix(b, []byte("PK\x03\x04")), bytes.HasPrefix(b, []byte("PK\x05\x06")):
		return FormZip
	case len(b) >= 4 && b[0] == 0x28 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD:
		return FormZstd
	case len(b) >= 4 && b[0]&0xF0 == 0x50 && b[1] == 0x2A && b[2] == 0x4D && b[3] == 0x18:
		// A skippable Zstandard frame: the Zstandard reader refuses it (§3.1).
		return FormZstd
	}
	return FormJSONL
}

// OpenReader reads a log from r, by content. Raw JSONL streams from any
// reader. Zstandard and zip need random access: they are read in place when
// r is an io.ReaderAt with a Size method (*bytes.Reader, *strings.Reader,
// *io.SectionReader) or a regular *os.File, and otherwise spooled to a
// temporary file first. name is used in errors. SQLite needs a path: use
// Open.
func OpenReader(r io.Reader, name string, opts Options) (*Log, error) {
	return opts.checkID(openReader(r, name, opts))
}

func openReader(r io.Reader, name string, opts Options) (*Log, error) {
	type sized interface {
		io.ReaderAt
		Size() int64
	}
	var ra io.ReaderAt
	size := int64(-1)
	switch v := r.(type) {
	case sized:
		ra, size = v, v.Size()
	case *os.File:
		if fi, err := v.Stat(); err == nil && fi.Mode().IsRegular() {
			ra, size = v, fi.Size()
		}
	}
	if ra != nil {
		var magic [16]byte
		n, _ := ra.ReadAt(magic[:], 0)
		if sniff(magic[:n]) == FormSQLite {
			return nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, "a SQLite database must be opened by its path", nil)
		}
		return openReaderAt(name, ra, size, magic[:n], opts)
	}
	br := bufio.NewReader(r)
	peeked, _ := br.Peek(16)
	magic := append([]byte(nil), peeked...)
	switch sniff(magic) {
	case FormJSONL:
		return plainLog(name, br, opts), nil
	case FormSQLite:
		return nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, "a SQLite database must be opened by its path", nil)
	}
	// Zstandard and zip need random access: spool the stream.
	tmp, size, err := spool(name, br, sniff(magic), opts)
	if err != nil {
		return nil, err
	}
	cleanup := closerFunc(tmp.Close)
	lg, err := openReaderAt(name, tmp, size, magic, opts)
	if err != nil {
		cleanup()
		return nil, err
	}
	lg.closers = append([]io.Closer{cleanup}, lg.closers...)
	return lg, nil
}

func openReaderAt(name string, ra io.ReaderAt, size int64, magic []byte, opts Options) (*Log, error) {
	switch sniff(magic) {
	case FormZstd:
		s, framing, c, err := openZstd(name, ra, size, opts.LineLimit(), opts.TextLimit(), opts.Decoders)
		if err != nil {
			return nil, err
		}
		return &Log{name: name, form: FormZstd, src: s, closers: []io.Closer{c}, zstd: framing}, nil
	case FormZip:
		return openZip(name, ra, size, opts)
	}
	if bytes.HasPrefix(magic, []byte{0x1f, 0x8b}) {
		return nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, "gzip-compressed: dsh writes raw JSONL or Zstandard frames, never gzip; gunzip it first", nil)
	}
	return plainLog(name, io.NewSectionReader(ra, 0, size), opts), nil
}

// plainLog reads raw JSONL text.
func plainLog(name string, r io.Reader, opts Options) *Log {
	s := newScanner(name, opts.LineLimit(), onePart(part{r: r, torn: -1}))
	s.maxText = opts.TextLimit()
	return &Log{name: name, form: FormJSONL, src: s}
}

var unsafeExportID = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// SanitizeExportID is the web export's directory name for a subagent id.
func SanitizeExportID(id string) string { return unsafeExportID.ReplaceAllString(id, "_") }

// openZip reads a web export (containers.md §0): the root session.jsonl, or
// subagents/<id>/session.jsonl with Options.Subagent. Members hold the
// plaintext the backend's readRaw produced, read with the raw rules.
func openZip(name string, ra io.ReaderAt, size int64, opts Options) (*Log, error) {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, "not a readable zip archive: "+err.Error(), err)
	}
	var subs []string
	members := map[string]*zip.File{}
	entry := map[string][]int{} // the archive entries (1-based) of each name
	for i, f := range zr.File {
		// As unzip extracts it: ./session.jsonl and /session.jsonl are
		// session.jsonl too.
		name := path.Clean("/" + f.Name)[1:]
		members[name] = f
		entry[name] = append(entry[name], i+1)
		if rest, ok := strings.CutPrefix(name, "subagents/"); ok {
			if id, ok := strings.CutSuffix(rest, "/session.jsonl"); ok && id != "" && !strings.Contains(id, "/") {
				subs = append(subs, id)
			}
		}
	}
	sort.Strings(subs)
	want := "session.jsonl"
	if opts.Subagent != "" {
		want = "subagents/" + SanitizeExportID(opts.Subagent) + "/session.jsonl"
	}
	f := members[want]
	if f == nil {
		reason := "not a dsh web export: it has no session.jsonl at its root"
		if opts.Subagent != "" {
			reason = fmt.Sprintf("the export has no subagent %q (subagents: %s)", opts.Subagent, strings.Join(subs, ", "))
			if len(subs) == 0 {
				reason = fmt.Sprintf("the export has no subagent %q (it has no subagents)", opts.Subagent)
			}
		}
		return nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, reason, nil)
	}
	member := name + "!" + want
	if e := entry[want]; len(e) > 1 {
		// unzip would print both, a reader would pick one: neither is the log.
		nums := make([]string, len(e))
		for i, n := range e {
			nums[i] = strconv.Itoa(n)
		}
		return nil, refuse(sessionlog.Pos{Path: name, Seq: -1}, fmt.Sprintf("the export holds %d members named %s (archive entries %s): which is the log is ambiguous", len(e), want, strings.Join(nums, " and ")), nil)
	}
	if f.UncompressedSize64 > uint64(opts.TextLimit()) {
		return nil, refuse(sessionlog.Pos{Path: member, Seq: -1}, fmt.Sprintf("the member is %d bytes, over the %d-byte text limit", f.UncompressedSize64, opts.TextLimit()), sessionlog.ErrTextTooLong)
	}
	if f.Method == zip.Store {
		// A stored member is read in place: a Zstandard one needs no spool.
		if off, err := f.DataOffset(); err == nil && off >= 0 && off+int64(f.CompressedSize64) <= size {
			sr := io.NewSectionReader(ra, off, int64(f.CompressedSize64))
			var magic [16]byte
			n, _ := sr.ReadAt(magic[:], 0)
			if sniff(magic[:n]) == FormZstd {
				lg, err := openReaderAt(member, sr, sr.Size(), magic[:n], opts)
				if err != nil {
					return nil, err
				}
				lg.form, lg.subagents = FormZip, subs
				return lg, nil
			}
		}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: member, Seq: -1}, "cannot open the member: "+err.Error(), err)
	}
	br := bufio.NewReader(rc)
	magic, _ := br.Peek(16)
	var lg *Log
	switch form := sniff(magic); form {
	case FormJSONL:
		lg = plainLog(member, br, opts)
	case FormZstd:
		// The export decodes frames to plaintext; a hand-made zip may not.
		if lg, err = openReader(br, member, opts); err != nil {
			rc.Close()
			return nil, err
		}
	default:
		rc.Close()
		return nil, refuse(sessionlog.Pos{Path: member, Seq: -1}, "the member is "+string(form)+", not the JSONL a web export holds", nil)
	}
	lg.form = FormZip
	lg.subagents = subs
	lg.closers = append([]io.Closer{rc}, lg.closers...)
	return lg, nil
}
