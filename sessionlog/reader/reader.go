// Package reader is the one reading path of a session log: package load,
// through which every command and the scenario verb load read logs, reads
// them with it. It composes, in order:
//
//  1. the container (package container): raw JSONL, .jsonl.zstd, a web
//     export zip, a session directory, a store entry or a SQLite database,
//     detected by content, with upstream's torn-tail and corruption rules;
//  2. the header rules (package header) on line 1;
//  3. upstream's load-time upgrades of older shapes (package upgrade);
//  4. the JSONL decoder (package jsonl: envelope, packed rows);
//  5. the vocabulary rule (sessionlog.CheckType, with AllowUnknown);
//  6. crash recovery (package recovery): the synthetic closers upstream's
//     loader appends to a log that ends inside a turn, unless NoRecover.
//
// Validation and the surface fold (surface.Load) stay with the caller
// (package load).
// Every event's Data, SurfaceOp and SourceEventSeqs, when present, are
// valid JSON: the container checks each line whole, and what the later
// steps build (packed rows' members, upgraded shapes, recovery's closers)
// is valid too, so a caller's fold need not scan them for it again
// (surface.Folder.TrustSyntax). FuzzRead holds the reader to it.
//
// A log without upstream's session header is dshtest's own form (log.md
// §1.3: scenario archives, emitted scenarios, test data). It is read as the
// JSONL decoder has always read it, a torn last line tolerated with a
// warning, with the vocabulary rule but without upgrades or recovery,
// which are upstream's loader's and apply to upstream's containers.
//
// Reading streams: a Stream yields one event at a time, and no form is held
// whole. A container's refusal can come only at the end of the stream (a
// defect is corruption only if a later turn/end follows it), so the events
// of a Stream whose Err is not nil must not be used (package load collects
// them and checks).
package reader

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/header"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/sessionlog/recovery"
	"github.com/dshtest/dshtest/sessionlog/upgrade"
)

// Options say what to read and what to tolerate.
type Options struct {
	// Session selects a session of a SQLite database by id.
	Session string
	// Subagent selects a subagent log of a web export.
	Subagent string
	// MaxLineBytes caps one line; 0 means 64 MiB.
	MaxLineBytes int
	// MaxTextBytes caps the whole text, after any decompression; 0 means
	// container.DefaultMaxText.
	MaxTextBytes int64
	// AllowUnknown reads an unknown type without ignorable: true as
	// log-only (it is marked ignorable); one carrying a surfaceOp is
	// refused even so.
	AllowUnknown bool
	// NoRecover leaves a log that ends inside a turn as it is, without the
	// synthetic closers.
	NoRecover bool
	// ID, when set, is the session id the header must name (a store's
	// session, found by it: package load), as upstream's stored-identity
	// check requires.
	ID string
	// Decoders, when set, keeps a Zstandard log's decoder from one read
	// to the next (container.Decoders); nil makes one per read.
	Decoders *container.Decoders
	// Upgraded, when set, are the upgrades an earlier read of this log
	// recorded (Stream.RecordUpgrades): a line is taken as that read
	// upgraded it, not upgraded again, when that read was whole and kept
	// them all (Upgrades). The log must not have changed since.
	Upgraded *Upgrades
}

// TextBOM is the warning for a file that starts with a UTF-8 byte-order
// mark (which is skipped).
const TextBOM = "file starts with a UTF-8 byte-order mark; it is skipped"

var bom = []byte{0xEF, 0xBB, 0xBF}

// TextStreamFraming is the warning for a headered Zstandard log whose
// frames are not upstream's (container.FramingStream): dshtest reads it,
// and says that upstream would not.
const TextStreamFraming = "the Zstandard frames are not upstream's (its first frame holds more than the header line, as the zstd command writes): upstream refuses the file (\"corrupt Zstandard session log: first frame is not exactly one header line\"); it is read as one stream of raw JSONL"

