package cards

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
)

// maxJSNest is the deepest nesting writeJS indents: each level indents
// every line inside it by two more spaces, so that arguments nested
// thousands deep (a few kilobytes) would print megabytes of indentation,
// and a card draw all of it. Deeper values are indented as that level.
const maxJSNest = 32

// writeJS writes the next JSON value of d as JSON.stringify(value, null, 2)
// (to maxJSNest levels). An array's elements are written in place; an
// object's members are kept until its end, for JavaScript's order of keys
// (array indexes first) and a repeated key (its first place, its last
// value).
func writeJS(b *bytes.Buffer, d *json.Decoder, indent string) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	inner := indent
	if len(indent) < 2*maxJSNest {
		inner = indent + "  "
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			type member struct {
				key string
				val bytes.Buffer
			}
			var members []*member
			at := map[string]int{} // a key's place in members
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				m := &member{key: key}
				if err := writeJS(&m.val, d, inner); err != nil {
					return err
				}
				if i, ok := at[key]; ok {
					members[i].val = m.val
				} else {
					at[key] = len(members)
					members = append(members, m)
				}
			}
			if _, err := d.Token(); err != nil {
				return err
			}
			sort.SliceStable(members, func(i, j int) bool {
				a, aok := arrayIndex(members[i].key)
				c, cok := arrayIndex(members[j].key)
				switch {
				case aok && cok:
					return a < c
				case aok:
					return true
				}
				return false
			})
			if len(members) == 0 {
				b.WriteString("{}")
				return nil
			}
			b.WriteString("{\n")
			for i, m := range members {
				b.WriteString(inner)
				b.WriteString(jsString(m.key))
				b.WriteString(": ")
				b.Write(m.val.Bytes())
				if i < len(members)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString(indent + "}")
		case '[':
			if !d.More() {
				b.WriteString("[]")
			} else {
				b.WriteString("[\n")
				for first := true; d.More(); first = false {
					if !first {
						b.WriteString(",\n")
					}
					b.WriteString(inner)
					if err := writeJS(b, d, inner); err != nil {
						return err
					}
				}
				b.WriteString("\n" + indent + "]")
			}
			if _, err := d.Token(); err != nil {
				return err
			}
		default:
			return errors.New("unexpected delimiter")
		}
	case string:
		b.WriteString(jsString(t))
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return err
		}
		b.WriteString(jsNumber(f))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
	return nil
}

// arrayIndex reports whether a key is a canonical array index, which a
// JavaScript object orders first, ascending.
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n >= math.MaxUint32 {
		return 0, false
	}
	return n, true
}

// jsString quotes s as JSON.stringify does: no HTML escapes, and U+2028 and
// U+2029 kept as they are.
func jsString(s string) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	out = strings.ReplaceAll(out, `\u2028`, "\u2028")
	return strings.ReplaceAll(out, `\u2029`, "\u2029")
}

// jsNumber formats a number as JavaScript's Number#toString: the shortest
// round-tripping digits, in exponent form from 1e21 and below 1e-6.
func jsNumber(f float64) string {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		return "null"
	case f == 0:
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e21 || a < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		if exp == "" {
			exp = "0"
		}
		return mant + "e" + string(sign) + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// schema is a tool's declared parameters, for soft validation
// (presenters.md §1.1): required keys present, declared types matched,
// enums held; extra top-level keys allowed.
type schema []param

// param is one declared parameter. typ is "string", "number", "integer",
// "boolean", "array", "object" or "" (any). enum, when set, lists the
// allowed strings; items checks every element of an array; fields checks
// an object's keys, and closed rejects keys it does not declare.
type param struct {
	name     string
	typ      string
	required bool
	enum     []string
	items    *param
	fields   schema
	closed   bool
}

func (s schema) valid(args map[string]any) bool {
	for _, p := range s {
		v, ok := args[p.name]
		if !ok || v == nil && p.required {
			if p.required {
				return false
			}
			continue
		}
		if !p.check(v) {
			return false
		}
	}
	return true
}

func (p *param) check(v any) bool {
	switch p.typ {
	case "string":
		s, ok := v.(string)
		if !ok {
			return false
		}
		if len(p.enum) > 0 {
			found := false
			for _, e := range p.enum {
				found = found || e == s
			}
			return found
		}
	case "number":
		if _, ok := v.(json.Number); !ok {
			return false
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		if err != nil || f != math.Trunc(f) {
			return false
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return false
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return false
		}
		if p.items != nil {
			for _, e := range a {
				if !p.items.check(e) {
					return false
				}
			}
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if !p.fields.valid(m) {
			return false
		}
		if p.closed {
			for k := range m {
				declared := false
				for _, f := range p.fields {
					declared = declared || f.name == k
				}
				if !declared {
					return false
				}
			}
		}
	}
	return true
}

// req and opt declare a required and an optional parameter.
func req(name, typ string) param { return param{name: name, typ: typ, required: true} }
func opt(name, typ string) param { return param{name: name, typ: typ} }
