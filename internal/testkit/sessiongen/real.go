package sessiongen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
)

// This file builds the real shape: a long session replayed from the turns
// of real upstream logs, so that benchmarks also meet upstream's event
// types, payload mixes and packed chunk rows rather than only the
// generator's.

// Real returns a session of about n events assembled from the turns of the
// real upstream logs in the corpus directory.
//
// The corpus directory holds upstream's logs and, beside it, a verdict file
// of the same name with ".tsv" appended (upstream-logs.tsv: file, expect,
// class, note); only the logs it marks "accept" are used. Each is read
// through the one reading path (package reader: upgrades of older shapes,
// packed rows expanded, crash-recovery closers) and cut into turns; a file
// that does not read or holds no turn adds nothing.
//
// The session opens with a log's first turn (which carries that log's
// opening events: request/header, session/title, policies) and then takes
// whole turns drawn with a seeded source until it holds at least n events.
// Every copied event gets the next seq, and the seqs inside it (a replace
// surfaceOp's start and end, sourceEventSeqs, session/title messageSeqs, a
// compaction summary's or prune's shadowed range and seqs) move with it;
// a turn that refers to an event outside itself is never drawn. Turn
// numbers are renumbered to increase; times keep the turn's own rhythm
// (never stepping back, a gap capped at ten minutes) with a seeded pause
// between turns. Payloads are otherwise the corpus's own bytes.
//
// Every event goes through surface.Session.Append, so the result loads.
// The same seed, n and corpus give the same events.
func Real(seed int64, n int, corpus string) ([]sessionlog.Event, error) {
	pool, err := readRealPool(corpus)
	if err != nil {
		return nil, err
	}
	var openers []int
	for i := range pool.turns {
		if pool.turns[i].opener {
			openers = append(openers, i)
		}
	}
	if len(openers) == 0 {
		return nil, fmt.Errorf("sessiongen: %s: no usable turn in the accepted logs", corpus)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15))
	a := newReplayer(DefaultStart)
	next := &pool.turns[openers[rng.IntN(len(openers))]]
	for {
		if err := a.replay(next); err != nil {
			return nil, fmt.Errorf("sessiongen: replaying a turn of %s: %w", next.file, err)
		}
		if a.sess.Len() >= n {
			break
		}
		a.now += int64(2000 + rng.IntN(118000)) // a person's pause between turns
		next = &pool.turns[rng.IntN(len(pool.turns))]
	}
	return a.sess.Events(), nil
}

// realPool is the turns of a corpus that can be replayed anywhere.
type realPool struct {
	turns []realTurn
	// logs counts the accepted logs that read and held a turn, skipped
	// the accepted ones that did not read or held none, dropped the turns
	// that refer outside themselves or do not replay on their own.
	logs, skipped, dropped int
}

// A realTurn is one turn of a real log: the events after the previous
// turn's turn/end up to its own turn/end. A log's first turn also holds the
// events before it (opener), its last one the events after it.
type realTurn struct {
	file   string
	events []sessionlog.Event // as read: the log's seqs
	turn   int64              // the number its turn/start carries
	opener bool
}

// readEvents reads a log's events as the reader yields them (unfolded:
// the pool cuts them into turns and checks each it keeps).
func readEvents(path string) (*load.Log, error) {
	f, err := load.Open(path, load.Options{})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Collect(false)
}

// readRealPool reads the accepted logs of corpus and cuts them into turns.
func readRealPool(corpus string) (*realPool, error) {
	names, err := acceptedLogs(filepath.Clean(corpus) + ".tsv")
	if err != nil {
		return nil, err
	}
	p := &realPool{}
	for _, name := range names {
		lg, err := readEvents(filepath.Join(corpus, name))
		if err != nil || len(lg.Events) == 0 {
			p.skipped++
			continue
		}
		turns := splitTurns(name, lg.Events)
		if len(turns) == 0 {
			p.skipped++
			continue
		}
		p.logs++
		for _, t := range turns {
			if replayable(&t) {
				p.turns = append(p.turns, t)
			} else {
				p.dropped++
			}
		}
	}
	return p, nil
}