// Stream reads a log one event at a time.
//
//	s, err := reader.Open(path, reader.Options{})
//	if err != nil { … }
//	defer s.Close()
//	for s.Next() { use(s.Event(), s.Line()) }
//	if err := s.Err(); err != nil { … refuse: the events read must not be used … }
type Stream struct {
	name string
	opts Options
	lg   *container.Log // nil for a header-less log
	bare *jsonl.Decoder // a header-less log
	// bareCap is the text cap under bare: a read past it is the
	// container's refusal, not a read error.
	bareCap *container.TextCap
	file    *os.File
	// plain decodes a header-less log compressed as a whole.
	plain io.Closer

	dec      *jsonl.LineDecoder
	up       *upgrade.Upgrader
	record   *Upgrades // where the upgrades are recorded, or nil
	retaken  int       // the lines taken from Options.Upgraded
	rec      recovery.Recoverer
	head     header.Header
	hasHead  bool
	pending  []sessionlog.Event // the events of the line read last
	next     int                // pending[next] is the next to yield
	line     int
	ev       sessionlog.Event
	closing  *recovery.Closing // the closers to yield, built one at a time
	closers  []recovery.Closer // those yielded, without their lines (Summary)
	inClose  int               // closers yielded + 1 once the stream is past the log
	events   int
	text     int64 // a container's lines read so far, newlines included
	size     int64 // the text's size when known before reading, else -1
	ahead    *lineScanner
	warnings []sessionlog.Warning
	err      error
	done     bool
}

// maxDeclaredRatio is the most text a compressed log's declared sizes are
// believed for, per byte of the file: session logs compress 3–15×. (At 64,
// a 52 MB file whose torn last frame declared 3.4 GB had load.Collect make
// room for millions of events it did not hold: 423 MB of address space,
// which a process under a limit could not map.)
const maxDeclaredRatio = 16

// containerOptions are the container's part of opts.
func containerOptions(opts Options) container.Options {
	return container.Options{Session: opts.Session, Subagent: opts.Subagent, MaxLine: opts.MaxLineBytes, MaxText: opts.MaxTextBytes, ID: opts.ID, Decoders: opts.Decoders}
}

// Open opens the log at path (a file of any form, or a session directory).
func Open(path string, opts Options) (*Stream, error) {
	copts := containerOptions(opts)
	s := &Stream{name: path, opts: opts, size: -1}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, inputErr(path, err)
	}
	if fi.Mode().IsRegular() {
		defer func() {
			switch {
			case s.bare != nil && s.plain == nil || s.lg != nil && s.lg.Form() == container.FormJSONL:
				s.size = fi.Size() // raw text: the file is the text
			case s.lg != nil:
				// What the frames declare, unless more than a log
				// compresses to (a lie would size a buffer by it).
				if d := s.lg.DeclaredSize(); d > 0 && d/maxDeclaredRatio <= fi.Size() {
					s.size = d
				}
			}
		}()
	}
	if fi.Mode().IsRegular() {
		f, err := os.Open(path)
		if err != nil {
			return nil, inputErr(path, err)
		}
		var magic [3]byte
		n, _ := f.ReadAt(magic[:], 0)
		skip := int64(0)
		if n == 3 && bytes.Equal(magic[:], bom) {
			skip = 3
			s.warnings = append(s.warnings, sessionlog.Warning{Pos: sessionlog.Pos{Path: path, Line: 1, Seq: -1}, Text: TextBOM})
		}
		var head [4]byte
		if n, _ := f.ReadAt(head[:], skip); n == 4 && isZstdMagic(head[:]) {
			if br, plain, _ := bareZstd(io.NewSectionReader(f, skip, fi.Size()-skip)); plain != nil {
				s.file, s.plain = f, plain
				s.openBare(br, path, copts)
				return s, nil
			}
		}
		if !hasHeader(f, skip) {
			if _, err := f.Seek(skip, io.SeekStart); err != nil {
				f.Close()
				return nil, inputErr(path, err)
			}
			s.file = f
			s.openBare(f, path, copts)
			return s, nil
		}
		if skip > 0 {
			lg, err := container.OpenReader(io.NewSectionReader(f, skip, fi.Size()-skip), path, copts)
			if err != nil {
				f.Close()
				return nil, fromContainer(err)
			}
			s.file = f
			s.lg = lg
			s.dec = jsonl.NewLineDecoder(lg.Name())
			return s, nil
		}
		f.Close()
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		// A pipe or a device (/dev/stdin): peek at its start to tell a
		// header-less log from upstream's containers, then stream it.
		return s.openStream(path, copts)
	}
	lg, err := container.Open(path, copts)
	if err != nil {
		return nil, fromContainer(err)
	}
	s.lg = lg
	s.dec = jsonl.NewLineDecoder(lg.Name())
	return s, nil
}

