package invariant

import (
	"bytes"
	"hash/maphash"
	"iter"
	"sync"

	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/transcript"
)

// This file searches a rendered document for what the invariants look for
// as its rows are read: the expected texts in order (no-lost-message), the
// marker rows (one-marker) and the checkpoints' payloads (no-payload). The
// document's norm is read a chunk at a time and never held whole: on a log
// of long prompts one norm was as large as the log, and repro built one per
// size while it searched the last.

// normChunk is how many bytes of a document's norm a search takes at a
// time. Each size holds several chunks' worth at once (the one being
// filled, those queued, and the copies its seeker, marker counter and
// payload search keep), and repro's collector is paced by a memory limit
// that counts them: at 256 KiB they were megabytes the heap could not
// grow into: repro on 100k-event logs took 2–10% less CPU at 64 KiB
// (current, dense, small; medians of interleaved runs).
const normChunk = 64 << 10

// sizeInputs is what a document is searched for, derived from the log
// once.
type sizeInputs struct {
	shown []shownText
	// need is how many times each norm (by normKey) must show: the times
	// the expected texts hold it.
	need        map[uint64]int
	seed        maphash.Seed
	payload     *payloads
	marker      []byte // the marker's norm
	quoted      int    // times the expected texts quote the marker's words
	checkpoints int
	// worked are the norms not kept (shownText.norms) of the texts the
	// searches are at, worked out once for the sizes searched side by
	// side: by text, with how many searches hold them.
	mu     sync.Mutex
	worked map[int]*workedNorms
}

// workedNorms are a text's norms worked out again, and how many searches
// hold them.
type workedNorms struct {
	norms [][]byte
	users int
}

