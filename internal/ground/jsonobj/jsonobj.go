// Package jsonobj is the one ordered JSON object of the module: [Object], a
// JSON object whose members are written in the order they were built or
// read, so that a payload's bytes are a pure function of how it was made.
// The log builders (internal/logbuild, the harness verbs), the session
// generator (internal/testkit/sessiongen) and the scrubber of reproductions
// (internal/repro/emit) all build and write payloads with it.
//
// A value tree is made of Object, []Object, []any, []int64, string, int,
// int64, bool, nil, json.Number and json.RawMessage. It is written two ways:
//
//   - [Object.MarshalJSON] (and [Marshal]) encode each member with
//     encoding/json without HTML escaping: the spelling of the logs the
//     harness builds. Any value encoding/json takes may appear.
//   - [Append] writes the tree itself, each string by the string writer it
//     is given: the spelling of logs written as JSON.stringify would.
//
// [Decode] reads JSON back into such a tree, keeping key order and each
// number's text.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Field is one member of an Object. It names an unnamed struct type so
// that the builders' literals stay short in every package, as
// Object{{"type", "text"}}: vet asks for keyed fields only in literals of
// a named struct from another package, against fields added later, and a
// member is a key and a value for good.
type Field = struct {
	Key   string
	Value any
}

// Object is a JSON object whose members are written in order.
type Object []Field

// Get returns the value of the first member named key.
func (o Object) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// With returns a copy of o with key set to v: in place when o has the key,
// appended otherwise.
func (o Object) With(key string, v any) Object {
	out := make(Object, len(o), len(o)+1)
	copy(out, o)
	for i := range out {
		if out[i].Key == key {
			out[i].Value = v
			return out
		}
	}
	return append(out, Field{key, v})
}

// MarshalJSON writes o's members in order, each key and value encoded by
// encoding/json without HTML escaping.
func (o Object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// Marshal is json.Marshal without HTML escaping.
func Marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Append appends v, a value tree (see the package comment), as compact
// JSON, writing every key and string value with str. A json.Number or
// json.RawMessage is written as it is. It panics on any other type: a tree
// is built by code, not read from a user.
func Append(dst []byte, v any, str func(dst []byte, s string) []byte) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case Object:
		dst = append(dst, '{')
		for i, f := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = str(dst, f.Key)
			dst = append(dst, ':')
			dst = Append(dst, f.Value, str)
		}
		return append(dst, '}')
	case []any:
		return appendArray(dst, x, func(dst []byte, e any) []byte { return Append(dst, e, str) })
	case []Object:
		return appendArray(dst, x, func(dst []byte, o Object) []byte { return Append(dst, o, str) })
	case []int64:
		return appendArray(dst, x, func(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) })
	case string:
		return str(dst, x)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case bool:
		return strconv.AppendBool(dst, x)
	case json.Number:
		return append(dst, x...)
	case json.RawMessage:
		return append(dst, x...)
	}
	panic(fmt.Sprintf("jsonobj: cannot append %T", v))
}

// appendArray appends elems as a JSON array, each written by elem.
func appendArray[T any](dst []byte, elems []T, elem func([]byte, T) []byte) []byte {
	dst = append(dst, '[')
	for i, e := range elems {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = elem(dst, e)
	}
	return append(dst, ']')
}

// Decode reads one JSON value into a tree: objects as Object (members in
// their order), arrays as []any (never nil), strings as string, numbers as
// json.Number (their text kept), true and false as bool, null as nil.
func Decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeNext(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

func decodeNext(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	if d == '{' {
		o := Object{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeNext(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, Field{k, v})
		}
		_, err := dec.Token()
		return o, err
	}
	a := []any{}
	for dec.More() {
		v, err := decodeNext(dec)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
	_, err = dec.Token()
	return a, err
}
