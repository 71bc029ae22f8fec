package cards

import (
	"encoding/json"
	"strings"
)

// readTool is upstream's read presenter (presenters.md §2.2): the read
// envelope is stripped only when the result carries a valid read window in
// meta, so a log recorded before read meta shows the envelope.
var readTool = builtin{
	schema: schema{req("file_path", "string"), opt("offset", "integer"), opt("limit", "integer")},
	call: func(args map[string]any) *shownView {
		return &shownView{generic: &genericView{title: readTitle(args)}}
	},
	result: func(args map[string]any, c *ToolCall) *shownView {
		if c.IsError || !validReadMeta(c.Meta) {
			return nil
		}
		text, ok := singleText(c)
		if !ok {
			return nil
		}
		body, ok := readEnvelope(text)
		if !ok {
			return nil
		}
		return &shownView{generic: &genericView{content: &body}}
	},
}

// readTitle is "Read <file_path>", with the line window of offset and limit.
func readTitle(args map[string]any) string {
	t := "Read " + str(args, "file_path")
	off, hasOff := num(args, "offset")
	// As upstream: a missing offset reads as 1, a given one (even 0) as is.
	if limit, ok := num(args, "limit"); ok && limit > 0 {
		start := off
		if !hasOff {
			start = 1
		}
		return t + " (" + jsNumber(start) + " - " + jsNumber(start+limit-1) + ")"
	}
	if hasOff {
		return t + " (from line " + jsNumber(off) + ")"
	}
	return t
}

// readEnvelope returns BODY of "<path>…</path>\n<type>file</type>\n<content>\n"
// + BODY + "\n</content>".
func readEnvelope(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "<path>")
	if !ok {
		return "", false
	}
	i := strings.Index(rest, "</path>\n<type>file</type>\n<content>\n")
	if i < 0 || strings.Contains(rest[:i], "\n") {
		return "", false
	}
	rest = rest[i+len("</path>\n<type>file</type>\n<content>\n"):]
	body, ok := strings.CutSuffix(rest, "\n</content>")
	return body, ok
}

