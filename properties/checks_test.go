package properties

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// subject is one session under check, with the replay terminal and its
// renderings computed once and shared by the properties.
type subject struct {
	events []sessionlog.Event
	p      params
	replay *terminal.Model
	doc    *terminal.Document
}

func newSubject(events []sessionlog.Event, p params) *subject { return &subject{events: events, p: p} }

// model is a terminal mounted on the whole log with the final settings.
func (s *subject) model() *terminal.Model {
	if s.replay == nil {
		s.replay = terminal.New(s.p.config(s.events, s.events))
	}
	return s.replay
}

func (s *subject) document() terminal.Document {
	if s.doc == nil {
		d := s.model().Document()
		s.doc = &d
	}
	return *s.doc
}

// plainRows are the document's rows without their SGR sequences.
func (s *subject) plainRows() []string {
	var out []string
	for _, l := range s.document().Lines {
		out = append(out, ansi.Strip(l))
	}
	return out
}

// checkCodec: the JSONL codec round-trips the log, and encoding is stable.
func checkCodec(s *subject) error {
	var a bytes.Buffer
	if err := jsonl.WriteLog(&a, s.events); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	log, err := jsonl.ParseLog(a.Bytes(), "session.jsonl")
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if log.Header != nil {
		return fmt.Errorf("decode invented a header: %s", log.Header)
	}
	if len(log.Events) != len(s.events) {
		return fmt.Errorf("decode gave %d events, want %d", len(log.Events), len(s.events))
	}
	for i := range s.events {
		x, y := &s.events[i], &log.Events[i]
		if x.Type != y.Type || x.Seq != y.Seq || x.Time != y.Time || x.Ignorable != y.Ignorable ||
			!jsonEqual(x.Data, y.Data) || !rawEqual(x.SurfaceOp, y.SurfaceOp) || !rawEqual(x.SourceEventSeqs, y.SourceEventSeqs) {
			return fmt.Errorf("seq %d changed in a round trip:\n was %s\n now %s", x.Seq, line(x), line(y))
		}
	}
	var b bytes.Buffer
	if err := jsonl.WriteLog(&b, log.Events); err != nil {
		return fmt.Errorf("re-encode: %w", err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		al, bl := strings.Split(a.String(), "\n"), strings.Split(b.String(), "\n")
		for i := range min(len(al), len(bl)) {
			if al[i] != bl[i] {
				return fmt.Errorf("encode is not byte-stable at line %d:\n first %q\nsecond %q", i+1, al[i], bl[i])
			}
		}
		return fmt.Errorf("encode is not byte-stable (%d vs %d bytes)", a.Len(), b.Len())
	}
	return nil
}

func line(e *sessionlog.Event) string {
	b, err := jsonl.AppendEvent(nil, e)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// rawEqual compares optional raw fields: both absent, or the same bytes.
func rawEqual(a, b json.RawMessage) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }

// jsonEqual compares two JSON values byte for byte (the codec keeps raw
// data; a compacting writer may only drop insignificant white space, which
// the generator never writes).
func jsonEqual(a, b json.RawMessage) bool { return bytes.Equal(a, b) }

// checkLiveReplay: the live path equals the replay path, and the model's
// cached document equals a fresh Render of a fresh projection.
func checkLiveReplay(s *subject) error {
	ev, p := s.events, s.p
	k := index(p.liveFrom, len(ev))
	cfg := p.config(ev, ev[:k:k])
	cfg.Width, cfg.Scheme, cfg.HideReasoning, cfg.Tools = p.width0, p.scheme0, p.hideReasoning0, p.tools0
	live := terminal.New(cfg)
	scheme, pi := p.scheme0, 0
	for i := k; i < len(ev); i++ {
		for ; pi < len(p.perturb) && max(index(p.perturb[pi].at, len(ev)), k) <= i; pi++ {
			live.Update(perturbMsg(p.perturb[pi], p, &scheme))
		}
		live.Update(terminal.EventMsg{Event: ev[i]})
	}
	for ; pi < len(p.perturb); pi++ {
		live.Update(perturbMsg(p.perturb[pi], p, &scheme))
	}
	replay := s.model()
	if got, want := live.Settings(), replay.Settings(); got != want {
		return fmt.Errorf("test bug: live settings %+v, replay %+v", got, want)
	}
	if err := diffRows("document", live.Document().Lines, s.document().Lines); err != nil {
		return fmt.Errorf("live (mounted on %d events, %d appended) ≠ replay: %w", k, len(ev)-k, err)
	}
	ls, rs := live.Screen(), replay.Screen()
	if len(ls) > 0 && len(rs) > 0 {
		if err := diffRows("screen", ls[:len(ls)-1], rs[:len(rs)-1]); err != nil {
			return fmt.Errorf("live (mounted on %d events, %d appended) ≠ replay: %w", k, len(ev)-k, err)
		}
	}
	if rt, lt := replay.Transcript(), live.Transcript(); !sameTranscript(rt, lt) {
		opts := cmp.Options{cmpopts.IgnoreFields(transcript.Item{}, "Rev"), cmpopts.EquateEmpty()}
		if d := cmp.Diff(rt, lt, opts); d != "" {
			return fmt.Errorf("live transcript ≠ replay transcript (-replay +live):\n%s", clip(d))
		}
	}
	replayFn := transcript.Project
	if p.proj.Replay != nil {
		replayFn = p.proj.Replay
	}
	fresh := terminal.Render(replayFn(ev, transcript.Options{EagerSteps: p.eager}), p.settings(ev))
	if err := diffRows("document", s.document().Lines, fresh.Lines); err != nil {
		return fmt.Errorf("the mounted model's document ≠ Render(Project(log)): %w", err)
	}
	return nil
}

// sameTranscript is a fast exact comparison ignoring Rev; a false result
// is confirmed by cmp with EquateEmpty.
func sameTranscript(a, b transcript.Transcript) bool {
	if len(a.Items) != len(b.Items) || !reflect.DeepEqual(a.Progress, b.Progress) {
		return false
	}
	for i := range a.Items {
		x, y := a.Items[i], b.Items[i]
		x.Rev, y.Rev = 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func diffRows(what string, got, want []string) error {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Errorf("%s row %d of %d/%d differs:\n got %q\nwant %q", what, i, len(got), len(want), got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%s has %d rows, want %d", what, len(got), len(want))
	}
	return nil
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "\n…"
	}
	return s
}

// checkInvariants runs dshtest repro's transcript invariants
// (internal/repro/invariant) over the session at its final size.
func checkInvariants(s *subject) error {
	sizes := []invariant.Size{{W: s.p.width, H: s.p.height}}
	c := invariant.New(s.events, sizes, transcript.Options{EagerSteps: s.p.eager}, s.p.proj, "prop")
	for _, r := range c.CheckAll() {
		if !r.OK {
			return fmt.Errorf("%s: %s", r.Name, r.Detail)
		}
	}
	return nil
}

// checkKeepsText: every text the log says a person saw is in the
// transcript (as a multiset: each expected text needs its own item).
func checkKeepsText(s *subject) error {
	items := s.model().Transcript().Items
	used := make([]bool, len(items))
	for _, x := range invariant.ExpectedTexts(s.events, s.p.eager) {
		found := false
		for i := range items {
			if used[i] || items[i].Kind != x.Kind {
				continue
			}
			it := &items[i]
			switch x.Kind {
			case transcript.KindPrompt:
				found = it.Prompt.Header == x.Header && it.Prompt.Text == x.Text
			case transcript.KindContext:
				found = it.Context.Text == x.Text
			case transcript.KindSessionRef:
				found = len(it.SessionRef.Entries) == x.SessionRef
			case transcript.KindStep:
				found = it.Step.Settled && it.Step.Text() == x.Text && it.Step.Reasoning() == x.Reasoning
			}
			if found {
				used[i] = true
				break
			}
		}
		if !found {
			return fmt.Errorf("the %s of seq %d is in no transcript item: header %q text %q reasoning %q",
				x.Kind, x.Seq, x.Header, clip(x.Text), clip(x.Reasoning))
		}
	}
	return nil
}

// checkMarkers: one marker per landed checkpoint, in log order, carrying
// the data of the summary the checkpoint cites; and, where the marker fits
// the width, one marker row each.
func checkMarkers(s *subject) error {
	var want []int64
	summaries := map[int64]*sessionlog.Event{}
	for i := range s.events {
		e := &s.events[i]
		if sessionlog.Canonical(e.Type) == sessionlog.TypeCompactionSummary {
			summaries[e.Seq] = e
		}
		if sessionlog.IsCheckpoint(e) {
			want = append(want, e.Seq)
		}
	}
	var got []*transcript.Marker
	var gotSeqs []int64
	for _, it := range s.model().Transcript().Items {
		if it.Kind == transcript.KindMarker {
			got = append(got, it.Marker)
			gotSeqs = append(gotSeqs, it.Marker.Seq)
		}
	}
	if !slices.Equal(gotSeqs, want) {
		return fmt.Errorf("markers at seqs %v, checkpoints at %v", gotSeqs, want)
	}
	for _, m := range got {
		e := &s.events[m.Seq]
		srcs, _ := e.Sources()
		var sum *sessionlog.Event
		for _, x := range srcs {
			if summaries[x] != nil {
				sum = summaries[x]
				break
			}
		}
		if sum == nil {
			continue
		}
		var d sessionlog.CompactionSummaryData
		if json.Unmarshal(sum.Data, &d) != nil {
			continue
		}
		if m.SummaryEventSeq == nil || *m.SummaryEventSeq != sum.Seq {
			return fmt.Errorf("marker %d: summaryEventSeq %v, want %d", m.Seq, deref(m.SummaryEventSeq), sum.Seq)
		}
		if m.ShadowedItemCount == nil || *m.ShadowedItemCount != len(d.ShadowedSeqs) {
			return fmt.Errorf("marker %d: shadowedItemCount %v, want %d", m.Seq, deref(m.ShadowedItemCount), len(d.ShadowedSeqs))
		}
		if m.ShadowedTokenCount == nil || *m.ShadowedTokenCount != d.ShadowedTokenCount {
			return fmt.Errorf("marker %d: shadowedTokenCount %v, want %d", m.Seq, deref(m.ShadowedTokenCount), d.ShadowedTokenCount)
		}
	}
	if s.p.width >= ansi.StringWidth(transcript.MarkerText) {
		n := 0
		for _, r := range s.plainRows() {
			if strings.TrimRight(r, " ") == transcript.MarkerText {
				n++
			}
		}
		if n != len(want) {
			return fmt.Errorf("%d marker rows drawn for %d checkpoints", n, len(want))
		}
	}
	return nil
}

func deref[T any](p *T) any {
	if p == nil {
		return "null"
	}
	return *p
}

var preamble = strings.Join(strings.Fields(sessionlog.CheckpointPreamble), " ")

// checkModelOnly: nothing only the model reads reaches the screen.
func checkModelOnly(s *subject) error {
	rows := s.plainRows()
	for i, r := range rows {
		for _, c := range []string{sessiongen.ModelOnlyCanary, sessiongen.SummaryCanary} {
			if strings.Contains(r, c) {
				return fmt.Errorf("row %d draws model-only text %q: %q", i, c, r)
			}
		}
	}
	joined := strings.Join(strings.Fields(strings.Join(rows, " ")), " ")
	if strings.Contains(joined, preamble[:80]) {
		return fmt.Errorf("the checkpoint preamble is drawn")
	}
	return nil
}

// checkRowWidth: no row is wider than the terminal.
func checkRowWidth(s *subject) error {
	w := s.p.width
	for i, l := range s.document().Lines {
		if n := ansi.StringWidth(l); n > w {
			return fmt.Errorf("document row %d is %d cells wide at width %d: %q", i, n, w, l)
		}
	}
	for i, l := range s.model().Screen() {
		if n := ansi.StringWidth(l); n > w {
			return fmt.Errorf("screen row %d is %d cells wide at width %d: %q", i, n, w, l)
		}
	}
	return nil
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkEscaped: rows hold SGR sequences and displayable text only; every
// control character from the log was escaped (terminal.md §6).
func checkEscaped(s *subject) error {
	for i, l := range s.document().Lines {
		rest := sgr.ReplaceAllString(l, "")
		for _, r := range rest {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				return fmt.Errorf("document row %d holds the raw control %U: %q", i, r, l)
			}
		}
	}
	return nil
}

// checkHistory: for every maxMessages from 1 to 7, paging backwards from
// the tail partitions the log into contiguous pages down to seq 0; the
// indexed pager agrees with the spec's scan; and every summary is on its
// checkpoint's page. For one seeded maxMessages (s.p.pageMax) every page
// is also projected on its own, its markers filled in.
func checkHistory(s *subject) error {
	ev := s.events
	h := history.New(ev)
	for max := 1; max <= 7; max++ {
		before := int64(-1)
		next := int64(len(ev)) // the seq the page must end just before
		for pages := 0; ; pages++ {
			if pages > len(ev)+1 {
				return fmt.Errorf("max %d: paging does not terminate", max)
			}
			pg := h.Page(before, max)
			ref := history.ScanPage(ev, before, max)
			if pg.From != ref.From || pg.To != ref.To || pg.HasMore != ref.HasMore || len(pg.Events) != len(ref.Events) {
				return fmt.Errorf("max %d before %d: History.Page %d-%d hasMore=%v, HistoryPage %d-%d hasMore=%v",
					max, before, pg.From, pg.To, pg.HasMore, ref.From, ref.To, ref.HasMore)
			}
			if len(ev) == 0 {
				break
			}
			if len(pg.Events) == 0 {
				return fmt.Errorf("max %d before %d: empty page with events left", max, before)
			}
			if pg.To != next-1 || pg.Events[len(pg.Events)-1].Seq != pg.To || pg.Events[0].Seq != pg.From {
				return fmt.Errorf("max %d before %d: page %d-%d does not end at %d", max, before, pg.From, pg.To, next-1)
			}
			for i := range pg.Events {
				if pg.Events[i].Seq != pg.From+int64(i) {
					return fmt.Errorf("max %d: page %d-%d is not contiguous at %d", max, pg.From, pg.To, i)
				}
			}
			if pg.HasMore != (pg.From > 0) {
				return fmt.Errorf("max %d: page %d-%d hasMore=%v", max, pg.From, pg.To, pg.HasMore)
			}
			counted := 0
			for i := range pg.Events {
				e := &pg.Events[i]
				if (e.Type == sessionlog.TypeUserMessage || e.Type == sessionlog.TypeAssistantMessage) && sessionlog.IsAppendSurfaceEvent(e) {
					counted++
				}
			}
			if pg.HasMore && counted < max {
				return fmt.Errorf("max %d: page %d-%d counts %d messages and has more", max, pg.From, pg.To, counted)
			}
			if err := pageProjects(ev, pg, max == s.p.pageMax); err != nil {
				return fmt.Errorf("max %d: page %d-%d: %w", max, pg.From, pg.To, err)
			}
			if !pg.HasMore {
				if pg.From != 0 {
					return fmt.Errorf("max %d: last page starts at %d", max, pg.From)
				}
				break
			}
			before, next = pg.From, pg.From
		}
	}
	return nil
}

// pageProjects projects a page on its own: no panic, and each checkpoint's
// cited summary (the compaction/summary among its sourceEventSeqs) is on
// the page, so its marker carries the summary's data.
func pageProjects(all []sessionlog.Event, pg history.Page, project bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("Project panics: %v", r)
		}
	}()
	summaryOf := func(e *sessionlog.Event) int64 {
		srcs, _ := e.Sources()
		for _, x := range srcs {
			if x >= 0 && x < int64(len(all)) && sessionlog.Canonical(all[x].Type) == sessionlog.TypeCompactionSummary {
				return x
			}
		}
		return -1
	}
	onPage := func(seq int64) bool { return seq >= pg.From && seq <= pg.To }
	for i := range pg.Events {
		e := &pg.Events[i]
		if sum := summaryOf(e); sessionlog.IsCheckpoint(e) && sum >= 0 && !onPage(sum) {
			return fmt.Errorf("checkpoint %d's summary %d is on another page", e.Seq, sum)
		}
	}
	if !project {
		return nil
	}
	t := transcript.Project(pg.Events, transcript.Options{})
	for _, it := range t.Items {
		if it.Kind != transcript.KindMarker {
			continue
		}
		if sum := summaryOf(&all[it.Marker.Seq]); sum >= 0 && onPage(sum) && it.Marker.SummaryEventSeq == nil {
			return fmt.Errorf("marker %d lacks the data of summary %d, which is on the page", it.Marker.Seq, sum)
		}
	}
	return nil
}