// openStream opens a file that is not regular.
func (s *Stream) openStream(path string, copts container.Options) (*Stream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, inputErr(path, err)
	}
	if err := s.fromReader(f, path, copts); err != nil {
		f.Close()
		return nil, err
	}
	s.file = f
	return s, nil
}

// OpenReader reads a log from r, which it does not close; name is what
// its refusals and warnings call it. It reads every form Open does but a
// session directory and SQLite, which need a path. The text's size is not
// known before it is read (TextSize is -1).
func OpenReader(r io.Reader, name string, opts Options) (*Stream, error) {
	s := &Stream{name: name, opts: opts, size: -1}
	if err := s.fromReader(r, name, containerOptions(opts)); err != nil {
		return nil, err
	}
	return s, nil
}

// fromReader sets s to read r: a header-less log or a container, by its
// first bytes.
func (s *Stream) fromReader(r io.Reader, name string, copts container.Options) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, _ := br.Peek(3); bytes.Equal(b, bom) {
		br.Discard(3)
		s.warnings = append(s.warnings, sessionlog.Warning{Pos: sessionlog.Pos{Path: name, Line: 1, Seq: -1}, Text: TextBOM})
	}
	peek, _ := br.Peek(4096)
	var src io.Reader = br
	switch {
	case isZstdMagic(peek):
		pr, plain, rest := bareZstd(br)
		if plain != nil {
			s.plain = plain
			s.openBare(pr, name, copts)
			return nil
		}
		src = rest // upstream's container: read from the start again
	case !startsContainer(peek):
		s.openBare(br, name, copts)
		return nil
	}
	lg, err := container.OpenReader(src, name, copts)
	if err != nil {
		return fromContainer(err)
	}
	s.lg = lg
	s.dec = jsonl.NewLineDecoder(lg.Name())
	return nil
}

// openBare sets s to read a header-less log from r, under the container's
// text cap as every form is.
func (s *Stream) openBare(r io.Reader, name string, copts container.Options) {
	s.bareCap = container.NewTextCap(r, copts.TextLimit())
	s.bare = jsonl.NewDecoder(s.bareCap, name)
	s.bare.SetMaxLineBytes(s.opts.MaxLineBytes)
	// A selection the log cannot answer is its refusal, at the first Next:
	// read as it is, the log would not be the one asked for.
	switch {
	case s.opts.Subagent != "":
		s.err = container.NotAnExport(name, s.opts.Subagent, "header-less JSONL")
	case s.opts.Session != "" || s.opts.ID != "":
		id := cmp.Or(s.opts.ID, s.opts.Session)
		s.err = sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: name, Seq: -1},
			fmt.Sprintf("session %q asked for, but the log has no session header to name its session", id), nil)
	}
	s.done = s.err != nil
}

// bareZstd reads the start of the Zstandard stream r to tell a header-less
// log compressed as a whole (its plaintext starts as no container does:
// dshtest's own JSONL) from upstream's compressed container. For the
// first it returns a reader of the plaintext and the decoder to close; for
// anything else (a start that does not decode included, which the
// container's reader refuses saying why) a nil decoder and rest, which
// reads r from its start again.
func bareZstd(r io.Reader) (plain *bufio.Reader, dec io.Closer, rest io.Reader) {
	seen := &recorder{r: r}
	d, err := container.PlainZstd(seen)
	if err == nil {
		br := bufio.NewReaderSize(d, 64<<10)
		// A start that decodes to a whole first line is enough to tell:
		// a later frame that does not decode is the read's refusal.
		peek, err := br.Peek(4096)
		whole := err == nil || errors.Is(err, io.EOF) || bytes.IndexByte(peek, '\n') >= 0
		if len(peek) > 0 && whole && !startsContainer(peek) {
			seen.done, seen.buf = true, nil
			return br, d, nil
		}
		d.Close()
	}
	return nil, nil, io.MultiReader(bytes.NewReader(seen.buf), r)
}

