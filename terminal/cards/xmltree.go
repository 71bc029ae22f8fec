package cards

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode"

	"github.com/dshtest/dshtest/terminal/display"
)

// The tree view of an unknown tool's XML result (presenters.md §1.4 D,
// terminal.md §5.2): when a tool without a presenter returns exactly one
// well-formed XML element, its card shows the element as an indented tree
// instead of Markdown. A declaration, DOCTYPE, comment, processing
// instruction, parse error, second root or non-blank text outside the root
// declines it (the read envelope, three roots, is never a tree).

// xmlElement is a parsed element: its name, attributes and children, each
// child an *xmlElement or a string (text, display-safe).
type xmlElement struct {
	name     string
	attrs    []xml.Attr
	children []any
}

// parseXMLTree parses src as one XML element, or returns nil.
func parseXMLTree(src string) *xmlElement {
	if !mayBeXML(src) {
		return nil
	}
	return parseXML(src)
}

// mayBeXML is false for text that parseXML would decline at its first
// token: what starts, after white space, with neither markup nor a
// reference is character data outside the root. Most tool results are
// such text, and the decoder would read the whole of it.
func mayBeXML(src string) bool {
	i := strings.IndexFunc(src, func(r rune) bool { return !unicode.IsSpace(r) })
	return i >= 0 && (src[i] == '<' || src[i] == '&')
}

// parseXML is parseXMLTree without mayBeXML's shortcut.
func parseXML(src string) *xmlElement {
	d := xml.NewDecoder(strings.NewReader(src))
	d.Strict = true
	var stack []*xmlElement
	var root *xmlElement
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			el := &xmlElement{name: qname(t.Name)}
			for _, a := range t.Attr {
				el.attrs = append(el.attrs, xml.Attr{Name: xml.Name{Local: qname(a.Name)}, Value: display.Escape(a.Value)})
			}
			if len(stack) == 0 {
				if root != nil {
					return nil // a second root
				}
				root = el
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, el)
			}
			stack = append(stack, el)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].name != qname(t.Name) {
				return nil
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				if strings.TrimSpace(string(t)) != "" {
					return nil
				}
				continue
			}
			p := stack[len(stack)-1]
			p.children = append(p.children, display.Escape(string(t)))
		case xml.Comment, xml.ProcInst, xml.Directive:
			return nil
		}
	}
	if len(stack) != 0 {
		return nil
	}
	return root
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// label is an element's name and its attributes, name="value" (the value
// quoted as JSON).
func (e *xmlElement) label() string {
	if len(e.attrs) == 0 {
		return e.name
	}
	parts := make([]string, len(e.attrs))
	for i, a := range e.attrs {
		parts[i] = a.Name.Local + "=" + jsString(a.Value)
	}
	return e.name + " (" + strings.Join(parts, " ") + ")"
}

// meaningful is the element's children without whitespace-only text.
func (e *xmlElement) meaningful() []any {
	var out []any
	for _, c := range e.children {
		if s, ok := c.(string); ok && strings.TrimSpace(s) == "" {
			continue
		}
		out = append(out, c)
	}
	return out
}

// xmlTextBlock is a text child's lines, at depth: one leading and one
// trailing newline dropped, empty lines kept empty.
func xmlTextBlock(text string, depth int) []display.Line {
	text = strings.TrimPrefix(text, "\n")
	text = strings.TrimSuffix(text, "\n")
	var out []display.Line
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			out = append(out, nil)
			continue
		}
		out = append(out, display.Line{{Text: strings.Repeat("  ", depth)}, {Text: l, Style: dimSty}})
	}
	return out
}

// xmlTreeLines is an element's lines at depth: a leaf is its label; an
// element whose one child is a one-line text is "label: text"; any other
// is its label, then its children one level deeper.
func xmlTreeLines(e *xmlElement, depth int) []display.Line {
	indent := display.Span{Text: strings.Repeat("  ", depth)}
	kids := e.meaningful()
	if len(kids) == 0 {
		return []display.Line{{indent, {Text: e.label(), Style: dimSty}}}
	}
	if s, ok := kids[0].(string); ok && len(kids) == 1 && !strings.Contains(s, "\n") {
		return []display.Line{{indent, {Text: e.label() + ":", Style: dimSty}, {Text: " "}, {Text: strings.TrimSpace(s), Style: dimSty}}}
	}
	out := []display.Line{{indent, {Text: e.label(), Style: dimSty}}}
	for _, k := range kids {
		if s, ok := k.(string); ok {
			out = append(out, xmlTextBlock(s, depth+1)...)
		} else {
			out = append(out, xmlTreeLines(k.(*xmlElement), depth+1)...)
		}
	}
	return out
}

// xmlTree renders the tree of src, or returns nil when src is not one XML
// element. Collapsed, each of the root's children is folded on its own
// to limit lines, and so is the list of children (marker "  … +K lines").
func xmlTree(src string, limit int, expanded bool) []display.Line {
	root := parseXMLTree(src)
	if root == nil {
		return nil
	}
	var blocks [][]display.Line
	for _, k := range root.meaningful() {
		if s, ok := k.(string); ok {
			blocks = append(blocks, xmlTextBlock(s, 1))
		} else {
			blocks = append(blocks, xmlTreeLines(k.(*xmlElement), 1))
		}
	}
	out := []display.Line{display.TextLine(root.label(), dimSty)}
	if expanded {
		for _, b := range blocks {
			out = append(out, b...)
		}
		return out
	}
	marker := func(n int) display.Line { return display.TextLine("  "+foldMarker(n)[0].Text, dimSty) }
	fold := func(b []display.Line) []display.Line {
		if len(b) <= limit {
			return b
		}
		head, tail := (limit+1)/2, limit/2
		return append(append(append([]display.Line{}, b[:head]...), marker(len(b)-limit)), b[len(b)-tail:]...)
	}
	if len(blocks) <= limit {
		for _, b := range blocks {
			out = append(out, fold(b)...)
		}
		return out
	}
	head, tail := (limit+1)/2, limit/2
	hidden := 0
	for _, b := range blocks[head : len(blocks)-tail] {
		hidden += len(b)
	}
	for _, b := range blocks[:head] {
		out = append(out, fold(b)...)
	}
	out = append(out, marker(hidden))
	for _, b := range blocks[len(blocks)-tail:] {
		out = append(out, fold(b)...)
	}
	return out
}
