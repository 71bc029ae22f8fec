package transcript_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

var trIgnoreRev = cmpopts.IgnoreFields(transcript.Item{}, "Rev")

// trClone deep-copies items so that a snapshot survives the projector's
// in-place updates.
func trClone(items []transcript.Item) []transcript.Item {
	out := make([]transcript.Item, len(items))
	for i, it := range items {
		c := it
		switch {
		case it.Prompt != nil:
			v := *it.Prompt
			c.Prompt = &v
		case it.Context != nil:
			v := *it.Context
			c.Context = &v
		case it.SessionRef != nil:
			v := *it.SessionRef
			v.Entries = slices.Clone(v.Entries)
			c.SessionRef = &v
		case it.Step != nil:
			v := *it.Step
			v.Blocks = slices.Clone(v.Blocks)
			c.Step = &v
		case it.Footer != nil:
			v := *it.Footer
			c.Footer = &v
		case it.Tool != nil:
			v := *it.Tool
			v.Result = slices.Clone(v.Result)
			c.Tool = &v
		case it.Notice != nil:
			v := *it.Notice
			c.Notice = &v
		case it.Marker != nil:
			v := *it.Marker
			c.Marker = &v
		}
		out[i] = c
	}
	return out
}

// trEqualItems reports whether a and b are equal ignoring Rev (nil and
// empty slices differ: both paths must build the same values).
func trEqualItems(a, b []transcript.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Rev, y.Rev = 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// trCheckChange checks that ch honestly describes the step from prev to cur:
// items below From keep their place, the ones in Dirty were updated (Rev went
// up) and the others are untouched; and that any item whose content changed,
// wherever it is now, has a higher Rev.
func trCheckChange(prev, cur []transcript.Item, ch transcript.Change) error {
	if ch.From < 0 || ch.From > len(prev) || ch.From > len(cur) {
		return fmt.Errorf("From %d out of range (old %d, new %d items)", ch.From, len(prev), len(cur))
	}
	if !slices.IsSorted(ch.Dirty) || len(slices.Compact(slices.Clone(ch.Dirty))) != len(ch.Dirty) {
		return fmt.Errorf("Dirty %v is not sorted and unique", ch.Dirty)
	}
	for _, d := range ch.Dirty {
		if d < 0 || d >= ch.From {
			return fmt.Errorf("Dirty index %d not below From %d", d, ch.From)
		}
	}
	if ch.From == len(prev) && len(prev) != len(cur) && len(cur) < len(prev) {
		return fmt.Errorf("items removed but From == old length")
	}
	for j := 0; j < ch.From; j++ {
		if cur[j].ID != prev[j].ID {
			return fmt.Errorf("item %d below From changed identity: %v -> %v", j, prev[j].ID, cur[j].ID)
		}
		if slices.Contains(ch.Dirty, j) {
			if cur[j].Rev <= prev[j].Rev {
				return fmt.Errorf("dirty item %d: Rev %d -> %d", j, prev[j].Rev, cur[j].Rev)
			}
		} else if !reflect.DeepEqual(prev[j], cur[j]) {
			return fmt.Errorf("item %d below From changed but is not in Dirty:\n%s", j, cmp.Diff(prev[j], cur[j]))
		}
	}
	before := map[transcript.ItemID]transcript.Item{}
	for _, it := range prev {
		before[it.ID] = it
	}
	for _, it := range cur {
		old, ok := before[it.ID]
		if ok && it.Rev <= old.Rev && !trEqualItems([]transcript.Item{old}, []transcript.Item{it}) {
			return fmt.Errorf("item %v changed without a Rev bump (%d)", it.ID, it.Rev)
		}
	}
	return nil
}

// trCheckLive feeds events to a projector one by one and checks after every
// Apply that it equals Project over the same prefix and that the Change it
// returned is honest.
func trCheckLive(events []sessionlog.Event, opts transcript.Options) error {
	p := transcript.NewProjector(opts)
	var prev []transcript.Item
	for i := range events {
		ch := p.Apply(&events[i])
		got := p.Transcript()
		if err := trCheckChange(prev, got.Items, ch); err != nil {
			return fmt.Errorf("after seq %d (%s): change: %v", events[i].Seq, events[i].Type, err)
		}
		want := transcript.Project(events[:i+1], opts)
		if !trEqualItems(want.Items, got.Items) || !reflect.DeepEqual(want.Progress, got.Progress) || (want.Items == nil) != (got.Items == nil) {
			return fmt.Errorf("after seq %d (%s): live differs from replay (-replay +live):\n%s", events[i].Seq, events[i].Type,
				cmp.Diff(want, got, trIgnoreRev))
		}
		prev = trClone(got.Items)
	}
	return nil
}

// TestLiveEqualsReplay is the live≡replay contract (terminal.md §1.4, §11):
// for every log in testdata, under both step rules, and for every window
// start (a history page or a resume), the incremental projector equals the
// whole-log projection after every event.
func TestLiveEqualsReplay(t *testing.T) {
	for _, name := range trLogFiles(t) {
		events := trLoad(t, name)
		for _, eager := range []bool{false, true} {
			t.Run(name+"/eager="+strconv.FormatBool(eager), func(t *testing.T) {
				opts := transcript.Options{EagerSteps: eager}
				for start := range events {
					if testing.Short() && start%8 != 0 {
						continue // -short: every eighth window start
					}
					if err := trCheckLive(events[start:], opts); err != nil {
						t.Fatalf("window from seq %d: %v", events[start].Seq, err)
					}
				}
			})
		}
	}
}

// TestProjectorChunksStream pins the live-only behaviour: chunk deltas show
// in the current step as they arrive and the settling message replaces them.
func TestProjectorChunksStream(t *testing.T) {
	events := trLoad(t, "example-session.jsonl")
	p := transcript.NewProjector(transcript.Options{})
	var rows [][]string
	for i := range events[:10] {
		p.Apply(&events[i])
		if i >= 4 {
			rows = append(rows, trRows(p.Transcript(), events[i].Time))
		}
	}
	want := [][]string{
		{`[2] You: "List the files"`},
		{`[2] You: "List the files"`, `[5] Assistant 1/1 (empty) streaming`, `[5f] Footer 1/1: Model wait 0.0s`}, // Thinking is 0 ms so far
		{`[2] You: "List the files"`, `[5] Assistant 1/1 reasoning="Run ls." streaming`, `[5f] Footer 1/1: Model wait 0.0s · Thinking 0.0s`},
		{`[2] You: "List the files"`, `[5] Assistant 1/1 reasoning="Run ls." streaming`, `[5f] Footer 1/1: Model wait 0.0s · Thinking 0.0s`},
		{`[2] You: "List the files"`, `[5] Assistant 1/1 reasoning="Run ls." streaming`, `[5f] Footer 1/1: Model wait 0.0s · Thinking 0.0s`},
		{`[2] You: "List the files"`, `[5] Assistant 1/1 reasoning="Run ls."`, `[5f] Footer 1/1: Model wait 0.0s · Thinking 0.0s`},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows after seqs 4–9 (-want +got):\n%s", diff)
	}
}

// TestProjectorChange pins the Change of a few characteristic events of the
// example log under the eager rule.
func TestProjectorChange(t *testing.T) {
	events := trLoad(t, "example-session.jsonl")
	p := transcript.NewProjector(transcript.Options{EagerSteps: true})
	changes := map[int64]transcript.Change{}
	for i := range events {
		changes[events[i].Seq] = p.Apply(&events[i])
	}
	want := map[int64]transcript.Change{
		1:  {From: 0},                  // step/start adds block and footer
		2:  {From: 2},                  // the prompt is appended
		6:  {From: 3, Dirty: []int{0}}, // the delta streams into the step/start block
		9:  {From: 3, Dirty: []int{0}}, // settles the block
		10: {From: 1},                  // card appended, footer moved from 1 to the end
		11: {From: 4, Dirty: []int{2}}, // result lands on the card; footer already last
		12: {From: 4, Dirty: []int{3}}, // footer completes
		13: {From: 4},
		33: {From: 12}, // marker
		38: {From: 16}, // regenerated copy: nothing
	}
	for seq, w := range want {
		if diff := cmp.Diff(w, changes[seq], cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Change of seq %d (-want +got):\n%s", seq, diff)
		}
	}
}

// ---------------------------------------------------------------------------
// Fuzzing.

// trFuzzLog builds a small log from fuzz bytes: a mix of well-formed and
// malformed events of every type the transcript knows, with times that may
// go backwards, for a handful of turns, steps and call ids.
func trFuzzLog(data []byte) []sessionlog.Event {
	i := 0
	next := func() int {
		if i >= len(data) {
			i++
			return 0
		}
		c := int(data[i])
		i++
		return c
	}
	var events []sessionlog.Event
	base := int64(next() % 4)
	tm := int64(1_000_000)
	for len(events) < 48 && i < len(data) {
		kind, a, b := next(), next(), next()
		turn, step := a%3, b%3
		id := "c" + strconv.Itoa(a%4)
		tm += int64(b%64) - 8
		seq := base + int64(len(events))
		e := sessionlog.Event{Seq: seq, Time: tm}
		ts := fmt.Sprintf(`"turn":%d,"step":%d`, turn, step)
		msg := func(role, content, source string) string {
			return fmt.Sprintf(`{"id":"m%d","role":%q,"content":%s,"source":%s}`, seq, role, content, source)
		}
		texts := []string{`[]`, `[{"type":"text","text":"hi"}]`, `[{"type":"text","text":"  "}]`,
			`[{"type":"reasoning","text":"hm"},{"type":"text","text":"ok"},{"type":"tool-call","id":"` + id + `","name":"bash","arguments":"{}"}]`,
			`[{"type":"tool-call","id":"` + id + `","name":"bash","arguments":"{}"}]`, `[{"type":"image"}]`, `"bad"`}
		content := texts[b%len(texts)]
		replace := fmt.Sprintf(`{"op":"replace","start":%d,"end":%d}`, a%8, a%8)
		srcSeqs := fmt.Sprintf("[%d,%d]", max(seq-1-int64(b%4), 0), max(seq-2, 0))
		switch kind % 24 {
		case 0:
			e.Type, e.Data = "turn/start", json.RawMessage(fmt.Sprintf(`{"turn":%d}`, turn))
		case 1:
			e.Type, e.Data = "step/start", json.RawMessage("{"+ts+"}")
		case 2:
			e.Type, e.Data, e.SurfaceOp = "user/message", json.RawMessage(msg("user", content, `{"kind":"user"}`)), sessionlog.AppendOp()
		case 3:
			sources := []string{`{"kind":"plugin","plugin":"reminder"}`, `{"kind":"goal"}`, `{}`, `{"kind":"plugin","plugin":7}`,
				`{"kind":"session-reference","references":[{"sessionId":"s","label":"s"},{"sessionId":"t","label":"T"}]}`,
				`{"kind":"session-reference","references":[{"sessionId":"s"}]}`, `{"kind":"plugin","plugin":"compact"}`}
			e.Type, e.Data, e.SurfaceOp = "user/message", json.RawMessage(msg("user", content, sources[b%len(sources)])), sessionlog.AppendOp()
		case 4, 5, 6, 7:
			chunks := []string{`{"type":"block-start","index":%d,"blockType":"text"}`, `{"type":"block-start","index":%d,"blockType":"reasoning"}`,
				`{"type":"text-delta","index":%d,"text":"t"}`, `{"type":"reasoning-delta","index":%d,"text":"r"}`,
				`{"type":"block-end","index":%d,"block":{"type":"text","text":"T"}}`, `{"type":"block-end","index":%d,"block":{"type":"tool-call","id":"c1"}}`,
				`{"type":"finish","index":%d,"reason":{"kind":"stop"}}`, `{"type":"block-start","index":%d,"blockType":"tool-call"}`}
			c := fmt.Sprintf(chunks[(a+b)%len(chunks)], b%3)
			e.Type, e.Data = "assistant/chunk", json.RawMessage("{"+ts+`,"chunk":`+c+"}")
		case 8, 9:
			e.Type, e.SurfaceOp = "assistant/message", sessionlog.AppendOp()
			if kind%24 == 9 && a%2 == 0 {
				e.SurfaceOp, e.SourceEventSeqs = json.RawMessage(replace), json.RawMessage(srcSeqs)
			}
			e.Data = json.RawMessage("{" + ts + `,"message":` + msg("assistant", content, `{"kind":"model","provider":"p","model":"m"}`) + "}")
		case 10, 11:
			e.Type, e.Data = "tool/call", json.RawMessage(fmt.Sprintf(`{%s,"callId":%q,"name":"bash","arguments":"{}"}`, ts, id))
		case 12, 13:
			e.Type, e.SurfaceOp = "tool/result", sessionlog.AppendOp()
			if kind%24 == 13 && a%2 == 0 {
				e.SurfaceOp = json.RawMessage(replace)
			}
			e.Data = json.RawMessage(fmt.Sprintf(`{%s,"message":%s,"meta":{"n":%d}}`, ts,
				msg("user", fmt.Sprintf(`[{"type":"tool-result","toolCallId":%q,"content":[{"type":"text","text":"out"}],"isError":%v}]`, id, b%2 == 0),
					fmt.Sprintf(`{"kind":"tool","callId":%q}`, id)), b))
		case 14:
			e.Type, e.Data = "step/end", json.RawMessage("{"+ts+"}")
		case 15:
			kinds := []string{"completed", "error", "aborted", "max-tokens", "disposed", "interrupted", "blocked"}
			e.Type, e.Data = "turn/end", json.RawMessage(fmt.Sprintf(`{"turn":%d,"reason":{"kind":%q,"failure":{"message":"boom"}}}`, turn, kinds[b%len(kinds)]))
		case 16:
			e.Type, e.Data = "llm/retry", json.RawMessage(fmt.Sprintf(`{%s,"mode":%q,"retry":%d,"maxRetries":3,"delayMs":100,"failure":{"message":"busy"}}`,
				ts, []string{"normal", "always"}[b%2], a%4))
		case 17:
			turnField := "null"
			if b%3 == 0 {
				turnField = strconv.Itoa(turn)
			}
			e.Type, e.Data = []string{"compaction/start", "compact/start"}[a%2], json.RawMessage(`{"turn":`+turnField+`}`)
		case 18:
			turnField, errField := "null", ""
			if b%3 == 0 {
				turnField = strconv.Itoa(turn)
			}
			if a%3 == 0 {
				errField = `,"error":"failed"`
			}
			e.Type, e.Data = []string{"compaction/end", "compact/end"}[b%2], json.RawMessage(`{"turn":`+turnField+errField+`}`)
		case 19:
			sums := []string{`{"summary":[{"type":"text","text":"S"}],"shadowedSeqs":[1,2],"shadowedTokenCount":9}`,
				`{"summary":[],"shadowedSeqs":[1],"shadowedTokenCount":"x"}`, `{"summary":[{"type":"text","text":" "}],"shadowedSeqs":[],"shadowedTokenCount":0}`}
			e.Type, e.Data = []string{"compaction/summary", "compact/summary"}[a%2], json.RawMessage(sums[b%len(sums)])
		case 20:
			srcs := []string{`{"kind":"plugin","plugin":"compact"}`, `{"kind":"plugin","plugin":"other"}`}
			e.Type, e.SurfaceOp, e.SourceEventSeqs = "user/message", json.RawMessage(replace), json.RawMessage(srcSeqs)
			e.Data = json.RawMessage(msg("user", content, srcs[b%2]))
		case 21:
			e.Type, e.Data = "session/end-seed", json.RawMessage(`{}`)
		case 22:
			e.Type, e.Data, e.SurfaceOp = "steering/message", json.RawMessage(fmt.Sprintf(`{"turn":%d,"message":%s}`, turn, msg("user", content, `{"kind":"user"}`))), sessionlog.AppendOp()
		default:
			types := []string{"request/context", "todo/write", "future/thing", "user/message", "assistant/message", "tool/result"}
			e.Type, e.Data = types[a%len(types)], json.RawMessage([]string{`null`, `{"turn":"x"}`, `[]`, `7`}[b%4])
			if b%5 == 0 {
				e.SurfaceOp = json.RawMessage(`"bogus"`)
			}
		}
		events = append(events, e)
	}
	return events
}

func FuzzTranscript(f *testing.F) {
	f.Add([]byte{0, 0, 1, 1, 1, 1, 1, 2, 1, 1, 4, 0, 0, 5, 1, 1, 8, 3, 3, 10, 3, 3, 12, 3, 3, 14, 1, 1, 15, 0, 0})
	f.Add([]byte{1, 1, 1, 1, 4, 1, 2, 5, 2, 2, 16, 1, 1, 4, 0, 2, 14, 1, 1, 16, 2, 2, 15, 1, 1})
	f.Add([]byte{0, 17, 0, 1, 19, 0, 0, 20, 0, 0, 18, 0, 1, 17, 1, 1, 21, 0, 0, 17, 2, 1})
	f.Add([]byte{2, 8, 0, 4, 9, 0, 4, 11, 2, 0, 13, 2, 0, 10, 1, 1, 12, 1, 1, 3, 0, 4, 22, 1, 1, 23, 5, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		events := trFuzzLog(data)
		for _, eager := range []bool{false, true} {
			opts := transcript.Options{EagerSteps: eager}
			if err := trCheckLive(events, opts); err != nil {
				t.Fatalf("eager=%v: %v\nlog:\n%s", eager, err, trDump(events))
			}
			if err := trCheckSettled(events, opts, 1); err != nil {
				t.Fatalf("eager=%v: settled: %v\nlog:\n%s", eager, err, trDump(events))
			}
			if err := trCheckTaken(events, opts, 1); err != nil {
				t.Fatalf("eager=%v: taken: %v\nlog:\n%s", eager, err, trDump(events))
			}
		}
		if len(events) == 0 {
			return
		}
		n := len(events)
		windows := []transcript.Window{{0, n}, {n / 3, n}, {0, n / 2}, {n / 4, 3 * n / 4}, {n / 2, n / 2}}
		for k, got := range transcript.ProjectWindows(events, windows, transcript.Options{}) {
			w := windows[k]
			if diff := cmp.Diff(transcript.Project(events[w.Start:w.End], transcript.Options{}), got); diff != "" {
				t.Fatalf("window [%d:%d] (-Project +ProjectWindows):\n%s\nlog:\n%s", w.Start, w.End, diff, trDump(events))
			}
		}
		h := history.New(events)
		for _, before := range []int64{-1, 0, events[0].Seq + int64(len(events))/2, events[len(events)-1].Seq + 5} {
			for _, max := range []int{0, 1, 2, 3} {
				got, want := h.Page(before, max), history.ScanPage(events, before, max)
				if diff := trSamePage(want, got); diff != "" {
					t.Fatalf("Page(%d, %d) (-scan +indexed):\n%s", before, max, diff)
				}
			}
		}
	})
}

func trDump(events []sessionlog.Event) string {
	var s string
	for _, e := range events {
		s += fmt.Sprintf("%d %s %s op=%s src=%s\n", e.Seq, e.Type, e.Data, e.SurfaceOp, e.SourceEventSeqs)
	}
	return s
}

// TestReplayFoldsLongSteps: an unsettled step of more chunks than the
// replay holds as payloads (it folds them into the step's blocks as they
// come) shows what they streamed, as the live projector shows it, in
// either order of its blocks' indexes.
func TestReplayFoldsLongSteps(t *testing.T) {
	const n = 10000
	for _, falling := range []bool{false, true} {
		t.Run("falling="+strconv.FormatBool(falling), func(t *testing.T) {
			events := []sessionlog.Event{
				{Type: "turn/start", Seq: 0, Time: 1, Data: json.RawMessage(`{"turn":1}`)},
				{Type: "step/start", Seq: 1, Time: 1, Data: json.RawMessage(`{"turn":1,"step":1}`)},
			}
			want := map[int]string{}
			for i := range n {
				index := i % 3
				if falling {
					index = 2 - index
				}
				text := string(rune('a' + i%26))
				want[index] += text
				events = append(events, sessionlog.Event{Type: "assistant/chunk", Seq: int64(2 + i), Time: int64(2 + i),
					Data: json.RawMessage(fmt.Sprintf(`{"turn":1,"step":1,"chunk":{"type":"text-delta","index":%d,"text":%q}}`, index, text))})
			}
			r := transcript.NewReplay(transcript.Options{})
			p := transcript.NewProjector(transcript.Options{})
			for i := range events {
				r.Apply(&events[i])
				p.Apply(&events[i])
			}
			got, live := r.Transcript(), p.Transcript()
			var step *transcript.Step
			for _, it := range got.Items {
				if it.Step != nil {
					step = it.Step
				}
			}
			if step == nil || len(step.Blocks) != 3 {
				t.Fatalf("replay: %+v", got.Items)
			}
			for k, b := range step.Blocks {
				if b.Type != "text" || b.Text != want[k] {
					t.Errorf("block %d: %s %d bytes, want %d", k, b.Type, len(b.Text), len(want[k]))
				}
			}
			if diff := cmp.Diff(live, got, trIgnoreRev); diff != "" {
				t.Errorf("live and replay differ (-live +replay):\n%s", diff)
			}
		})
	}
}
