package logbuild

import (
	"cmp"
	"slices"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

// Sorted returns v with the members of every jsonobj.Object in it (v itself,
// and the objects in its values, arrays included) in key order, the order
// encoding/json writes a map in. The harness wrote some payloads from maps
// (turn/end reasons, session references, tool-result meta); its fixtures
// pin that order.
func Sorted(v any) any {
	switch x := v.(type) {
	case jsonobj.Object:
		out := make(jsonobj.Object, len(x))
		for i, f := range x {
			out[i] = jsonobj.Field{f.Key, Sorted(f.Value)}
		}
		slices.SortStableFunc(out, func(a, b jsonobj.Field) int { return cmp.Compare(a.Key, b.Key) })
		return out
	case []jsonobj.Object:
		out := make([]jsonobj.Object, len(x))
		for i, o := range x {
			out[i] = Sorted(o).(jsonobj.Object)
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

// SortedObject returns Sorted(o) as a jsonobj.Object.
func SortedObject(o jsonobj.Object) jsonobj.Object { return Sorted(o).(jsonobj.Object) }

// FromMap returns m's members in key order.
func FromMap(m map[string]any) jsonobj.Object {
	o := make(jsonobj.Object, 0, len(m))
	for k, v := range m {
		o = append(o, jsonobj.Field{k, v})
	}
	slices.SortFunc(o, func(a, b jsonobj.Field) int { return cmp.Compare(a.Key, b.Key) })
	return o
}
