package cards

import (
	"strconv"
	"strings"
)

// bashTool is upstream's bash presenter (presenters.md §2.1).
var bashTool = builtin{
	schema: schema{req("command", "string"), req("description", "string"), opt("workdir", "string"),
		opt("timeoutMs", "number"), opt("run_in_background", "boolean"), opt("justification", "string")},
	call: func(args map[string]any) *shownView {
		cmd := str(args, "command")
		if bg, _ := args["run_in_background"].(bool); bg {
			return &shownView{generic: &genericView{title: cmd, rawInput: ptrTo(cmd),
				content: ptrTo(str(args, "description"))}}
		}
		return &shownView{terminal: &TerminalView{Title: cmd, Command: cmd,
			Description: str(args, "description"), Cwd: str(args, "workdir")}}
	},
	result: func(args map[string]any, c *ToolCall) *shownView {
		text, ok := singleText(c)
		if !ok {
			return nil
		}
		if bg, _ := args["run_in_background"].(bool); bg || c.IsError {
			return &shownView{generic: &genericView{content: ptrTo(consoleBlock(text))}}
		}
		body, code, signal := exitMarker(text)
		v := &TerminalView{Output: body, HasOutput: true}
		if signal != "" {
			v.Signal = signal
		} else {
			v.ExitCode = &code
		}
		return &shownView{terminal: v}
	},
}

// consoleBlock is a Markdown console code block of text, its trailing
// newlines removed.
func consoleBlock(text string) string {
	return "```console\n" + strings.TrimRight(text, "\n") + "\n```"
}

// exitMarker parses the final marker line of a bash result: "[killed by
// signal: S]" or "[exit code: N]", preceded by a newline; without one the
// exit code is 0 (presenters.md §2.1, §1.10 item 1).
func exitMarker(text string) (body string, code int, signal string) {
	i := strings.LastIndexByte(text, '\n')
	if i < 0 {
		return text, 0, ""
	}
	last := text[i+1:]
	if s, ok := strings.CutPrefix(last, "[killed by signal: "); ok && strings.HasSuffix(s, "]") {
		if sig := strings.TrimSuffix(s, "]"); sig != "" && !strings.Contains(sig, "]") {
			return text[:i], 0, sig
		}
	}
	if s, ok := strings.CutPrefix(last, "[exit code: "); ok && strings.HasSuffix(s, "]") {
		digits := strings.TrimSuffix(s, "]")
		if n, err := strconv.Atoi(digits); err == nil && digits != "" && strings.Trim(digits, "0123456789") == "" {
			return text[:i], n, ""
		}
	}
	return text, 0, ""
}

// singleText is the result's text when its content is exactly one text
// block.
func singleText(c *ToolCall) (string, bool) {
	if len(c.Result) != 1 || c.Result[0].Type != "text" {
		return "", false
	}
	return c.Result[0].Text, true
}

// terminalSendTool is terminal_send (presenters.md §2.15).
var terminalSendTool = builtin{
	schema: schema{req("sessionId", "string"), opt("text", "string"), opt("run_in_background", "boolean")},
	call: func(args map[string]any) *shownView {
		id, text := str(args, "sessionId"), str(args, "text")
		if bg, _ := args["run_in_background"].(bool); bg {
			return &shownView{generic: &genericView{title: "Send to terminal " + id + " in background", rawInput: ptrTo(text)}}
		}
		title := text
		if title == "" {
			title = "(send input)"
		}
		return &shownView{terminal: &TerminalView{Title: title, Command: title, Description: "Terminal " + id}}
	},
	result: func(args map[string]any, c *ToolCall) *shownView {
		if bg, _ := args["run_in_background"].(bool); bg || c.IsError {
			return nil
		}
		return &shownView{terminal: &TerminalView{Output: c.ResultText(), HasOutput: true}}
	},
}
