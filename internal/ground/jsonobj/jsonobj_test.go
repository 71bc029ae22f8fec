package jsonobj

import (
	"encoding/json"
	"strconv"
	"testing"
)

// quote is a string writer for Append that spells strings as Go does.
func quote(dst []byte, s string) []byte { return strconv.AppendQuote(dst, s) }

func TestObject(t *testing.T) {
	o := Object{{"b", 1}, {"a", "x<&>"}}
	if got := o.With("a", 2).With("c", nil); len(got) != 3 || got[1].Value != 2 || o[1].Value != "x<&>" {
		t.Fatalf("With = %v (o now %v)", got, o)
	}
	if v, ok := o.Get("b"); !ok || v != 1 {
		t.Fatalf("Get(b) = %v, %v", v, ok)
	}
	if _, ok := o.Get("z"); ok {
		t.Fatal("Get(z) found a member")
	}
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"object in order, no HTML escaping", o, `{"b":1,"a":"x<&>"}`},
		{"nested", Object{{"o", Object{}}, {"a", []Object{{{"k", true}}}}, {"n", nil}}, `{"o":{},"a":[{"k":true}],"n":null}`},
	} {
		got, err := Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: Marshal = %s, %v; want %s", c.name, got, err, c.want)
		}
		if got := Append(nil, c.v, quote); string(got) != c.want {
			t.Errorf("%s: Append = %s; want %s", c.name, got, c.want)
		}
	}
}

func TestAppend(t *testing.T) {
	v := Object{{"i", 1}, {"j", int64(-2)}, {"s", []int64{3, 4}}, {"a", []any{"x", false, json.Number("1.50")}},
		{"r", json.RawMessage(`{"k":[]}`)}, {"e", []any{}}}
	want := `{"i":1,"j":-2,"s":[3,4],"a":["x",false,1.50],"r":{"k":[]},"e":[]}`
	if got := Append(nil, v, quote); string(got) != want {
		t.Fatalf("Append = %s\nwant     %s", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Append of a float did not panic")
		}
	}()
	Append(nil, 1.5, quote)
}

// TestDecode pins that a decoded tree writes back as it was read: key order,
// duplicate keys, number text, empty containers.
func TestDecode(t *testing.T) {
	for _, in := range []string{
		`{"z":1,"a":{"y":[1,2.50,-3e5],"x":{}},"z":"dup","n":null,"t":true,"e":[]}`,
		`[]`, `"s"`, `0`,
	} {
		v, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("Decode(%s): %v", in, err)
		}
		if got := Append(nil, v, quote); string(got) != in {
			t.Errorf("Decode(%s) writes back as %s", in, got)
		}
	}
	for _, in := range []string{`{"a":1} 2`, `{"a":`, `]`} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%s) succeeded", in)
		}
	}
}