// checkRenderedText: every plain prompt and every plain settled assistant
// text or shown reasoning (letters, spaces, full stops and newlines only,
// so Markdown renders it as it is) is drawn as a contiguous run of its
// words, in transcript order: wrapping may break lines but loses, adds or
// reorders no word.
func checkRenderedText(s *subject) error {
	var stream []string
	for _, r := range s.plainRows() {
		stream = append(stream, strings.Fields(r)...)
	}
	pos := 0
	find := func(what string, seq int64, text string) error {
		if !plainText.MatchString(text) {
			return nil
		}
		words := strings.Fields(text)
		if len(words) == 0 {
			return nil
		}
		for i := pos; i+len(words) <= len(stream); i++ {
			if slices.Equal(stream[i:i+len(words)], words) {
				pos = i + len(words)
				return nil
			}
		}
		return fmt.Errorf("the %s of seq %d is not drawn (after word %d of %d): %q", what, seq, pos, len(stream), clip(text))
	}
	for _, it := range s.model().Transcript().Items {
		var err error
		switch it.Kind {
		case transcript.KindPrompt:
			err = find("prompt", it.ID.Seq, it.Prompt.Text)
		case transcript.KindStep:
			if !it.Step.Settled {
				continue
			}
			if !s.p.hideReasoning {
				if err = find("reasoning", it.ID.Seq, it.Step.Reasoning()); err != nil {
					break
				}
			}
			err = find("text", it.ID.Seq, it.Step.Text())
		}
		if err != nil {
			return err
		}
	}
	return nil
}
