package cards

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
)

// ToolCall is what a presenter sees of one tool card: the call and, once it
// arrived, its result. All strings are raw log data, not yet escaped; the
// renderer escapes every field of the returned view.
type ToolCall struct {
	Name string
	// Arguments is the call's raw JSON arguments string.
	Arguments string
	// HasResult is set once the tool/result arrived; the fields below are
	// meaningful only then.
	HasResult bool
	IsError   bool
	// Result is the result's content[0].content.
	Result []sessionlog.ContentBlock
	// Meta is the result's raw meta JSON (may be nil).
	Meta json.RawMessage
}

// ResultText is the result content as text (sessionlog.ContentText).
func (c *ToolCall) ResultText() string { return sessionlog.ContentText(c.Result) }

// CardView is a tool card's body view. Exactly one field is set; a view
// with none set renders as an empty generic card.
type CardView struct {
	Terminal *TerminalView
	Diff     *DiffView
	Generic  *GenericView
	// Description, when set, headlines the card ("● Tool / <name> /
	// <description>") whatever the view: a bash error keeps its call
	// view's description over a generic result view (presenters.md §1.4).
	Description string
}

// TerminalView is a shell command card (terminal.md §5.2 "Terminal").
type TerminalView struct {
	// Title names the command; the "$ " row shows Command, or Title when
	// Command is empty.
	Title string
	// Description, when non-empty, headlines the card:
	// "● Tool / <name> / <description>".
	Description string
	Cwd         string
	Command     string
	// Output is the command output. When it is empty and the call has a
	// result, the result text is shown instead.
	Output string
	// HasOutput makes Output authoritative even when empty: the result
	// text is not shown in its place.
	HasOutput bool
	ExitCode  *int
	Signal    string
}

// DiffView is a file edit card (terminal.md §5.2 "Diff").
type DiffView struct {
	Files []DiffFile
}

// DiffFile is one file's old and new content, as lines.
type DiffFile struct {
	Path     string
	Old, New []string
}

// GenericView is any other card (presenters.md §1.4 C): an optional body
// title row (shown only when it differs from the tool name) and content
// lines. The body is one Markdown document, dim row by row, unless Raw is
// set or nothing but the title survives the trimming of a leading and a
// trailing empty line: then the title and lines are shown verbatim in the
// default colour (the raw path of a pending card without content).
type GenericView struct {
	Title string
	Lines []string
	Raw   bool
}

// Presenter maps a tool call to its card view. It must be a pure function
// of its argument.
type Presenter func(c ToolCall) CardView

// Presenters maps tool names to presenters. A Presenters value is immutable:
// With returns a new set. The zero value and nil behave as
// DefaultPresenters().
type Presenters struct {
	byName   map[string]Presenter
	fallback Presenter
	// maxDiffEditLength bounds the exact line diff; 0 means 1000.
	maxDiffEditLength int
}

// DefaultMaxDiffEditLength is the default bound of the exact line diff.
const DefaultMaxDiffEditLength = 1000

// DefaultPresenters returns the built-in presenters of upstream's tools
// (presenters.md §2; presenter_tools.go), keyed by tool name; every other
// tool gets the generic fallback (FallbackPresenter).
func DefaultPresenters() *Presenters {
	return &Presenters{byName: builtinPresenters(), fallback: FallbackPresenter}
}

// With returns a copy of p in which name is presented by fn.
func (p *Presenters) With(name string, fn Presenter) *Presenters {
	q := p.clone()
	q.byName[name] = fn
	return q
}

// WithFallback returns a copy of p whose presenter for unregistered names
// is fn.
func (p *Presenters) WithFallback(fn Presenter) *Presenters {
	q := p.clone()
	q.fallback = fn
	return q
}

// WithMaxDiffEditLength returns a copy of p whose diff cards give up the
// exact line diff beyond n edits (minimum 1).
func (p *Presenters) WithMaxDiffEditLength(n int) *Presenters {
	q := p.clone()
	q.maxDiffEditLength = max(n, 1)
	return q
}

