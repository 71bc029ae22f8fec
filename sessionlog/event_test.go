package sessionlog

import (
	"encoding/json"
	"reflect"
	"testing"
)

// checkPlainSeqs holds PlainSeqs to encoding/json: where it says ok,
// json.Unmarshal into []int64 succeeds with the same seqs.
func checkPlainSeqs(t *testing.T, raw string) bool {
	t.Helper()
	got, ok := PlainSeqs([]byte(raw))
	if !ok {
		return false
	}
	var want []int64
	if err := json.Unmarshal([]byte(raw), &want); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("PlainSeqs(%q) = %v; json.Unmarshal gives %v, %v", raw, got, want, err)
	}
	return true
}

func TestPlainSeqs(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		fast bool
	}{
		{`[]`, true}, {`[0]`, true}, {`[1,2,3]`, true}, {`[9007199254740991]`, true},
		{`[9007199254740992]`, false}, {`[01]`, false}, {`[-1]`, false}, {`[1.5]`, false},
		{`[1,]`, false}, {`[,1]`, false}, {`[1 ,2]`, false}, {` [1]`, false}, {`[1]x`, false},
		{`[1e3]`, false}, {`["1"]`, false}, {`[`, false}, {``, false}, {`{}`, false},
	} {
		if got := checkPlainSeqs(t, tt.raw); got != tt.fast {
			t.Errorf("PlainSeqs(%q) ok = %v, want %v", tt.raw, got, tt.fast)
		}
	}
}

func TestSourcesUsesEitherPath(t *testing.T) {
	for _, raw := range []string{`[1,2]`, ` [ 1 , 2 ] `, `[-3,4]`} {
		e := Event{SourceEventSeqs: json.RawMessage(raw)}
		seqs, ok := e.Sources()
		var want []int64
		_ = json.Unmarshal([]byte(raw), &want)
		if !ok || !reflect.DeepEqual(seqs, want) {
			t.Errorf("Sources(%q) = %v, %v; want %v", raw, seqs, ok, want)
		}
	}
}

// FuzzPlainSeqs: PlainSeqs never panics and agrees with encoding/json
// wherever it answers.
func FuzzPlainSeqs(f *testing.F) {
	for _, s := range []string{`[]`, `[1,2,3]`, `[01]`, `[9007199254740992]`, `[1,]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { checkPlainSeqs(t, raw) })
}

// TestAppendOpIsFresh: AppendOp hands every caller its own slice, so no
// caller can change what another gets.
func TestAppendOpIsFresh(t *testing.T) {
	a := AppendOp()
	a[1] = 'X'
	if b := AppendOp(); string(b) != `"append"` {
		t.Fatalf("AppendOp() = %s after a caller changed its copy", b)
	}
}

// opSeeds are surfaceOp values of every kind ParseOp tells apart.
var opSeeds = []string{
	`"append"`, ` "append" `, `"\u0061ppend"`, `"replace"`, `""`, ``, `  `, `null`, `1`, `[]`,
	`{"op":"replace","start":1,"end":2}`, `{"op":"append"}`, `{}`, `{"op":"replace","start":-1,"end":2}`,
	`"append`, `{`, "\t\"append\"\n",
}

// TestIsAppendOp holds isAppendOp to ParseOp, which it stands for.
func TestIsAppendOp(t *testing.T) {
	for _, raw := range opSeeds {
		checkIsAppendOp(t, raw)
	}
}

func FuzzIsAppendOp(f *testing.F) {
	for _, raw := range opSeeds {
		f.Add(raw)
	}
	f.Fuzz(checkIsAppendOp)
}

func checkIsAppendOp(t *testing.T, raw string) {
	if got, want := isAppendOp(json.RawMessage(raw)), ParseOp(json.RawMessage(raw)).Kind == OpAppend; got != want {
		t.Fatalf("isAppendOp(%q) = %v, ParseOp says %v", raw, got, want)
	}
}
