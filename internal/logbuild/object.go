package logbuild

import (
	"bytes"
	"encoding/json"
)

// Field is one member of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object whose members are written in order.
type Object []Field

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

// TextBlock is a {"type":"text","text":…} content block.
func TextBlock(text string) Object { return Object{{"type", "text"}, {"text", text}} }

// Range is an inclusive {"start":…,"end":…} seq range.
func Range(start, end int64) Object { return Object{{"start", start}, {"end", end}} }

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
