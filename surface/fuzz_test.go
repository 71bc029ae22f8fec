package surface

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
)

// FuzzFold offers random event sequences (built from the fuzz bytes) to a
// Surface and to refFold, a literal slice-based transcription of log.md
// §4–§6. They must agree on every accept, every error text and the final
// state, and a rejected candidate must leave the Surface unchanged.
func FuzzFold(f *testing.F) {
	f.Add([]byte{3, 0, 0, 5, 0, 0, 4, 1, 2, 6, 0, 1, 7, 200, 0})
	f.Add([]byte{3, 0, 0, 3, 0, 0, 3, 0, 0, 6, 1, 0, 6, 0, 2, 8, 3, 3})
	f.Add([]byte{5, 0, 0, 7, 0, 1, 7, 0, 2, 7, 1, 3, 9, 0, 0, 10, 0, 1, 11, 0, 0})
	f.Add([]byte{0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6, 5, 6, 7, 6, 7, 8, 7, 8, 9, 8, 9, 10})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(0)
		ref := newRefFold()
		var log []sessionlog.Event
		for i := 0; i+2 < len(data) && i < 3*200; i += 3 {
			e := fuzzEvent(data[i], data[i+1], data[i+2], int64(len(log)), ref.nodes, log)
			before := snapshot(s)
			err := s.Apply(&e)
			refErr := ref.apply(&e)
			if (err == nil) != (refErr == nil) || (err != nil && err.Error() != refErr.Error()) {
				t.Fatalf("event %s %s %s %s: Surface says %v, reference says %v (nodes %v)",
					e.Type, e.SurfaceOp, e.SourceEventSeqs, e.Data, err, refErr, ref.nodes)
			}
			if err != nil {
				if diff := cmp.Diff(before, snapshot(s)); diff != "" {
					t.Fatalf("rejected %s changed the surface:\n%s", e.SurfaceOp, diff)
				}
				continue
			}
			log = append(log, e)
			if !cmp.Equal(s.Nodes(), ref.nodes, cmpEmpty) || s.Generation() != ref.gen {
				t.Fatalf("after seq %d: nodes %v gen %d; reference %v gen %d", e.Seq, s.Nodes(), s.Generation(), ref.nodes, ref.gen)
			}
		}
		res, err := Fold(log, 0)
		if err != nil {
			t.Fatalf("Fold of the accepted log: %v", err)
		}
		if !cmp.Equal(res.Nodes, ref.nodes, cmpEmpty) || !cmp.Equal(res.Replacements, ref.repl, cmpEmpty) {
			t.Fatalf("Fold = %+v; reference %v %+v", res, ref.nodes, ref.repl)
		}
	})
}

var cmpEmpty = cmp.Comparer(func(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
})

