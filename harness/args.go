package harness

import (
	"fmt"
	"strconv"
	"strings"
)

// flagSpec declares a verb's flags: bool flags take no value, value flags
// take the next argument. Every verb that appends also accepts --as NAME.
type flagSpec struct {
	bools  []string
	values []string
}

// flagVal is one flag occurrence, in command-line order.
type flagVal struct {
	name, value string
}

// parsed is a verb's arguments: positionals, and flags in order.
type parsed struct {
	pos   []string
	flags []flagVal
}

// parseArgs splits args into positionals and flags. A flag is "--name"; a
// lone "--" ends the flags. Unknown flags are errors.
func parseArgs(verb string, args []string, spec flagSpec) (parsed, error) {
	var p parsed
	isBool := map[string]bool{}
	isValue := map[string]bool{}
	for _, f := range spec.bools {
		isBool[f] = true
	}
	for _, f := range spec.values {
		isValue[f] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.pos = append(p.pos, args[i+1:]...)
			break
		}
		name, ok := strings.CutPrefix(a, "--")
		if !ok || name == "" {
			p.pos = append(p.pos, a)
			continue
		}
		if v, inline, ok := strings.Cut(name, "="); ok {
			name = v
			if !isValue[name] {
				return p, fmt.Errorf("%s: unknown flag --%s", verb, name)
			}
			p.flags = append(p.flags, flagVal{name, inline})
			continue
		}
		switch {
		case isBool[name]:
			p.flags = append(p.flags, flagVal{name: name})
		case isValue[name]:
			if i+1 >= len(args) {
				return p, fmt.Errorf("%s: flag --%s needs a value", verb, name)
			}
			i++
			p.flags = append(p.flags, flagVal{name, args[i]})
		default:
			return p, fmt.Errorf("%s: unknown flag --%s", verb, name)
		}
	}
	return p, nil
}

// has reports whether flag name was given.
func (p parsed) has(name string) bool {
	for _, f := range p.flags {
		if f.name == name {
			return true
		}
	}
	return false
}

// get returns the last value of flag name.
func (p parsed) get(name string) (string, bool) {
	v, ok := "", false
	for _, f := range p.flags {
		if f.name == name {
			v, ok = f.value, true
		}
	}
	return v, ok
}

// intArg parses a decimal integer argument.
func intArg(verb, what, s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %s %q is not an integer", verb, what, s)
	}
	return n, nil
}

// sizeArgs parses "W H".
func sizeArgs(verb string, pos []string) (w, h int, err error) {
	if len(pos) != 2 {
		return 0, 0, fmt.Errorf("usage: %s W H", verb)
	}
	wn, err := intArg(verb, "width", pos[0])
	if err != nil {
		return 0, 0, err
	}
	hn, err := intArg(verb, "height", pos[1])
	if err != nil {
		return 0, 0, err
	}
	if wn < 1 || hn < 1 || wn > 1000 || hn > 1000 {
		return 0, 0, fmt.Errorf("%s: size %dx%d out of range", verb, wn, hn)
	}
	return int(wn), int(hn), nil
}
