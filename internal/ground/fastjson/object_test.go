package fastjson

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestSoleElement(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when not a one-element array
	}{
		{`[1]`, `1`},
		{` [ {"a":[1,2]} ] `, `{"a":[1,2]}`},
		{`[ "x]\"" ]`, `"x]\""`},
		{`[1,2]`, ``},
		{`[ 1 , 2 ]`, ``},
		{`[]`, ``},
		{`[[1,2]]`, `[1,2]`},
		{`{"a":1}`, ``},
		{`"[1]"`, ``},
		{``, ``},
		{`[`, ``},
		{`["unterminated]`, ``},
	}
	for _, tt := range tests {
		got, ok := SoleElement([]byte(tt.in))
		if ok != (tt.want != "") || string(got) != tt.want && ok {
			t.Errorf("soleElement(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// FuzzSplitObject: on valid JSON, SplitObject agrees with encoding/json's
// token stream (keys in order, values byte for byte); on anything else it
// does not panic.
func FuzzSplitObject(f *testing.F) {
	f.Add([]byte(`{"type":"x","seq":0,"data":{"a":[1,"}"]},"\u0074":"\\\""}`))
	f.Add([]byte(` { } `))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte(`{"a":"\xff"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		fields, ok := SplitObject(raw)
		if !json.Valid(raw) {
			return
		}
		trimmed := bytes.TrimSpace(raw)
		isObject := len(trimmed) > 0 && trimmed[0] == '{'
		if ok != isObject {
			t.Fatalf("splitObject ok = %v for %q", ok, raw)
		}
		if !ok {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		_, _ = dec.Token()
		for i := 0; dec.More(); i++ {
			tok, _ := dec.Token()
			var val json.RawMessage
			if err := dec.Decode(&val); err != nil {
				t.Fatal(err)
			}
			if i >= len(fields) || fields[i].Key != tok.(string) || !bytes.Equal(fields[i].Val, val) {
				t.Fatalf("member %d: got %+v, want %q: %s", i, fields, tok, val)
			}
		}
	})
}

// FuzzSplitArray: on valid JSON, SplitArrayInto splits an array as
// encoding/json does into []json.RawMessage, and refuses what it refuses.
func FuzzSplitArray(f *testing.F) {
	for _, s := range []string{`[]`, `[1]`, ` [ "a" , "b\"" ] `, `[[1,2],{"a":[]},null]`, `{}`, `null`, `"x"`, `[1,]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		got, ok := SplitArrayInto(nil, b)
		var want []json.RawMessage
		err := json.Unmarshal(b, &want)
		if !ok {
			if err == nil && want != nil {
				t.Fatalf("%q: refused, json gives %q", b, want)
			}
			return
		}
		if err != nil || len(got) != len(want) {
			t.Fatalf("%q: %q, json gives %q (%v)", b, got, want, err)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%q: element %d %q, json gives %q", b, i, got[i], want[i])
			}
		}
	})
}