// acceptedLogs returns the file names the verdict file marks "accept", in
// name order.
func acceptedLogs(tsv string) ([]string, error) {
	f, err := os.Open(tsv)
	if err != nil {
		return nil, fmt.Errorf("sessiongen: the real shape needs the corpus's verdicts: %w", err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if line == 1 || len(cols) < 2 {
			continue // the column names, or a blank line
		}
		if cols[1] == "accept" && cols[0] == filepath.Base(cols[0]) {
			names = append(names, cols[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("sessiongen: %s: %w", tsv, err)
	}
	slices.Sort(names)
	return names, nil
}

// splitTurns cuts a log into its turns. Events after the last turn/end join
// the last turn; a piece without exactly one turn/start is left out.
func splitTurns(file string, events []sessionlog.Event) []realTurn {
	var turns []realTurn
	start := 0
	for i := range events {
		if events[i].Type == sessionlog.TypeTurnEnd {
			turns = append(turns, realTurn{file: file, events: events[start : i+1], opener: start == 0})
			start = i + 1
		}
	}
	if start < len(events) && len(turns) > 0 {
		last := &turns[len(turns)-1]
		last.events = events[start-len(last.events):]
	}
	kept := turns[:0]
	for _, t := range turns {
		starts := 0
		for i := range t.events {
			if t.events[i].Type == sessionlog.TypeTurnStart {
				starts++
				t.turn, _ = dataInt(t.events[i].Data, "turn")
			}
		}
		if starts == 1 && t.turn > 0 {
			kept = append(kept, t)
		}
	}
	return kept
}

// replayable reports whether t refers to nothing outside itself and
// replays on its own, in a session of its own.
func replayable(t *realTurn) bool {
	first := t.events[0].Seq
	for i := range t.events {
		e := &t.events[i]
		if e.Seq != first+int64(i) {
			return false
		}
		inside := func(seq int64) bool { return seq >= first && seq < e.Seq }
		if op := e.Op(); op.Kind == sessionlog.OpReplace && (!inside(op.Start) || !inside(op.End)) {
			return false
		}
		if len(e.SourceEventSeqs) > 0 {
			seqs, ok := sessionlog.PlainSeqs(e.SourceEventSeqs)
			if !ok || slices.ContainsFunc(seqs, func(s int64) bool { return !inside(s) }) {
				return false
			}
		}
		ok := true
		forDataRefs(e, func(seq int64) { ok = ok && inside(seq) })
		if !ok {
			return false
		}
	}
	r := newReplayer(DefaultStart)
	return r.replay(t) == nil
}

// A replayer appends copies of real turns to one session.
type replayer struct {
	sess *surface.Session
	now  int64
	turn int64
}

func newReplayer(start int64) *replayer {
	r := &replayer{now: start}
	r.sess = surface.NewSession(func() int64 { return r.now })
	return r
}

// maxRealGap caps the pause between two events of a replayed turn: a log
// whose times jump (a snapshot's zeroed times among real ones) keeps a
// believable rhythm.
const maxRealGap = 10 * 60 * 1000

// replay appends a copy of t.
func (r *replayer) replay(t *realTurn) error {
	r.turn++
	shift := int64(r.sess.Len()) - t.events[0].Seq
	ref := t.events[0].Time
	for i := range t.events {
		e := t.events[i]
		if e.Time > ref {
			r.now += min(e.Time-ref, maxRealGap)
			ref = e.Time
		}
		if op := e.Op(); op.Kind == sessionlog.OpReplace {
			e.SurfaceOp = sessionlog.ReplaceOp(op.Start+shift, op.End+shift)
		}
		if len(e.SourceEventSeqs) > 0 {
			if seqs, ok := sessionlog.PlainSeqs(e.SourceEventSeqs); ok {
				e.SourceEventSeqs = appendSeqs(nil, seqs, shift)
			}
		}
		data, err := rewriteData(e.Type, e.Data, shift, t.turn, r.turn)
		if err != nil {
			return fmt.Errorf("seq %d: %w", t.events[i].Seq, err)
		}
		e.Data = data
		if _, err := r.sess.Append(e); err != nil {
			return fmt.Errorf("seq %d (%s): %w", t.events[i].Seq, e.Type, err)
		}
	}
	return nil
}

// seqKeys are the members of log-only payloads that hold seqs of the same
// log, by event type: a list of seqs, or a {start, end} range.
var seqKeys = map[string][]string{
	sessionlog.TypeSessionTitle:      {"messageSeqs"},
	sessionlog.TypeCompactionSummary: {"shadowedSeqs", "shadowedRange"},
	sessionlog.TypeCompactSummary:    {"shadowedSeqs", "shadowedRange"},
	sessionlog.TypeCompactionPrune:   {"shadowedSeqs", "shadowedRange"},
}

// forDataRefs calls fn with every seq e's payload refers to (seqKeys).
func forDataRefs(e *sessionlog.Event, fn func(seq int64)) {
	keys := seqKeys[e.Type]
	if len(keys) == 0 {
		return
	}
	fields, ok := fastjson.SplitObject(e.Data)
	if !ok {
		return
	}
	for _, f := range fields {
		if !slices.Contains(keys, f.Key) {
			continue
		}
		if seqs, ok := sessionlog.PlainSeqs(f.Val); ok {
			for _, s := range seqs {
				fn(s)
			}
		} else if rg, ok := fastjson.SplitObject(f.Val); ok {
			for _, m := range rg {
				if s, ok := sessionlog.SafeNonNegInt(m.Val); ok && (m.Key == "start" || m.Key == "end") {
					fn(s)
				}
			}
		}
	}
}

// rewriteData returns data with its top-level turn renumbered (from to
// to) and its seq references (seqKeys) moved by shift. Members keep their
// order and bytes; data that needs no change is returned as it is.
func rewriteData(typ string, data json.RawMessage, shift, from, to int64) (json.RawMessage, error) {
	fields, ok := fastjson.SplitObject(data)
	if !ok {
		return data, nil // not an object: validation has the last word
	}
	keys := seqKeys[typ]
	changed := false
	for i := range fields {
		f := &fields[i]
		switch {
		case f.Key == "turn":
			if n, ok := sessionlog.SafeNonNegInt(f.Val); ok && n == from {
				f.Val = strconv.AppendInt(nil, to, 10)
				changed = true
			}
		case slices.Contains(keys, f.Key):
			if seqs, ok := sessionlog.PlainSeqs(f.Val); ok {
				f.Val = appendSeqs(nil, seqs, shift)
				changed = true
			} else if rg, ok := fastjson.SplitObject(f.Val); ok {
				for j := range rg {
					if s, ok := sessionlog.SafeNonNegInt(rg[j].Val); ok && (rg[j].Key == "start" || rg[j].Key == "end") {
						rg[j].Val = strconv.AppendInt(nil, s+shift, 10)
					}
				}
				f.Val = appendObject(nil, rg)
				changed = true
			} else {
				return nil, fmt.Errorf("%s %s is neither seqs nor a range", typ, f.Key)
			}
		}
	}
	if !changed {
		return data, nil
	}
	return appendObject(make([]byte, 0, len(data)+8), fields), nil
}

// appendObject writes fields as a compact JSON object.
func appendObject(dst []byte, fields []fastjson.Field) []byte {
	dst = append(dst, '{')
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, f.Key)
		dst = append(dst, ':')
		dst = append(dst, bytes.TrimSpace(f.Val)...)
	}
	return append(dst, '}')
}

// appendSeqs writes seqs, each moved by shift, as a JSON array.
func appendSeqs(dst []byte, seqs []int64, shift int64) []byte {
	dst = append(dst, '[')
	for i, s := range seqs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, s+shift, 10)
	}
	return append(dst, ']')
}

// dataInt returns the integer member key of a payload.
func dataInt(data json.RawMessage, key string) (int64, bool) {
	fields, ok := fastjson.SplitObject(data)
	if !ok {
		return 0, false
	}
	v, ok := fastjson.Lookup(fields, key)
	if !ok {
		return 0, false
	}
	return sessionlog.SafeNonNegInt(v)
}