// fuzzEvent builds the candidate for seq from an op byte and two argument
// bytes. nodes is the current surface, log the accepted events.
func fuzzEvent(op, a, b byte, seq int64, nodes []int64, log []sessionlog.Event) sessionlog.Event {
	pick := func(x byte) int64 {
		if len(nodes) > 0 && x < 200 {
			return nodes[int(x)%len(nodes)]
		}
		return int64(x) % (seq + 2)
	}
	user := fmt.Sprintf(`{"id":"u%d","role":"user","content":[{"type":"text","text":"t%d"}],"source":{"kind":"user"}}`, seq, a)
	asst := fmt.Sprintf(`{"turn":1,"step":1,"message":{"id":"a%d","role":"assistant","content":[],"source":{"kind":"model","provider":"p","model":"m"}}}`, seq)
	tool := func(id string, text byte, isErr bool) string {
		return fmt.Sprintf(`{"turn":1,"step":1,"message":{"id":"%s","role":"user","content":[{"type":"tool-result","toolCallId":"c","content":[{"type":"text","text":"%d"}],"isError":%v}],"source":{"kind":"tool","callId":"c"}}}`, id, text, isErr)
	}
	e := sessionlog.Event{Seq: seq, Time: seq}
	switch op % 12 {
	case 0:
		e.Type, e.Data = sessionlog.TypeStepStart, json.RawMessage(`{"turn":1,"step":1}`)
	case 1:
		e.Type, e.Data, e.SurfaceOp = sessionlog.TypeToolCall, json.RawMessage(`{}`), json.RawMessage(`"append"`)
	case 2:
		e.Type, e.Data, e.SourceEventSeqs = sessionlog.TypeAssistantChunk, json.RawMessage(`{}`), json.RawMessage(`[0]`)
	case 3:
		e.Type, e.Data, e.SurfaceOp = sessionlog.TypeUserMessage, json.RawMessage(user), json.RawMessage(`"append"`)
		e.SourceEventSeqs = fuzzSources(b, seq, nil)
	case 4:
		e.Type, e.Data, e.SurfaceOp = sessionlog.TypeAssistantMessage, json.RawMessage(asst), json.RawMessage(`"append"`)
		e.SourceEventSeqs = fuzzSources(b, seq, []int64{int64(a) % (seq + 1)})
	case 5:
		e.Type, e.Data, e.SurfaceOp = sessionlog.TypeToolResult, json.RawMessage(tool("t"+strconv.Itoa(int(a)), a, false)), json.RawMessage(`"append"`)
		e.SourceEventSeqs = fuzzSources(b, seq, []int64{max(seq-1, 0)})
	case 6, 8:
		start, end := pick(a), pick(b)
		e.Type, e.Data = sessionlog.TypeUserMessage, json.RawMessage(user)
		if op%12 == 8 {
			e.Type, e.Data = sessionlog.TypeAssistantMessage, json.RawMessage(asst)
		}
		e.SurfaceOp = sessionlog.ReplaceOp(start, end)
		e.SourceEventSeqs = fuzzSources(b>>3, seq, rangeOf(nodes, start, end))
	case 7:
		target := pick(a)
		e.Type, e.SurfaceOp = sessionlog.TypeToolResult, sessionlog.ReplaceOp(target, target)
		e.Data = json.RawMessage(tool("x", b, false))
		if int(target) < len(log) && log[target].Type == sessionlog.TypeToolResult && b%4 != 0 {
			// A content-only rewrite of the target, keys reordered.
			var v map[string]any
			_ = json.Unmarshal(log[target].Data, &v)
			msg := v["message"].(map[string]any)
			blk := msg["content"].([]any)[0].(map[string]any)
			blk["content"] = []any{map[string]any{"type": "text", "text": strconv.Itoa(int(b))}}
			if b%4 == 3 {
				blk["isError"] = true
			}
			e.Data, _ = json.Marshal(v)
		}
		e.SourceEventSeqs = fuzzSources(b>>2, seq, []int64{target})
	case 9:
		e.Type, e.Data = sessionlog.TypeUserMessage, json.RawMessage(user)
		e.SurfaceOp = json.RawMessage([]string{`"prepend"`, `null`, `3`, `[]`, `{"op":"replace","start":0}`,
			`{"op":"replace","start":0,"end":-1}`, `{"op":"replace","startSeq":0,"endSeq":0}`, `{"op":"x","start":0,"end":0}`}[a%8])
	case 10:
		e.Type, e.Data = sessionlog.TypeStepEnd, json.RawMessage(`{}`)
		e.Seq = seq + 1 - 2*int64(a%2)
	case 11:
		e.Type, e.Data = sessionlog.TypeToolResult, json.RawMessage(tool("t", a, false))
	}
	return e
}

// rangeOf returns nodes[start..end] when both are on the surface in order.
func rangeOf(nodes []int64, start, end int64) []int64 {
	si, ei := -1, -1
	for i, n := range nodes {
		if n == start {
			si = i
		}
		if n == end {
			ei = i
		}
	}
	if si < 0 || ei < si {
		return []int64{start, end}
	}
	return nodes[si : ei+1]
}

// fuzzSources builds a sourceEventSeqs value around the wanted entries.
func fuzzSources(mode byte, seq int64, want []int64) json.RawMessage {
	list := func(xs []int64) json.RawMessage {
		b, _ := json.Marshal(xs)
		return b
	}
	switch mode % 9 {
	case 0, 1:
		return list(want)
	case 2:
		return nil
	case 3:
		return json.RawMessage(`[]`)
	case 4:
		if len(want) > 1 {
			return list(want[1:])
		}
		return list(append(append([]int64{}, want...), want...))
	case 5:
		return list(append([]int64{seq}, want...))
	case 6:
		return json.RawMessage(`[0,-1]`)
	case 7:
		return json.RawMessage(`{"a":1}`)
	default:
		return json.RawMessage(`[1.5,"x",null]`)
	}
}

// refFold is the reference fold: log.md §4–§6 transcribed literally, with
// slices, linear searches and generic JSON values.
type refFold struct {
	nodes  []int64
	gen    int
	repl   []Replacement
	events map[int64]*sessionlog.Event
	next   int64
}