// recorder keeps what is read through it until done.
type recorder struct {
	r    io.Reader
	buf  []byte
	done bool
}

func (c *recorder) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if !c.done {
		c.buf = append(c.buf, p[:n]...)
	}
	return n, err
}

// isZstdMagic reports whether b starts a Zstandard frame.
func isZstdMagic(b []byte) bool {
	return len(b) >= 4 && b[0] == 0x28 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD
}

// hasHeader reports whether a regular file is one of upstream's containers
// rather than a header-less dshtest log: anything that is not text (a
// compressed, zip or SQLite file), or text whose first line is a session
// header. Only the first line's start is read.
func hasHeader(f *os.File, skip int64) bool {
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, skip)
	return startsContainer(buf[:n])
}

// startsContainer is hasHeader over the first bytes of a log (up to 4096).
func startsContainer(buf []byte) bool {
	n := len(buf)
	if len(buf) >= 4 && (bytes.HasPrefix(buf, []byte("SQLite format 3")) || bytes.HasPrefix(buf, []byte("PK")) ||
		(buf[1] == 0x2A && buf[2] == 0x4D && buf[3] == 0x18) || (buf[0] == 0x28 && buf[1] == 0xB5 && buf[2] == 0x2F && buf[3] == 0xFD)) {
		return true
	}
	if i := bytes.IndexByte(buf, '\n'); i >= 0 {
		return header.IsHeader(buf[:i])
	}
	if n < 4096 {
		return header.IsHeader(buf) // one line, no newline
	}
	// A first line longer than the peek: a header is short, so look for
	// its type member in what was read.
	return bytes.Contains(buf, []byte(`"type":"session"`)) && !bytes.Contains(buf, []byte(`"seq"`))
}

// Next advances to the next event; false at the end or on a refusal.
func (s *Stream) Next() bool {
	if s.done {
		return false
	}
	if s.bare != nil {
		return s.nextBare()
	}
	for {
		if s.next < len(s.pending) {
			s.ev = s.pending[s.next]
			s.next++
			s.events++
			return true
		}
		if more := s.dec.More(); len(more) > 0 { // a packed row's next events
			if err := s.take(more); err != nil {
				s.err, s.done = err, true
				return false
			}
			continue
		}
		if s.inClose > 0 {
			return s.nextCloser()
		}
		if s.ahead == nil {
			s.ahead = startScanner(s.lg)
		}
		ln, ok := s.ahead.next()
		if !ok {
			return s.end()
		}
		s.text += int64(len(ln.Data)) + 1
		if err := s.readLine(ln.Data, ln.Members, ln.Owned, ln.Pos.Line); err != nil {
			s.err, s.done = err, true
			return false
		}
	}
}