func (p *Presenters) clone() *Presenters {
	base := p
	if base == nil || base.byName == nil {
		base = DefaultPresenters()
		if p != nil {
			base.maxDiffEditLength = p.maxDiffEditLength
		}
	}
	q := &Presenters{byName: make(map[string]Presenter, len(base.byName)+1),
		fallback: base.fallback, maxDiffEditLength: base.maxDiffEditLength}
	for k, v := range base.byName {
		q.byName[k] = v
	}
	return q
}

// Present returns the card view of c.
func (p *Presenters) Present(c ToolCall) CardView {
	if p == nil || p.byName == nil {
		p = defaultPresenters
	}
	fn := p.byName[c.Name]
	if fn == nil {
		fn = p.fallback
	}
	if fn == nil {
		fn = FallbackPresenter
	}
	return fn(c)
}

// Has reports whether name has a presenter of its own (a tool definition,
// in upstream's terms); every other name is an unknown tool.
func (p *Presenters) Has(name string) bool {
	if p == nil || p.byName == nil {
		p = defaultPresenters
	}
	_, ok := p.byName[name]
	return ok
}

func (p *Presenters) diffLimit() int {
	if p == nil || p.maxDiffEditLength <= 0 {
		return DefaultMaxDiffEditLength
	}
	return p.maxDiffEditLength
}

// defaultPresenters is the read-only set used for a nil Presenters.
var defaultPresenters = DefaultPresenters()

// ShellPresenter presents a shell tool as a terminal card: the command from
// arguments.command, the cwd and description from arguments.cwd and
// arguments.description when present, the output from the result text, the
// exit code from meta.exitCode and the signal from meta.signal.
func ShellPresenter(c ToolCall) CardView {
	args := objectOf(c.Arguments)
	v := &TerminalView{
		Command:     stringField(args, "command", "cmd"),
		Cwd:         stringField(args, "cwd", "workdir"),
		Description: stringField(args, "description"),
	}
	v.Title = v.Command
	if c.HasResult {
		v.Output = c.ResultText()
		meta := objectOf(string(c.Meta))
		var code int
		if raw, ok := meta["exitCode"]; ok && json.Unmarshal(raw, &code) == nil {
			v.ExitCode = &code
		}
		v.Signal = stringField(meta, "signal")
	}
	return CardView{Terminal: v}
}

// EditPresenter presents a file edit or write as a diff card when its
// arguments carry a path and new content (new_string/newText/content, with
// old_string/oldText for an edit); otherwise as a generic card.
func EditPresenter(c ToolCall) CardView {
	args := objectOf(c.Arguments)
	path := stringField(args, "path", "file_path", "filePath", "file")
	newText, okNew := stringFieldOK(args, "new_string", "newString", "new_text", "newText", "new", "content")
	oldText, _ := stringFieldOK(args, "old_string", "oldString", "old_text", "oldText", "old")
	if path == "" || !okNew {
		return GenericPresenter(c)
	}
	return CardView{Diff: &DiffView{Files: []DiffFile{{
		Path: path, Old: splitLines(oldText), New: splitLines(newText)}}}}
}

// GenericPresenter presents any tool as a generic card: the result text, or
// for a pending call the arguments pretty-printed as JSON with a two-space
// indent.
func GenericPresenter(c ToolCall) CardView {
	var text string
	if c.HasResult {
		text = c.ResultText()
	} else {
		text = prettyJSON(c.Arguments)
	}
	return CardView{Generic: &GenericView{Lines: strings.Split(text, "\n")}}
}

func prettyJSON(s string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(s), "", "  ") != nil {
		return s
	}
	return b.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func objectOf(s string) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &m) != nil {
		return nil
	}
	return m
}

func stringField(m map[string]json.RawMessage, keys ...string) string {
	s, _ := stringFieldOK(m, keys...)
	return s
}

func stringFieldOK(m map[string]json.RawMessage, keys ...string) (string, bool) {
	for _, k := range keys {
		var s string
		if raw, ok := m[k]; ok && json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	}
	return "", false
}