func newRefFold() *refFold { return &refFold{events: map[int64]*sessionlog.Event{}} }

func (r *refFold) apply(e *sessionlog.Event) error {
	fail := func(format string, args ...any) error { return fmt.Errorf(format, args...) }
	if e.Seq != r.next {
		return fail("session event seq %d is not contiguous; expected %d", e.Seq, r.next)
	}
	eligible := e.Type == "user/message" || e.Type == "assistant/message" || e.Type == "tool/result" || e.Type == "steering/message"
	if !eligible {
		if e.SurfaceOp != nil {
			return fail("session event %q is not surface-eligible and cannot carry surfaceOp", e.Type)
		}
		if e.SourceEventSeqs != nil {
			return fail("session event %q is not surface-eligible and cannot carry sourceEventSeqs", e.Type)
		}
		r.commit(e)
		return nil
	}
	if e.SurfaceOp == nil {
		return fail("session event %q is surface-eligible and requires a surfaceOp marker", e.Type)
	}
	var op any
	_ = json.Unmarshal(e.SurfaceOp, &op)
	if s, ok := op.(string); ok && s == "append" {
		if err := refProvenance(e, nil); err != nil {
			return err
		}
		r.nodes = append(r.nodes, e.Seq)
		r.commit(e)
		return nil
	}
	obj, ok := op.(map[string]any)
	if !ok {
		return fail("session event %q carries an invalid surfaceOp", e.Type)
	}
	start, ok1 := refSafeInt(obj["start"])
	end, ok2 := refSafeInt(obj["end"])
	if len(obj) != 3 || obj["op"] != "replace" || !ok1 || !ok2 {
		return fail("session event %q carries an invalid replace surfaceOp", e.Type)
	}
	si, ei := -1, -1
	for i, n := range r.nodes {
		if n == start {
			si = i
		}
		if n == end {
			ei = i
		}
	}
	if si < 0 {
		return fail("surface replace: start seq %d not found in surface", start)
	}
	if ei < 0 {
		return fail("surface replace: end seq %d not found in surface", end)
	}
	if si > ei {
		return fail("surface replace: start seq %d (index %d) is after end seq %d (index %d)", start, si, end, ei)
	}
	shadowed := append([]int64{}, r.nodes[si:ei+1]...)
	if err := refProvenance(e, shadowed); err != nil {
		return err
	}
	if e.Type == "tool/result" {
		if len(shadowed) != 1 {
			return fail("tool/result surface replacement must rewrite exactly one current node")
		}
		old := r.events[shadowed[0]]
		if old.Type != "tool/result" {
			return fail("tool/result surface replacement must target a current tool/result")
		}
		if refBlanked(old.Data) != refBlanked(e.Data) {
			return fail("tool/result surface replacement may change only content")
		}
	}
	r.nodes = append(append(append([]int64{}, r.nodes[:si]...), e.Seq), r.nodes[ei+1:]...)
	r.gen++
	r.repl = append(r.repl, Replacement{Seq: e.Seq, Start: start, End: end, ShadowedSeqs: shadowed})
	r.commit(e)
	return nil
}

func (r *refFold) commit(e *sessionlog.Event) {
	r.events[e.Seq] = e
	r.next++
}

func refSafeInt(v any) (int64, bool) {
	f, ok := v.(float64)
	if !ok || f < 0 || f != math.Trunc(f) || f > 1<<53-1 {
		return 0, false
	}
	return int64(f), true
}

func refProvenance(e *sessionlog.Event, shadowed []int64) error {
	var list []any
	if e.SourceEventSeqs != nil {
		var v any
		_ = json.Unmarshal(e.SourceEventSeqs, &v)
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("sourceEventSeqs on event at seq %d must be an array when present", e.Seq)
		}
		list = arr
		if len(list) == 0 && e.Type != "assistant/message" {
			return fmt.Errorf("sourceEventSeqs must not be empty except on assistant/message")
		}
	}
	var seqs []int64
	for _, v := range list {
		n, ok := refSafeInt(v)
		if !ok {
			return fmt.Errorf("session event %q sourceEventSeqs must densely contain non-negative safe integers", e.Type)
		}
		seqs = append(seqs, n)
	}
	for i := range seqs {
		for j := range i {
			if seqs[i] == seqs[j] {
				return fmt.Errorf("sourceEventSeqs must not contain duplicates")
			}
		}
	}
	for _, n := range seqs {
		if n >= e.Seq {
			return fmt.Errorf("sourceEventSeqs must reference earlier events: %d >= current seq %d", n, e.Seq)
		}
	}
	var missing []string
	for _, s := range shadowed {
		found := false
		for _, n := range seqs {
			found = found || n == s
		}
		if !found {
			missing = append(missing, strconv.FormatInt(s, 10))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("surface replace: sourceEventSeqs must include every shadowed surface node; missing %s", strings.Join(missing, ", "))
	}
	return nil
}