// readLine takes one container line through the header rules, the
// upgrades, the decoder, the vocabulary and recovery; owned is the line's
// container.Line.Owned.
func (s *Stream) readLine(data []byte, members []fastjson.Span, owned bool, line int) error {
	s.line = line
	if !s.hasHead {
		h, err := header.Parse(data)
		if err != nil {
			return place(err, sessionlog.LayerHeader, sessionlog.Pos{Path: s.lg.Name(), Line: line, Seq: -1})
		}
		s.hasHead, s.head = true, h
		for _, w := range h.Warnings {
			s.warnings = append(s.warnings, sessionlog.Warning{Pos: sessionlog.Pos{Path: s.lg.Name(), Line: line, Seq: -1}, Text: w})
		}
		if _, err := s.dec.Decode(data, line); err != nil {
			return err // the decoder's, placed
		}
		s.up = upgrade.New(h.ID)
		return nil
	}
	out, changed, err := s.upgrade(data, line)
	if err != nil {
		seq := int64(-1)
		var ue *sessionlog.Error
		if errors.As(err, &ue) {
			seq = ue.Seq
		}
		return place(err, sessionlog.LayerUpgrade, sessionlog.Pos{Path: s.lg.Name(), Line: line, Seq: seq})
	}
	var evs []sessionlog.Event
	switch {
	case changed:
		evs, err = s.dec.Decode(out, line)
	case owned: // the container's to give away: its big members are kept, not copied
		evs, err = s.dec.DecodeOwned(out, members, line)
	case members != nil: // split by the container as it checked the line
		evs, err = s.dec.DecodeSplit(out, members, line)
	default: // the container yields only valid JSON lines
		evs, err = s.dec.DecodeValid(out, line)
	}
	if err != nil {
		return err // the decoder's, placed
	}
	if len(evs) == 1 && evs[0].Type != sessionlog.TypeAssistantChunk {
		if err := s.checkType(&evs[0]); err != nil {
			return err
		}
		s.pending, s.next = evs, 0
		if !s.opts.NoRecover {
			s.rec.Feed(out)
		}
		return nil
	}
	return s.take(evs)
}

// take makes evs the events to yield next: the decoder's own slice, valid
// until it is asked for more, which it is once every one of them is
// yielded, so a packed row's events are not copied once more. A packed
// row's events come a batch at a time (jsonl.LineDecoder.More); recovery
// reads only the seq and time of the last event read.
func (s *Stream) take(evs []sessionlog.Event) error {
	for i := range evs {
		if err := s.checkType(&evs[i]); err != nil {
			return err
		}
	}
	s.pending, s.next = evs, 0
	if n := len(evs); n > 0 && !s.opts.NoRecover {
		last := &evs[n-1]
		if last.Type == sessionlog.TypeAssistantChunk {
			s.rec.FeedChunk(last.Seq, last.Time)
		} else {
			s.rec.Feed(fmt.Appendf(nil, `{"type":%q,"seq":%d,"time":%d}`, last.Type, last.Seq, last.Time))
		}
	}
	return nil
}

// checkType applies the vocabulary rule to one event.
func (s *Stream) checkType(e *sessionlog.Event) error {
	info, err := sessionlog.CheckType(sessionlog.TypeCheck{Type: e.Type, Seq: e.Seq, Ignorable: e.Ignorable,
		HasSurfaceOp: e.SurfaceOp != nil, AllowUnknown: s.opts.AllowUnknown})
	if err != nil {
		// The vocabulary's text names the seq itself.
		return sessionlog.Refuse(sessionlog.LayerVocabulary, sessionlog.Pos{Path: s.name, Line: s.line, Seq: -1}, err.Error(), err)
	}
	if !info.Known() {
		e.Ignorable = true // read as log-only
	}
	return nil
}

// end is the end of the container's stream: its verdict, then the closers.
func (s *Stream) end() bool {
	if err := s.lg.Err(); err != nil {
		s.err, s.done = fromContainer(err), true
		return false
	}
	if f, _ := s.lg.Framing(); f == container.FramingStream {
		s.warnings = append(s.warnings, sessionlog.Warning{Pos: sessionlog.Pos{Path: s.lg.Name(), Line: 1, Seq: -1}, Text: TextStreamFraming})
	}
	for _, w := range s.lg.Warnings() {
		s.warnings = append(s.warnings, sessionlog.Warning{Pos: w.Pos, Text: w.Text()})
	}
	if !s.hasHead {
		s.err, s.done = sessionlog.Refuse(sessionlog.LayerHeader, sessionlog.Pos{Path: s.lg.Name(), Seq: -1}, "empty log: no session header", nil), true
		return false
	}
	if !s.opts.NoRecover {
		cl, err := s.rec.Closing()
		if err != nil {
			s.err, s.done = sessionlog.Refuse(sessionlog.LayerRecovery, sessionlog.Pos{Path: s.lg.Name(), Seq: -1}, err.Error(), err), true
			return false
		}
		s.closing = cl
	}
	s.inClose = 1
	return s.nextCloser()
}

