package fastjson

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestMembers(t *testing.T) {
	tests := []struct {
		in   string
		want []Member
		ok   bool
	}{
		{`{}`, []Member{}, true},
		{` { "a" : 1 , "b":[1,{"c":"}"}] } trailing`, []Member{{"a", []byte("1")}, {"b", []byte(`[1,{"c":"}"}]`)}}, true},
		{`{"a":1,"b":2,"a":3}`, []Member{{"a", []byte("3")}, {"b", []byte("2")}}, true},
		{`{"\u0069d":"x\"y"}`, []Member{{"id", []byte(`"x\"y"`)}}, true},
		{`{"a":"\\"}`, []Member{{"a", []byte(`"\\"`)}}, true},
		{`[1]`, nil, false},
		{`{"a"}`, nil, false},
		{`{"a":}`, nil, false},
		{`{"a":1`, nil, false},
		{`{"a":"x`, nil, false},
		{``, nil, false},
	}
	for _, tt := range tests {
		got, ok := Members([]byte(tt.in))
		if ok != tt.ok || len(got) != len(tt.want) {
			t.Errorf("Members(%s) = %q, %v", tt.in, got, ok)
			continue
		}
		for i := range got {
			if got[i].Key != tt.want[i].Key || !bytes.Equal(got[i].Value, tt.want[i].Value) {
				t.Errorf("Members(%s)[%d] = %q", tt.in, i, got[i])
			}
		}
	}
}

func TestType(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`{"type":"user/message","seq":1}`, "user/message", true},
		{`{"seq":1,"type":"tool/call"}`, "tool/call", true},
		{`{"type":"a\/b"}`, "a/b", true},
		{`{"type":5}`, "", false},
		{`{"seq":1}`, "", false},
		{`x`, "", false},
	}
	for _, tt := range tests {
		got, ok := Type([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Type(%s) = %q, %v", tt.in, got, ok)
		}
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		in     string
		safe   bool
		val    int64
		format string
	}{
		{"0", true, 0, "0"},
		{"-0", true, 0, "0"},
		{"5", true, 5, "5"},
		{"5.0", true, 5, "5"},
		{"1e3", true, 1000, "1000"},
		{"1.5", false, 0, "1.5"},
		{"9007199254740991", true, 9007199254740991, "9007199254740991"},
		{"9007199254740992", false, 0, "9007199254740992"},
		{"-9007199254740991", true, -9007199254740991, "-9007199254740991"},
		{"1e400", false, 0, "Infinity"},
		{`"5"`, false, 0, `"5"`},
		{"null", false, 0, "null"},
	}
	for _, tt := range tests {
		v, ok := SafeInt([]byte(tt.in))
		if ok != tt.safe || v != tt.val {
			t.Errorf("SafeInt(%s) = %d, %v", tt.in, v, ok)
		}
		if got := FormatNumber([]byte(tt.in)); got != tt.format {
			t.Errorf("FormatNumber(%s) = %q, want %q", tt.in, got, tt.format)
		}
	}
	if f, ok := Number([]byte("-0")); !ok || !math.Signbit(f) {
		t.Errorf("Number(-0) = %v, %v", f, ok)
	}
}

func TestJSText(t *testing.T) {
	tests := []struct {
		in      string
		present bool
		want    string
	}{
		{"", false, "undefined"},
		{"12", true, "12"},
		{`"a\"b"`, true, `a"b`},
		{"null", true, "null"},
		{`{"a":1}`, true, "[object Object]"},
	}
	for _, tt := range tests {
		if got := JSText([]byte(tt.in), tt.present); got != tt.want {
			t.Errorf("JSText(%s) = %q", tt.in, got)
		}
	}
}

func TestHelpers(t *testing.T) {
	m := []Member{{"a", []byte("1")}, {"b", []byte("2")}}
	if !OnlyKeys(m, []string{"a"}, "b") || OnlyKeys(m, []string{"a"}) || OnlyKeys(m, []string{"a", "c"}, "b") {
		t.Error("OnlyKeys")
	}
	if s := Set(m, "a", []byte("9")); string(Object(s)) != `{"a":9,"b":2}` || string(m[0].Value) != "1" {
		t.Errorf("Set in place: %s", Object(s))
	}
	if s := Set(m, "c", []byte("3")); string(Object(s)) != `{"a":1,"b":2,"c":3}` {
		t.Errorf("Set append: %s", Object(s))
	}
	if w := Without(m, "a"); string(Object(w)) != `{"b":2}` {
		t.Errorf("Without: %s", Object(w))
	}
	if q := Quote("<&>\"\n"); string(q) != `"<&>\"\n"` {
		t.Errorf("Quote: %s", q)
	}
	var got []string
	ok := Elements([]byte(` [1, "a,]", {"b":[2]} ,[]]`), func(v []byte) bool { got = append(got, string(v)); return true })
	if !ok || len(got) != 4 || got[1] != `"a,]"` || got[2] != `{"b":[2]}` {
		t.Errorf("Elements: %q %v", got, ok)
	}
}

// FuzzMembers: on any valid JSON object, Members agrees with encoding/json
// (keys, last-wins values); on anything it never panics.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"a":2}`, `{"type":"x","data":{"k":[1,"\\\"",{}]}}`, `{"\ud800":"\u0000"}`, `[`, `{"a":"\\\\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		members, ok := Members(b)
		Type(b)
		Find(b, "data")
		Elements(b, func([]byte) bool { return true })
		var want map[string]json.RawMessage
		if json.Unmarshal(b, &want) != nil || !bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{")) {
			return
		}
		if !ok || len(members) != len(want) {
			t.Fatalf("Members(%s) = %d members, %v; json has %d", b, len(members), ok, len(want))
		}
		for _, m := range members {
			w, found := want[m.Key]
			if !found {
				t.Fatalf("key %q not in json's decode", m.Key)
			}
			if !bytes.Equal(m.Value, bytes.TrimSpace(w)) {
				t.Fatalf("key %q: %s vs %s", m.Key, m.Value, w)
			}
		}
		if typ, ok := want["type"]; ok {
			var s string
			if json.Unmarshal(typ, &s) == nil {
				got, gotOK := Type(b)
				count := 0
				each(b, func(rawKey, _ []byte) bool {
					if keyIs(rawKey, "type") {
						count++
					}
					return true
				})
				if count == 1 && (!gotOK || got != s) {
					t.Fatalf("Type = %q, json says %q", got, s)
				}
			}
		}
	})
}

// FuzzAppendQuote: AppendQuote appends what encoding/json writes for the
// string without HTML escaping, on the fast path and off it.
func FuzzAppendQuote(f *testing.F) {
	for _, s := range []string{"", "type", "a b~", "<&>", "q\"", `b\s`, "\x00", "\x7f", "é", "\u2028", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := "[" + strings.TrimSuffix(buf.String(), "\n")
		if got := string(AppendQuote([]byte("["), s)); got != want {
			t.Fatalf("AppendQuote(%q) = %s, want %s", s, got, want)
		}
	})
}