// refBlanked canonicalises a tool/result payload with its content blanked:
// json.Marshal sorts map keys, so equal values give equal text.
func refBlanked(data json.RawMessage) string {
	var v map[string]any
	if json.Unmarshal(data, &v) != nil {
		return "invalid"
	}
	if msg, ok := v["message"].(map[string]any); ok {
		blk := map[string]any{}
		if c, ok := msg["content"].([]any); ok && len(c) > 0 {
			if m, ok := c[0].(map[string]any); ok {
				blk = m
			}
		}
		blk["content"] = nil
		msg["content"] = []any{blk}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzSameExceptContent: the fast path of the tool/result rule never panics
// and, on valid JSON, agrees with the generic comparison whenever it
// decides.
func FuzzSameExceptContent(f *testing.F) {
	f.Add([]byte(toolData0), []byte(strings.Replace(toolData0, `"short"`, `"pruned"`, 1)))
	f.Add([]byte(toolData0), []byte(strings.Replace(toolData0, `"isError":false`, `"isError":false,"content":1`, 1)))
	f.Add([]byte(`{"message":{"content":[{"content":1,"a":[1,2]}]},"t":1.0}`), []byte(`{"t":1,"message":{"content":[{"a":[1,2.0]}]}}`))
	f.Add([]byte(`{"message":{"content":[{"\u0061":1}]}}`), []byte(`{"message":{"content":[{"a":1}], "x":{}}}`))
	f.Add([]byte(`{"message":{"content":[{"a":"\"}`), []byte(`{"message":{"content":[{"a`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		eq, ok := sameExceptContentFast(a, b)
		if !ok || !json.Valid(a) || !json.Valid(b) {
			return
		}
		va, _ := contentBlanked(a)
		vb, _ := contentBlanked(b)
		if want := cmp.Equal(va, vb); eq != want {
			t.Fatalf("fast path says %v, generic says %v for\n%s\n%s", eq, want, a, b)
		}
	})
}

// FuzzContentBlankedFast: where the fast blanking takes a valid payload,
// it writes valid JSON equal as a value to what contentBlanked decodes,
// so the rule judges the kept copy as it judges the payload.
func FuzzContentBlankedFast(f *testing.F) {
	for _, s := range contentBlankedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkContentBlankedFast(t, raw) })
}

// contentBlankedSeeds are tool/result payloads of the shapes the fast
// blanking takes and of those it leaves to contentBlanked.
var contentBlankedSeeds = []string{
	toolData0,
	`{"message":{"content":[{"content":1,"a":[1,2]},{"b":2}]},"t":1.0}`,
	`{"message":{"content":[{"\u0061":1,"content":[1]}],"con\u0074ent":[]}}`,
	`{"message":{"content":[{"a":1,"a":2,"content":3,"content":4}]},"message":{"content":[{"x":1e2}]}}`,
	`{"message":{"content":[{"a":"\ud800 \u00e9 <&>"}], "x":{}}, "y" : [ 1 , 2 ] }`,
	`{"message":{"content":[1]}}`, `{"message":{"content":[]}}`, `{"message":{"content":{}}}`,
	`{"message":[]}`, `{"message":null}`, `{}`, `[]`, `1`, `{"message":{}}`,
	`{"message":{"content":[{}]}}`, ` {"message":{"content":[ {"content":null} ]}} `,
}

func checkContentBlankedFast(t *testing.T, raw []byte) {
	t.Helper()
	got, ok := contentBlankedFast(raw)
	if !ok || !json.Valid(raw) {
		return
	}
	if !json.Valid(got) {
		t.Fatalf("contentBlankedFast(%s) = %s: not valid JSON", raw, got)
	}
	want, _ := contentBlanked(raw)
	var v any
	if err := json.Unmarshal(got, &v); err != nil || !cmp.Equal(v, want) {
		t.Fatalf("contentBlankedFast(%s) = %s, contentBlanked gives %v", raw, got, want)
	}
}