func (s *Stream) nextCloser() bool {
	i := s.inClose - 1
	if s.closing == nil || i >= s.closing.Len() {
		s.done = true
		return false
	}
	s.inClose++
	c, err := s.closing.At(i)
	if err != nil {
		s.err, s.done = sessionlog.Refuse(sessionlog.LayerRecovery, sessionlog.Pos{Path: s.lg.Name(), Seq: -1}, err.Error(), err), true
		return false
	}
	evs, err := s.dec.Decode(c.Line, 0)
	if err != nil || len(evs) != 1 {
		s.err, s.done = sessionlog.Refuse(sessionlog.LayerRecovery, sessionlog.Pos{Path: s.lg.Name(), Seq: c.Seq},
			fmt.Sprintf("synthetic %s does not decode: %v", c.Type, err), err), true
		return false
	}
	c.Line = nil // the event is decoded: the summary keeps what it says of it
	s.closers = append(s.closers, c)
	s.ev = evs[0]
	s.line = 0
	s.events++
	return true
}

// nextBare reads a header-less log as the JSONL decoder always has.
func (s *Stream) nextBare() bool {
	ev, err := s.bare.Next()
	if err == io.EOF {
		s.done = true
		if s.events == 0 {
			line := 1 // a log of blank lines
			if s.bare.Header() != nil {
				line = max(s.bare.Line(), 1)
			}
			s.err = sessionlog.Refuse(sessionlog.LayerDecode, sessionlog.Pos{Path: s.name, Line: line, Seq: -1}, "empty log: no events", nil)
		}
		return false
	}
	if err != nil {
		s.done = true
		if s.bareCap.Over() {
			s.err = container.TextTooLong(sessionlog.Pos{Path: s.name, Line: s.bare.Line(), Seq: -1}, s.bareCap.Limit())
			return false
		}
		var de *sessionlog.Error
		if !errors.As(err, &de) {
			s.err = sessionlog.Refuse(sessionlog.LayerDecode, sessionlog.Pos{Path: s.name, Line: s.bare.Line(), Seq: -1}, err.Error(), err)
			return false
		}
		if errors.Is(err, sessionlog.ErrTruncated) && s.events > 0 {
			s.warnings = append(s.warnings, sessionlog.Warning{Pos: sessionlog.Pos{Path: s.name, Line: de.Line, Seq: -1},
				Text: fmt.Sprintf("truncated last line (a torn write): using the %d events before it", s.events)})
			return false
		}
		if de.Seq < 0 && de.Reason != "invalid session header" && !strings.HasPrefix(de.Reason, jsonl.ReasonNotALog) {
			// A line that could not be decoded would have held the next
			// seq; say which, so the reader can find it.
			de = de.At(sessionlog.Pos{Path: de.Path, Line: de.Line, Seq: int64(s.events)})
		}
		s.err = de
		return false
	}
	s.line = s.bare.Line()
	if err := s.checkType(&ev); err != nil {
		s.done = true
		s.err = err
		return false
	}
	s.ev = ev
	s.events++
	return true
}

// Event is the current event. It stays valid after Next.
func (s *Stream) Event() *sessionlog.Event { e := s.ev; return &e }

// TextBytes returns how much of the log's text (its JSONL lines, after any
// decompression) has been read so far. A command sizes its memory budget
// by it, since a compressed file's size says little of its text.
func (s *Stream) TextBytes() int64 {
	if s.bare != nil {
		return s.bare.Offset()
	}
	return s.text
}

// TextSize returns the size of the log's text when it is known before it
// is read, else -1: a raw JSONL file's size, or the content sizes a
// Zstandard log's frames declare (which a torn last frame or a lying file
// can overstate: it sizes buffers and progress, never a check).
func (s *Stream) TextSize() int64 { return s.size }