// normsOf returns the norms of expected text t, worked out once for the
// searches that look for them at the same time: a search that takes
// them gives them back (release) once past them. Kept norms are given
// back by nothing.
func (in *sizeInputs) normsOf(t int) [][]byte {
	s := &in.shown[t]
	if s.norms != nil || len(s.keys) == 0 {
		return s.norms
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	w := in.worked[t]
	if w == nil {
		w = &workedNorms{norms: s.normsOf()}
		in.worked[t] = w
	}
	w.users++
	return w.norms
}

// release gives back text t's norms taken with normsOf.
func (in *sizeInputs) release(t int) {
	if s := &in.shown[t]; s.norms != nil || len(s.keys) == 0 {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if w := in.worked[t]; w != nil {
		if w.users--; w.users <= 0 {
			delete(in.worked, t)
		}
	}
}

// newSizeInputs derives the inputs of the expected texts shown.
func newSizeInputs(shown []shownText, seed maphash.Seed, payload *payloads, checkpoints int) *sizeInputs {
	in := &sizeInputs{shown: shown, need: map[uint64]int{}, seed: seed, payload: payload, worked: map[int]*workedNorms{},
		marker: []byte(norm(transcript.MarkerText)), quoted: quotedMarkers(shown), checkpoints: checkpoints}
	for _, s := range shown {
		for _, k := range s.keys {
			in.need[k]++
		}
	}
	return in
}

// docFindings is what one document shows of the inputs.
type docFindings struct {
	markers int    // marker rows, the quoted ones counted
	pieces  []bool // pieces[p]: payload piece p shows
	// unfound are the norms the in-order pass did not find, by text; only
	// a count over the whole document says whether they lack (recount).
	unfound []textNorm
}

// textNorm is one norm of expected text text.
type textNorm struct {
	text int
	norm string
}

// normPiece is what a search's reading hands its search: a chunk of the
// document's norm, or a barrier (ack), closed once every chunk before it
// is searched.
type normPiece struct {
	chunk []byte
	ack   chan struct{}
}

// searchDoc searches the document whose norm arrives in chunks, in order.
// A chunk is not kept past the search's reading of it.
func (in *sizeInputs) searchDoc(chunks <-chan normPiece) docFindings {
	seek := &seeker{in: in}
	markers := &counter{pat: in.marker}
	var pieces *pieceStream
	if in.payload != nil && len(in.payload.pieces) > 0 {
		pieces = newPieceStream(in.payload.pieceFinder)
	}
	for p := range chunks {
		if c := p.chunk; c != nil {
			seek.add(c)
			markers.add(c)
			if pieces != nil {
				pieces.add(c)
			}
		}
		if p.ack != nil {
			close(p.ack)
		}
	}
	f := docFindings{markers: markers.n, unfound: seek.finish()}
	if pieces != nil {
		f.pieces = pieces.found
	}
	return f
}

// chunker reduces rows to their norm (appendRowNorm) and sends it in
// chunks of about normChunk bytes.
type chunker struct {
	chunk []byte
	send  func([]byte)
}

func newChunker(send func([]byte)) *chunker {
	return &chunker{chunk: make([]byte, 0, normChunk+normChunk/4), send: send}
}

func (k *chunker) row(row string) {
	if k.chunk = appendRowNorm(k.chunk, row); len(k.chunk) >= normChunk {
		k.flush()
	}
}

// flush sends the chunk begun, if any.
func (k *chunker) flush() {
	if len(k.chunk) > 0 {
		k.send(k.chunk)
		k.chunk = make([]byte, 0, normChunk+normChunk/4)
	}
}

// streamRows reduces rows to their norm and sends it in chunks of about
// normChunk bytes (chunker), calling each with every row first.
func streamRows(rows iter.Seq[string], each func(string), send func([]byte)) {
	k := newChunker(send)
	for row := range rows {
		if each != nil {
			each(row)
		}
		k.row(row)
	}
	k.flush()
}

// search searches a document's rows as they are read, each also called
// with every row (nil: none), on a goroutine of its own.
func (in *sizeInputs) search(rows iter.Seq[string], each func(string)) docFindings {
	return in.searchSynced(func(yield func(string) bool, _ func()) { rows(yield) }, each)
}

// searchSynced is search of rows that may call sync: what they yielded
// before it is searched when it returns (a reader that draws a long text
// at several sizes in turn has each size find it before the next is
// drawn, so that each search lets go of it before the next holds it).
func (in *sizeInputs) searchSynced(rows func(yield func(string) bool, sync func()), each func(string)) docFindings {
	chunks := make(chan normPiece, 2)
	var f docFindings
	wait := ahead.Go(func() { f = in.searchDoc(chunks) })
	func() {
		defer close(chunks)
		k := newChunker(func(c []byte) { chunks <- normPiece{chunk: c} })
		rows(func(row string) bool {
			if each != nil {
				each(row)
			}
			k.row(row)
			return true
		}, func() {
			k.flush()
			ack := make(chan struct{})
			chunks <- normPiece{ack: ack}
			<-ack
		})
		k.flush()
	}()
	wait()
	return f
}

// lacking returns the keys of the norms a document lacks, given what
// searching it found: the norms the in-order pass did not find, counted
// over the whole document, read again from rows.
func (in *sizeInputs) lacking(f docFindings, rows iter.Seq[string]) map[uint64]bool {
	out := map[uint64]bool{}
	if len(f.unfound) == 0 {
		return out
	}
	var pats []string
	seen := map[string]bool{}
	for _, u := range f.unfound {
		if !seen[u.norm] {
			seen[u.norm] = true
			pats = append(pats, u.norm)
		}
	}
	// One pass counts them all: a counter each had held a copy of every
	// chunk and searched it, thousands of them when an answer drawn
	// above its prompt left every stretch of it unfound.
	counts := newMultiCounter(pats)
	streamRows(rows, nil, counts.add)
	for i, n := range pats {
		if key := in.key(n); counts.n[i] < in.need[key] {
			out[key] = true
		}
	}
	return out
}

// key is a norm's key in need and lacking.
func (in *sizeInputs) key(norm string) uint64 { return normKey(in.seed, norm) }

func normKey(seed maphash.Seed, norm string) uint64 { return maphash.String(seed, norm) }

// seeker is countsBelow's in-order pass over a document read in chunks:
// each expected norm is searched from just past the last one found. It
// holds the document from there on, which is a little more than the norm
// it looks for while the texts show in order; a norm not found keeps the
// rest of the document until the end, where the norms still to find are
// searched in it as countsBelow searches them.
type seeker struct {
	in    *sizeInputs
	text  int      // the expected text whose norms are looked for
	norms [][]byte // its norms
	next  int      // the norm of norms looked for
	pat   []byte   // that norm
	buf   []byte   // the document read, from some point before at
	at    int      // where in buf the search resumes
	from  int      // where in buf the current norm may still start
	done  bool     // every norm found
	// started says text is being looked at (its norms are read).
	started bool
}

// pattern returns the norm looked for, moving on to the next text's
// norms as needed; nil when there is none left.
func (s *seeker) pattern() []byte {
	for s.pat == nil {
		if s.next < len(s.norms) {
			s.pat = s.norms[s.next] // only read
			break
		}
		if s.started {
			s.in.release(s.text)
			s.text++
		}
		s.started = true
		s.norms = nil
		if s.text >= len(s.in.shown) {
			return nil
		}
		s.norms, s.next = s.in.normsOf(s.text), 0
	}
	return s.pat
}

// advance moves past the norm looked for.
func (s *seeker) advance() {
	s.next++
	s.pat = nil
}

func (s *seeker) add(chunk []byte) {
	if s.done {
		return
	}
	if s.at > 0 { // what is before at is never searched again
		n := copy(s.buf, s.buf[s.at:])
		s.buf, s.from, s.at = s.buf[:n], s.from-s.at, 0
	}
	s.buf = append(s.buf, chunk...)
	for {
		p := s.pattern()
		if p == nil {
			s.done, s.buf = true, nil
			return
		}
		i := bytes.Index(s.buf[s.from:], p)
		if i < 0 {
			s.from = max(s.at, len(s.buf)-len(p)+1)
			if s.at >= normChunk && s.at >= len(s.buf)/2 {
				// Most of what is held is behind: a long text's norm was
				// found. Let its array go now, not at the next chunk
				// (which, at several sizes drawn in turn, comes once the
				// other sizes have found it too).
				s.buf = append([]byte(nil), s.buf[s.at:]...)
				s.from, s.at = s.from-s.at, 0
			}
			return
		}
		s.at = s.from + i + len(p)
		s.from = s.at
		s.advance()
	}
}

// finish returns the norms the pass does not find, once the whole
// document is read: from the one it looks for on, each is searched from
// just past the last found, in what is held.
func (s *seeker) finish() []textNorm {
	var out []textNorm
	for !s.done {
		p := s.pattern()
		if p == nil {
			break
		}
		if i := bytes.Index(s.buf[s.at:], p); i >= 0 {
			s.at += i + len(p)
		} else {
			out = append(out, textNorm{s.text, string(s.norms[s.next])})
		}
		s.advance()
	}
	s.buf = nil
	return out
}

// counter counts the non-overlapping occurrences of pat in a document
// read in chunks, as bytes.Count does over the whole: it holds the last
// len(pat)-1 bytes read, in which the next occurrence may start.
type counter struct {
	pat  []byte
	n    int
	buf  []byte
	keep int // buf[keep:] is held for the next chunk
}

func (c *counter) add(chunk []byte) {
	if len(c.pat) == 0 {
		return
	}
	n := copy(c.buf, c.buf[c.keep:])
	c.buf = append(c.buf[:n], chunk...)
	pos := 0
	for {
		i := bytes.Index(c.buf[pos:], c.pat)
		if i < 0 {
			break
		}
		c.n++
		pos += i + len(c.pat)
	}
	c.keep = max(pos, len(c.buf)-len(c.pat)+1, 0)
}

// lengthIndex finds many patterns in a text at once: the patterns of each
// length by a rolling hash of the text's windows of that length
// (Rabin–Karp), looked up through a bit filter and confirmed byte for
// byte. It costs the text once per distinct length, however many patterns
// there are, or however often their beginnings repeat in it.
type lengthIndex struct {
	pats   []string
	groups []*lenGroup
	maxLen int
}

// lenGroup is the patterns of one length: their hashes in a list while
// they are few, else in a map behind a bit filter.
type lenGroup struct {
	l      int
	pow    uint64 // hashBase^(l-1)
	few    []hashed
	by     map[uint64][]int
	filter []uint64 // bit h%filterBits of every pattern's hash
}

// hashed is a pattern's hash and index.
type hashed struct {
	h uint64
	i int
}

// fewPatterns is the most patterns a lenGroup keeps in a list.
const fewPatterns = 8

func newLengthIndex(pats []string) *lengthIndex {
	x := &lengthIndex{pats: pats}
	byLen := map[int]*lenGroup{}
	for i, p := range pats {
		if len(p) == 0 {
			continue
		}
		g := byLen[len(p)]
		if g == nil {
			g = &lenGroup{l: len(p), pow: 1}
			for range len(p) - 1 {
				g.pow *= hashBase
			}
			byLen[len(p)] = g
			x.groups = append(x.groups, g)
		}
		g.few = append(g.few, hashed{windowHash(p), i})
		x.maxLen = max(x.maxLen, len(p))
	}
	for _, g := range x.groups {
		if len(g.few) > fewPatterns {
			g.by, g.filter = map[uint64][]int{}, make([]uint64, filterBits/64)
			for _, p := range g.few {
				g.by[p.h] = append(g.by[p.h], p.i)
				g.filter[p.h%filterBits/64] |= 1 << (p.h % 64)
			}
			g.few = nil
		}
	}
	return x
}

// scan calls hit(i, s) for every s from which pats[i] occurs in w, in
// ascending s for each pattern, looking only at the windows that end past
// w[skip] (those before were looked at already).
func (x *lengthIndex) scan(w []byte, skip int, hit func(i, s int)) {
	for _, g := range x.groups {
		s := max(skip-g.l+1, 0)
		if s+g.l > len(w) {
			continue
		}
		h := windowHash(string(w[s : s+g.l]))
		for ; ; s++ {
			for _, p := range g.few {
				if p.h == h && string(w[s:s+g.l]) == x.pats[p.i] {
					hit(p.i, s)
				}
			}
			if g.by != nil && g.filter[h%filterBits/64]&(1<<(h%64)) != 0 {
				for _, i := range g.by[h] {
					if string(w[s:s+g.l]) == x.pats[i] {
						hit(i, s)
					}
				}
			}
			if s+g.l >= len(w) {
				break
			}
			h = (h-uint64(w[s])*g.pow)*hashBase + uint64(w[s+g.l])
		}
	}
}

// multiCounter counts the non-overlapping occurrences of each of many
// patterns in a document read in chunks, as bytes.Count does each over the
// whole, in one pass (lengthIndex). It holds the longest pattern's length
// less one bytes between chunks.
type multiCounter struct {
	x       *lengthIndex
	n       []int   // n[i]: occurrences of pats[i] counted
	lastEnd []int64 // where pats[i]'s last counted occurrence ends
	window  []byte  // the bytes held from before, then the chunk
	base    int64   // the document offset of window[0]
}

func newMultiCounter(pats []string) *multiCounter {
	return &multiCounter{x: newLengthIndex(pats), n: make([]int, len(pats)), lastEnd: make([]int64, len(pats))}
}

func (m *multiCounter) add(chunk []byte) {
	if len(m.x.groups) == 0 {
		return
	}
	keep := min(m.x.maxLen-1, len(m.window))
	m.base += int64(len(m.window) - keep)
	n := copy(m.window, m.window[len(m.window)-keep:])
	m.window = append(m.window[:n], chunk...)
	// The windows that end in the chunk: those that end in what was held
	// were looked at with the chunk before.
	m.x.scan(m.window, keep, func(i, s int) {
		if at := m.base + int64(s); at >= m.lastEnd[i] {
			m.n[i]++
			m.lastEnd[i] = at + int64(len(m.x.pats[i]))
		}
	})
}

// pieceStream is pieceFinder.find over a document read in chunks: each
// chunk is searched with the longest piece's length less one bytes of the
// chunk before it, so that a piece across two chunks is found.
type pieceStream struct {
	f       *pieceFinder
	found   []bool
	overlap int
	window  []byte
}

func newPieceStream(f *pieceFinder) *pieceStream {
	return &pieceStream{f: f, found: make([]bool, len(f.pieces)), overlap: max(f.maxLen()-1, 0)}
}

func (p *pieceStream) add(chunk []byte) {
	keep := min(p.overlap, len(p.window))
	n := copy(p.window, p.window[len(p.window)-keep:])
	p.window = append(p.window[:n], chunk...)
	for i, ok := range p.f.find(string(p.window)) {
		p.found[i] = p.found[i] || ok
	}
}