// TestContentBlankedFast holds the fast blanking to contentBlanked on the
// seeds and random edits of them, and resultRuleData's copy of a long
// payload to the same verdicts as the payload itself.
func TestContentBlankedFast(t *testing.T) {
	took := 0
	for _, s := range contentBlankedSeeds {
		if _, ok := contentBlankedFast([]byte(s)); ok {
			took++
		}
		checkContentBlankedFast(t, []byte(s))
	}
	if took < 6 {
		t.Errorf("the fast blanking took %d of %d seeds", took, len(contentBlankedSeeds))
	}
	r := rand.New(rand.NewPCG(5, 6))
	keys := []string{`"content"`, `"message"`, `"isError"`, `"a"`}
	for range 30_000 {
		checkContentBlankedFast(t, []byte(synthlog.EditPayload(r, contentBlankedSeeds[r.IntN(len(contentBlankedSeeds))], keys)))
	}
	long := strings.Replace(toolData0, `"short"`, `"`+strings.Repeat("long ", 2000)+`"`, 1)
	kept := resultRuleData(json.RawMessage(long))
	if len(kept) >= len(long) {
		t.Fatalf("resultRuleData kept %d bytes of %d", len(kept), len(long))
	}
	for _, other := range []string{
		toolData0,
		strings.Replace(toolData0, `"isError":false`, `"isError":true`, 1),
		strings.Replace(toolData0, `"step":1`, `"step":1.0`, 1),
		strings.Replace(toolData0, `"m-t2"`, `"m-t3"`, 1),
	} {
		if got, want := sameExceptContent(kept, json.RawMessage(other)), sameExceptContent(json.RawMessage(long), json.RawMessage(other)); got != want {
			t.Errorf("the kept copy judges %s %v, the payload %v", other, got, want)
		}
	}
}

// losslessRef is losslessJSON as it walked strings before stringEnd: byte
// by byte, an escape skipping the byte after it.
func losslessRef(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '"' {
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			continue
		}
		if c != '-' && (c < '0' || c > '9') {
			continue
		}
		j := i
		exp := false
		for j < len(raw) && isNumberByte(raw[j]) {
			exp = exp || raw[j] == 'e' || raw[j] == 'E'
			j++
		}
		num := raw[i:j]
		i = j - 1
		if c != '-' && !exp && len(num) < 300 {
			continue
		}
		f, _ := strconv.ParseFloat(string(num), 64)
		if math.IsInf(f, 0) || (f == 0 && math.Signbit(f)) {
			return false
		}
	}
	return true
}

// FuzzLosslessJSON: on valid JSON, losslessJSON agrees with the byte walk.
func FuzzLosslessJSON(f *testing.F) {
	for _, s := range losslessSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if json.Valid(raw) && losslessJSON(raw) != losslessRef(raw) {
			t.Fatalf("losslessJSON(%s) = %v, the byte walk says %v", raw, losslessJSON(raw), losslessRef(raw))
		}
	})
}

var losslessSeeds = []string{
	`{"a":"-0","b":-0}`, `{"a":"x\"-0","b":1}`, `["\\",-0]`, `["\\\"-0",1e400]`, `["\\\\\\\\",-0.0]`,
	`{"t":"a\\\"b\\\\","n":[1,-1,1e2,-0e5]}`, `"\u0022-0"`, `[1e309]`, `["1e309"]`, `-0`, `0`, `"\\"`,
}

// TestLosslessJSON holds losslessJSON to the byte walk on the seeds and
// random strings of quotes, backslashes, digits and signs.
func TestLosslessJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{`\\`, `\"`, `-0`, `1e999`, `x`, `é`, ` `, `-1`, `0`, `\u0041`}
	cases := append([]string(nil), losslessSeeds...)
	for range 50_000 {
		var b strings.Builder
		b.WriteByte('[')
		for k := range 1 + r.IntN(4) {
			if k > 0 {
				b.WriteByte(',')
			}
			if r.IntN(2) == 0 {
				b.WriteString([]string{"-0", "1", "-1e400", "2.5", "-0.0e1"}[r.IntN(5)])
				continue
			}
			b.WriteByte('"')
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			b.WriteByte('"')
		}
		b.WriteByte(']')
		cases = append(cases, b.String())
	}
	valid := 0
	for _, c := range cases {
		raw := []byte(c)
		if !json.Valid(raw) {
			continue
		}
		valid++
		if got, want := losslessJSON(raw), losslessRef(raw); got != want {
			t.Fatalf("losslessJSON(%s) = %v, the byte walk says %v", raw, got, want)
		}
	}
	if valid < 10_000 {
		t.Fatalf("only %d valid cases", valid)
	}
}
