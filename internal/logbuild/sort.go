package logbuild

import (
	"cmp"
	"slices"
)

// Sorted returns v with the members of every Object in it (v itself, and
// the Objects in its values, arrays included) in key order, the order
// encoding/json writes a map in. The harness wrote some payloads from maps
// (turn/end reasons, session references, tool-result meta); its fixtures
// pin that order.
func Sorted(v any) any {
	switch x := v.(type) {
	case Object:
		out := make(Object, len(x))
		for i, f := range x {
			out[i] = Field{f.Key, Sorted(f.Value)}
		}
		slices.SortStableFunc(out, func(a, b Field) int { return cmp.Compare(a.Key, b.Key) })
		return out
	case []Object:
		out := make([]Object, len(x))
		for i, o := range x {
			out[i] = Sorted(o).(Object)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Sorted(e)
		}
		return out
	}
	return v
}

// SortedObject returns Sorted(o) as an Object.
func SortedObject(o Object) Object { return Sorted(o).(Object) }

// FromMap returns m's members in key order.
func FromMap(m map[string]any) Object {
	o := make(Object, 0, len(m))
	for k, v := range m {
		o = append(o, Field{k, v})
	}
	slices.SortFunc(o, func(a, b Field) int { return cmp.Compare(a.Key, b.Key) })
	return o
}
