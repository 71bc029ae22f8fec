package fastjson

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
)

// checkScanSource holds scanSource to sessionlog.DecodeSource (the plain
// path): where it says ok, DecodeSource gives the same source.
func checkScanSource(t *testing.T, raw string) bool {
	t.Helper()
	got, ok := scanSource([]byte(raw))
	if !ok {
		return false
	}
	if want := sessionlog.DecodeSource(json.RawMessage(raw)); got != want {
		t.Fatalf("scanSource(%q) = %+v, DecodeSource gives %+v", raw, got, want)
	}
	return true
}

// sourceCorpus is message sources of every kind, and the sources of a
// synthetic log's messages.
func sourceCorpus() []string {
	out := []string{
		`{"kind":"user"}`, `{"kind":"tool","callId":"call-1"}`,
		`{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"}`,
		`{"kind":"plugin","plugin":"compact","compactionId":"c-1"}`,
		`{"kind":"user","kind":"tool"}`, `{"Kind":"user"}`, `{"kind":1}`, `{"kind":null}`,
		`{"kind":"a\u00e9\n"}`, `{ "kind":"user"}`, `{"kind":"user","extra":{"a":[1,2]}}`, `[]`, `null`,
	}
	for _, e := range synthlog.Log(2000) {
		var m struct {
			Source  json.RawMessage `json:"source"`
			Message struct {
				Source json.RawMessage `json:"source"`
			} `json:"message"`
		}
		_ = json.Unmarshal(e.Data, &m)
		for _, s := range []json.RawMessage{m.Source, m.Message.Source} {
			if s != nil {
				out = append(out, string(s))
			}
		}
	}
	return out
}

// TestScanSource checks scanSource on the corpus and on random edits of it.
func TestScanSource(t *testing.T) {
	corpus := sourceCorpus()
	took := 0
	for _, s := range corpus {
		if checkScanSource(t, s) {
			took++
		}
	}
	if took < len(corpus)/2 {
		t.Errorf("the fast path took only %d of %d sources", took, len(corpus))
	}
	r := rand.New(rand.NewPCG(3, 4))
	keys := []string{`"kind"`, `"callId"`, `"plugin"`, `"model"`}
	for range 50_000 {
		checkScanSource(t, synthlog.EditPayload(r, corpus[r.IntN(len(corpus))], keys))
	}
}

// FuzzScanSource: scanSource is sessionlog.DecodeSource wherever it answers.
func FuzzScanSource(f *testing.F) {
	for _, s := range sourceCorpus()[:13] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { checkScanSource(t, raw) })
}

// TestValid holds Valid to json.Valid.
func TestValid(t *testing.T) {
	corpus := append(sourceCorpus(), chunkCorpus...)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 50_000 {
		s := corpus[i%len(corpus)]
		if i >= len(corpus) {
			s = synthlog.EditPayload(r, s, []string{`"kind"`, `"type"`, `"text"`})
		}
		if Valid([]byte(s)) != json.Valid([]byte(s)) {
			t.Fatalf("Valid(%q) = %v, json.Valid says otherwise", s, !json.Valid([]byte(s)))
		}
	}
}

// FuzzValid: Valid is json.Valid.
func FuzzValid(f *testing.F) {
	for _, s := range chunkCorpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Valid([]byte(s)) != json.Valid([]byte(s)) {
			t.Fatalf("Valid(%q) = %v, json.Valid says otherwise", s, !json.Valid([]byte(s)))
		}
	})
}

// checkValidMembers holds ValidMembers to Valid and SplitObject: when it
// takes a line, the line is a valid object and the members it handed over,
// keys unquoted, are SplitObject's.
func checkValidMembers(t *testing.T, s string) {
	t.Helper()
	b := []byte(s)
	var got []Field
	if !ValidMembers(b, func(key []byte, start, end int) {
		k, ok := DecodeString(key)
		if !ok {
			t.Fatalf("ValidMembers(%q): key %q is not a JSON string", s, key)
		}
		got = append(got, Field{k, b[start:end]})
	}) {
		return
	}
	if !json.Valid(b) {
		t.Fatalf("ValidMembers took %q, which json.Valid refuses", s)
	}
	want, ok := SplitObject(b)
	if !ok || len(got) != len(want) {
		t.Fatalf("ValidMembers(%q) = %d members, SplitObject %d (ok %v)", s, len(got), len(want), ok)
	}
	for i := range got {
		if got[i].Key != want[i].Key || !bytes.Equal(got[i].Val, want[i].Val) {
			t.Fatalf("ValidMembers(%q) member %d = %q: %s, SplitObject's %q: %s", s, i, got[i].Key, got[i].Val, want[i].Key, want[i].Val)
		}
	}
}

// TestValidMembers: ValidMembers takes the usual line and agrees with Valid
// and SplitObject on every line it takes.
func TestValidMembers(t *testing.T) {
	taken := []string{`{}`, `{"type":"x","seq":1,"time":2,"data":{"a":[1,"}"]},"surfaceOp":"append"}`}
	for _, s := range taken {
		if !ValidMembers([]byte(s), func([]byte, int, int) {}) {
			t.Errorf("ValidMembers(%q) = false, want it taken", s)
		}
	}
	for _, s := range []string{` {}`, `{"a" :1}`, `{"\u0074":1}`, `[1]`, `{"a":1}x`, `{"a":}`, `"s"`, ``} {
		if ValidMembers([]byte(s), func([]byte, int, int) {}) {
			t.Errorf("ValidMembers(%q) = true, want it left to Valid", s)
		}
	}
	corpus := append(sourceCorpus(), chunkCorpus...)
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 50_000 {
		s := corpus[i%len(corpus)]
		if i >= len(corpus) {
			s = synthlog.EditPayload(r, s, []string{`"kind"`, `"type"`, `"text"`})
		}
		checkValidMembers(t, s)
	}
}

// FuzzValidMembers: see checkValidMembers.
func FuzzValidMembers(f *testing.F) {
	for _, s := range chunkCorpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkValidMembers(t, s) })
}