// validReadMeta reports whether meta is a read window: path, offset ≥ 1,
// totalLines ≥ 0, lines [{number, text}] strictly increasing within
// [offset, totalLines], optional lang.
func validReadMeta(raw json.RawMessage) bool {
	var m struct {
		Path       *string  `json:"path"`
		Offset     *float64 `json:"offset"`
		TotalLines *float64 `json:"totalLines"`
		Lines      *[]struct {
			Number *float64 `json:"number"`
			Text   *string  `json:"text"`
		} `json:"lines"`
		Lang json.RawMessage `json:"lang"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m.Path == nil || m.Offset == nil ||
		m.TotalLines == nil || m.Lines == nil {
		return false
	}
	isInt := func(f float64) bool { return f == float64(int64(f)) }
	if !isInt(*m.Offset) || *m.Offset < 1 || !isInt(*m.TotalLines) || *m.TotalLines < 0 {
		return false
	}
	if len(m.Lang) > 0 && m.Lang[0] != '"' { // present, and not a string (null included)
		return false
	}
	prev := *m.Offset - 1
	for _, l := range *m.Lines {
		if l.Number == nil || l.Text == nil || !isInt(*l.Number) || *l.Number <= prev || *l.Number > *m.TotalLines {
			return false
		}
		prev = *l.Number
	}
	return true
}

// metaDiffs reads meta.diffs: a non-empty array of {path, oldText|null,
// newText}.
func metaDiffs(raw json.RawMessage) (*DiffView, bool) {
	var m struct {
		Diffs []struct {
			Path    *string         `json:"path"`
			OldText json.RawMessage `json:"oldText"` // a string or null, not absent
			NewText *string         `json:"newText"`
		} `json:"diffs"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || len(m.Diffs) == 0 {
		return nil, false
	}
	v := &DiffView{}
	for _, d := range m.Diffs {
		var old *string
		if d.Path == nil || d.NewText == nil || len(d.OldText) == 0 || json.Unmarshal(d.OldText, &old) != nil {
			return nil, false
		}
		f := DiffFile{Path: *d.Path, New: splitLines(*d.NewText)}
		if old != nil {
			f.Old = splitLines(*old)
		}
		v.Files = append(v.Files, f)
	}
	return v, true
}

func diffOf(path, oldText, newText string) *shownView {
	return &shownView{diff: &DiffView{Files: []DiffFile{{Path: path, Old: splitLines(oldText), New: splitLines(newText)}}}}
}

// writeTool is upstream's write presenter (presenters.md §2.3).
var writeTool = builtin{
	schema: schema{req("file_path", "string"), req("content", "string")},
	call: func(args map[string]any) *shownView {
		return diffOf(str(args, "file_path"), "", str(args, "content"))
	},
	result: func(args map[string]any, c *ToolCall) *shownView {
		if c.IsError {
			return nil
		}
		if v, ok := metaDiffs(c.Meta); ok {
			return &shownView{diff: v}
		}
		return diffOf(str(args, "file_path"), "", str(args, "content"))
	},
}

// editTool is upstream's edit presenter (presenters.md §2.4).
var editTool = builtin{
	schema: schema{req("file_path", "string"), req("old_string", "string"), req("new_string", "string"),
		opt("replace_all", "boolean")},
	call: func(args map[string]any) *shownView {
		return diffOf(str(args, "file_path"), str(args, "old_string"), str(args, "new_string"))
	},
	result: func(args map[string]any, c *ToolCall) *shownView {
		if c.IsError {
			return nil
		}
		if v, ok := metaDiffs(c.Meta); ok {
			return &shownView{diff: v}
		}
		return nil
	},
}

// strReplaceEditorTool has only a call view (presenters.md §2.4).
var strReplaceEditorTool = builtin{
	schema: schema{{name: "command", typ: "string", required: true,
		enum: []string{"view", "create", "str_replace", "insert", "undo_edit"}}, req("path", "string"),
		opt("file_text", "string"), opt("old_str", "string"), opt("new_str", "string"), opt("insert_line", "integer")},
	call: func(args map[string]any) *shownView {
		path := str(args, "path")
		switch str(args, "command") {
		case "view", "insert":
			return &shownView{generic: &genericView{title: str(args, "command") + " " + path}}
		case "create":
			return diffOf(path, "", str(args, "file_text"))
		case "str_replace":
			return diffOf(path, str(args, "old_str"), str(args, "new_str"))
		}
		return nil
	},
}

// grepTool and globTool (presenters.md §2.5): the body is the title and the
// raw result text, with or without search meta.
var grepTool = builtin{
	schema: schema{req("pattern", "string"), opt("path", "string"), opt("include", "string")},
	call: func(args map[string]any) *shownView {
		t := "Grep " + str(args, "pattern")
		if p := str(args, "path"); p != "" {
			t += " in " + p
		}
		if inc := str(args, "include"); inc != "" {
			t += " (" + inc + ")"
		}
		return &shownView{generic: &genericView{title: t, rawInput: ptrTo(str(args, "pattern"))}}
	},
}

var globTool = builtin{
	schema: schema{req("pattern", "string"), opt("path", "string")},
	call: func(args map[string]any) *shownView {
		t := "Glob " + str(args, "pattern")
		if p := str(args, "path"); p != "" {
			t += " in " + p
		}
		return &shownView{generic: &genericView{title: t, rawInput: ptrTo(str(args, "pattern"))}}
	},
}

// lspTool (presenters.md §2.15).
var lspTool = builtin{
	schema: schema{req("operation", "string"), req("file_path", "string"), req("line", "number"), req("character", "number")},
	call: func(args map[string]any) *shownView {
		line, _ := num(args, "line")
		char, _ := num(args, "character")
		return &shownView{generic: &genericView{title: "LSP " + str(args, "operation") + " " + str(args, "file_path") +
			":" + jsNumber(line) + ":" + jsNumber(char)}}
	},
}