// Window is the history a Zstandard log's decoder allocates
// (container.Log.Window), 0 for another form.
func (s *Stream) Window() int64 {
	if s.lg == nil {
		return 0
	}
	return s.lg.Window()
}

// Decoded is how much of a Zstandard log's text its decoder has written
// (container.Log.Decoded), 0 for another form; it may be called from any
// goroutine.
func (s *Stream) Decoded() int64 {
	if s.lg == nil {
		return 0
	}
	return s.lg.Decoded()
}

// Line is the current event's line in the log's plaintext (a packed row's
// events share it); 0 for a synthetic closer.
func (s *Stream) Line() int { return s.line }

// Err is the refusal that ended the stream, a *sessionlog.Error, or nil.
func (s *Stream) Err() error { return s.err }

// Summary is what a read reports besides its events.
type Summary struct {
	// Name is what was read, as its refusals and warnings name it (a
	// zip's member: "export.zip!session.jsonl").
	Name string
	// Form is the container; "" for a header-less log, FormZstd for one
	// compressed (its Header nil).
	Form container.Form
	// Framing is how a Zstandard log's frames cut its text, and Frames
	// how many complete frames it has ("" and 0 for other forms).
	Framing container.Framing
	Frames  int
	// Header is the session header line, compacted, or nil.
	Header json.RawMessage
	// Upgraded counts the events the load-time upgrades changed.
	Upgraded int
	// Closers are the synthetic events appended after the log, as they
	// were read, their Line let go once decoded.
	Closers []recovery.Closer
	// Warnings are the accepted defects met.
	Warnings []sessionlog.Warning
	// Subagents lists a web export's subagent logs.
	Subagents []string
}

// Summary is the stream's report: whole once Next has returned false.
func (s *Stream) Summary() Summary {
	sum := Summary{Name: s.name, Header: s.Header(), Closers: s.closers, Warnings: s.warnings}
	if s.lg != nil {
		sum.Name, sum.Form, sum.Subagents = s.lg.Name(), s.lg.Form(), s.lg.Subagents()
		sum.Framing, sum.Frames = s.lg.Framing()
	}
	if s.plain != nil {
		sum.Form = container.FormZstd // and no header
	}
	if s.up != nil {
		sum.Upgraded = s.up.Upgraded() + s.retaken
	}
	return sum
}

// Header is the session header line read so far, compacted, or nil.
func (s *Stream) Header() json.RawMessage {
	if s.dec != nil {
		return s.dec.Header()
	}
	return s.bare.Header()
}

// Close releases the files.
func (s *Stream) Close() error {
	var err error
	if s.ahead != nil {
		s.ahead.stop() // before the container it reads is closed
	}
	// The events read go, though the Stream may be held a while longer
	// (its header and summary): one may be megabytes.
	clear(s.pending)
	s.pending, s.next, s.ev = nil, 0, sessionlog.Event{}
	if s.dec != nil {
		s.dec.Release()
	}
	if s.lg != nil {
		err = s.lg.Close()
	}
	if s.plain != nil {
		s.plain.Close()
	}
	if s.file != nil {
		if e := s.file.Close(); err == nil {
			err = e
		}
	}
	return err
}

// fromContainer returns a container's refusal (a *sessionlog.Error)
// as it is, and makes one of any other error.
func fromContainer(err error) error {
	var ce *sessionlog.Error
	if errors.As(err, &ce) {
		return err
	}
	return sessionlog.Refuse(sessionlog.LayerContainer, sessionlog.NoPos, err.Error(), err)
}

// place returns a layer's refusal placed at pos: the layer's own
// *sessionlog.Error there, or a new one of layer wrapping err.
func place(err error, layer sessionlog.Layer, pos sessionlog.Pos) error {
	var e *sessionlog.Error
	if errors.As(err, &e) {
		return e.At(pos)
	}
	return sessionlog.Refuse(layer, pos, err.Error(), err)
}

// inputErr is the refusal of a file that cannot be opened or read.
func inputErr(path string, err error) error {
	return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: path, Seq: -1}, sessionlog.OSText(err), err)
}
