package display

import (
	"fmt"
	"strings"
)

// The display settings a user names: the colour scheme, the tool-card mode
// and whether reasoning blocks show. Their names are spelled here once, for
// the command line (--scheme, --tools, --reasoning), the DSL (scheme,
// toggle), a fixture's header (scheme=dark, tools=collapsed, reasoning=on)
// and the status line.

// Scheme is the colour scheme.
type Scheme uint8

const (
	SchemeDark Scheme = iota
	SchemeLight
)

var schemeNames = [...]string{SchemeDark: "dark", SchemeLight: "light"}

// String returns the scheme's name: "dark" or "light".
func (s Scheme) String() string {
	if int(s) < len(schemeNames) {
		return schemeNames[s]
	}
	return fmt.Sprintf("Scheme(%d)", uint8(s))
}

// ParseScheme returns the scheme named name.
func ParseScheme(name string) (Scheme, error) {
	i, err := parseName("scheme", name, schemeNames[:])
	return Scheme(i), err
}

// SchemeNames returns the names of the schemes, in order.
func SchemeNames() []string { return append([]string(nil), schemeNames[:]...) }

// ToolMode is the tool-card visibility state that Ctrl+O cycles.
type ToolMode uint8

const (
	ToolsCollapsed ToolMode = iota
	ToolsExpanded
	ToolsHidden
)

var toolModeNames = [...]string{ToolsCollapsed: "collapsed", ToolsExpanded: "expanded", ToolsHidden: "hidden"}

// String returns the mode's name: "collapsed", "expanded" or "hidden".
func (m ToolMode) String() string {
	if int(m) < len(toolModeNames) {
		return toolModeNames[m]
	}
	return fmt.Sprintf("ToolMode(%d)", uint8(m))
}

// Next is the mode Ctrl+O switches to: collapsed, expanded, hidden, and
// collapsed again.
func (m ToolMode) Next() ToolMode { return (m + 1) % ToolMode(len(toolModeNames)) }

// ParseToolMode returns the tool mode named name.
func ParseToolMode(name string) (ToolMode, error) {
	i, err := parseName("tools", name, toolModeNames[:])
	return ToolMode(i), err
}

// ToolModeNames returns the names of the tool modes, in order.
func ToolModeNames() []string { return append([]string(nil), toolModeNames[:]...) }

var reasoningNames = [...]string{"on", "off"}

// ReasoningName returns the name of the reasoning toggle's state: "on"
// when reasoning blocks are shown, "off" when they are hidden.
func ReasoningName(shown bool) string {
	if shown {
		return reasoningNames[0]
	}
	return reasoningNames[1]
}

// ParseReasoning reports whether name ("on" or "off") shows reasoning
// blocks.
func ParseReasoning(name string) (shown bool, err error) {
	i, err := parseName("reasoning", name, reasoningNames[:])
	return i == 0, err
}

// ReasoningNames returns the names of the reasoning toggle's states, "on"
// first.
func ReasoningNames() []string { return append([]string(nil), reasoningNames[:]...) }

// parseName returns the index of name in names, or an error naming the
// setting and the names it takes: `scheme "x": want dark or light`.
func parseName(setting, name string, names []string) (int, error) {
	for i, n := range names {
		if n == name {
			return i, nil
		}
	}
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return 0, fmt.Errorf("%s %q: want %s", setting, name, want)
}
