package cards

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/dshtest/dshtest/terminal/display"
)

// The built-in presenters (presenters.md §2): one per first-party tool of
// upstream's default composition and the less common ones, keyed by tool
// name. Each is a call view (pending) and a result view (completed) that
// may decline; the card shows the result view when there is one, else the
// call view. A presenter runs only when the arguments parse and satisfy the
// tool's parameter schema (soft validation, §1.1); otherwise, and for every
// tool without a presenter, the card is the generic fallback.

// callView and resultView are the two halves of a built-in presenter. A nil
// view is "none": the fallback for a call, the call view for a result.
type (
	callFunc   func(args map[string]any) *shownView
	resultFunc func(args map[string]any, c *ToolCall) *shownView
)

// shownView is one presenter view: exactly one of the three set.
type shownView struct {
	terminal *TerminalView
	diff     *DiffView
	generic  *genericView
}

// genericView is a generic (or read/search/web) view: title, content, and
// for a call view the raw input shown while pending.
type genericView struct {
	title      string
	content    *string // nil: none (the result content is shown instead)
	rawInput   *string // already formatted: a string as-is, else JSON
	resultOnly bool    // a search or web view: content comes from the result
}

// builtin is one built-in tool: its parameter schema and its views.
type builtin struct {
	schema schema
	call   callFunc
	result resultFunc
}

// builtinPresenter turns a builtin into a Presenter.
func builtinPresenter(b builtin) Presenter {
	return func(c ToolCall) CardView {
		var args map[string]any
		if !parseArgs(c.Arguments, &args) || !b.schema.valid(args) {
			return FallbackPresenter(c)
		}
		call := b.call(args)
		if call == nil {
			return FallbackPresenter(c)
		}
		var res *shownView
		if c.HasResult && b.result != nil {
			res = b.result(args, &c)
		}
		return compose(call, res, c)
	}
}

// compose builds the card view of a call view and an optional result view
// (presenters.md §1.3, §1.4).
func compose(call, res *shownView, c ToolCall) CardView {
	var out CardView
	if call.terminal != nil {
		out.Description = call.terminal.Description
	}
	shown := call
	if res != nil {
		shown = res
	}
	switch {
	case shown.terminal != nil:
		t := *shown.terminal
		if res != nil && call.terminal != nil {
			// The "$" row and cwd come from the call view.
			t.Title, t.Command, t.Cwd, t.Description = call.terminal.Title, call.terminal.Command, call.terminal.Cwd, call.terminal.Description
		}
		out.Terminal = &t
		return out
	case shown.diff != nil:
		out.Diff = shown.diff
		return out
	}
	g := shown.generic
	title := g.title
	if res != nil && title == "" && call.generic != nil {
		title = call.generic.title
	} else if res != nil && title == "" && call.terminal != nil {
		title = call.terminal.Title
	}
	v := &GenericView{Title: title}
	content, hasContent := "", false
	switch {
	case g.content != nil && !g.resultOnly:
		content, hasContent = *g.content, true
	case c.HasResult:
		content, hasContent = c.ResultText(), true
	}
	v.Lines = strings.Split(content, "\n")
	if !hasContent {
		v.Lines = nil
	}
	if !c.HasResult && res == nil && g.rawInput != nil {
		v.Lines = append(v.Lines, strings.Split(*g.rawInput, "\n")...)
	}
	v.Raw = !hasContent
	out.Generic = v
	return out
}

// FallbackPresenter is the card of a tool without a presenter
// (presenters.md §1.1): generic, titled by the tool name (so no title row),
// with the arguments as raw input while pending (JSON re-serialised as
// upstream's JSON.stringify(value, null, 2), or the raw string when it does
// not parse), and the result content once completed.
func FallbackPresenter(c ToolCall) CardView {
	g := &genericView{title: display.Escape(c.Name)}
	if !c.HasResult { // compose shows the raw input only then
		raw := c.Arguments
		var v any
		if err := json.Unmarshal([]byte(c.Arguments), &v); err == nil {
			raw = jsJSON(c.Arguments)
		}
		g.rawInput = &raw
	}
	return compose(&shownView{generic: g}, nil, c)
}

// parseArgs parses a call's arguments as a JSON object.
func parseArgs(s string, out *map[string]any) bool {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return false
	}
	if d.More() {
		return false
	}
	m, ok := v.(map[string]any)
	if ok {
		*out = m
	}
	return ok
}

// Argument accessors; the schema has checked the types.

func str(args map[string]any, k string) string {
	s, _ := args[k].(string)
	return s
}

func num(args map[string]any, k string) (float64, bool) {
	n, ok := args[k].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func ptrTo(s string) *string { return &s }

// jsonOf is JSON.stringify(value, null, 2) of an argument value.
func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return jsJSON(string(b))
}

// jsJSON re-serialises JSON text as JavaScript's JSON.stringify(value,
// null, 2) would (presenters.md §1.9): numbers canonicalised, integer-like
// object keys first in ascending order, nothing HTML-escaped.
func jsJSON(s string) string {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var b bytes.Buffer
	if err := writeJS(&b, d, ""); err != nil {
		return s
	}
	return b.String()
}
