package cards

import (
	"regexp"
	"strings"
)

// generic returns a generic call view with a title and an optional raw
// input.
func generic(title string, rawInput *string) *shownView {
	return &shownView{generic: &genericView{title: title, rawInput: rawInput}}
}

// titled is a tool whose call view is a fixed-form title and raw input, and
// that has no result view.
func titled(s schema, title func(args map[string]any) string, raw func(args map[string]any) *string) builtin {
	return builtin{schema: s, call: func(args map[string]any) *shownView {
		var r *string
		if raw != nil {
			r = raw(args)
		}
		return generic(title(args), r)
	}}
}

func rawArg(k string) func(map[string]any) *string {
	return func(args map[string]any) *string { return ptrTo(str(args, k)) }
}

func fixed(s string) func(map[string]any) string { return func(map[string]any) string { return s } }

// builtinTools is the static table of built-in presenters (presenters.md
// §2), keyed by tool name. Tools absent from it (subagent, send_message,
// list_agents, report, ask_user_question and every unknown tool) get the
// generic fallback.
var builtinTools = map[string]builtin{
	"bash":               bashTool,
	"read":               readTool,
	"write":              writeTool,
	"edit":               editTool,
	"str_replace_editor": strReplaceEditorTool,
	"grep":               grepTool,
	"glob":               globTool,
	"run_code": titled(schema{req("description", "string"), req("code", "string")},
		func(a map[string]any) string { return str(a, "description") }, rawArg("code")),
	"workflow": titled(schema{req("script", "string"),
		{name: "meta", typ: "object", required: true, fields: schema{req("name", "string"), req("description", "string")}},
		opt("args", "object")},
		func(a map[string]any) string {
			m, _ := a["meta"].(map[string]any)
			return "workflow: " + str(m, "name")
		}, rawArg("script")),
	"ralph": titled(schema{req("objective", "string")}, fixed("ralph"), rawArg("objective")),
	"skill": titled(schema{req("name", "string")},
		func(a map[string]any) string { return "Load skill " + str(a, "name") }, rawArg("name")),
	"todo_write": titled(schema{{name: "todos", typ: "array", required: true, items: &param{typ: "object", closed: true,
		fields: schema{req("content", "string"), {name: "status", typ: "string", required: true,
			enum: []string{"pending", "in_progress", "completed"}}}}}},
		fixed("Update todo list"), func(a map[string]any) *string { return ptrTo(jsonOf(a["todos"])) }),
	"task_output": titled(schema{req("task_id", "string")},
		func(a map[string]any) string { return "Read output from background task " + str(a, "task_id") }, rawArg("task_id")),
	"task_list": titled(nil, fixed("List background tasks"), nil),
	"task_kill": titled(schema{req("task_id", "string")},
		func(a map[string]any) string { return "Kill background task " + str(a, "task_id") }, rawArg("task_id")),
	"cordis_inspect": titled(schema{opt("what", "string"), opt("name", "string")},
		func(a map[string]any) string {
			// present.ts presentInspectCall: a given name always joins
			// what, given or not ("undefined: x"); what alone, even empty,
			// follows a colon (presenters.md §5.9).
			_, hasWhat := a["what"]
			_, hasName := a["name"]
			what := "undefined"
			if hasWhat {
				what = str(a, "what")
			}
			switch {
			case hasName:
				return "Inspect cordis runtime: " + what + ": " + str(a, "name")
			case hasWhat:
				return "Inspect cordis runtime: " + what
			}
			return "Inspect cordis runtime"
		}, nil),
	"cordis_mount": titled(schema{req("code", "string")}, fixed("Mount temporary Cordis Plugin"),
		func(a map[string]any) *string { return ptrTo(jsonOf(map[string]any{"code": a["code"]})) }),
	"cordis_unmount": titled(schema{req("id", "string")},
		func(a map[string]any) string { return "Unmount temporary Cordis Plugin " + str(a, "id") }, nil),
	"web_search": titled(schema{req("query", "string")},
		func(a map[string]any) string { return str(a, "query") }, rawArg("query")),
	"web_fetch": titled(schema{req("url", "string")},
		func(a map[string]any) string { return str(a, "url") }, rawArg("url")),
	"exit_plan_mode": exitPlanModeTool,
	"lsp":            lspTool,
	"get_goal":       titled(nil, fixed("Read current goal"), nil),
	"create_goal":    titled(schema{req("objective", "string")}, fixed("Create goal"), rawArg("objective")),
	"update_goal":    titled(nil, updateGoalTitle, updateGoalRaw),
	"session_search": titled(schema{req("query", "string")}, fixed("Search prior sessions"), rawArg("query")),
	"session_event_search": titled(schema{req("query", "string")}, fixed("Search session events"),
		rawArg("query")),
	"session_trace": titled(schema{opt("session_id", "string")}, func(a map[string]any) string {
		if id := str(a, "session_id"); id != "" {
			return "Trace session " + id
		}
		return "Trace current session"
	}, func(a map[string]any) *string {
		if id := str(a, "session_id"); id != "" {
			return &id
		}
		return nil
	}),
	"session_event_trace": titled(schema{req("seq", "number"), opt("session_id", "string")},
		func(a map[string]any) string { return "Trace event " + seqText(a) }, seqRaw),
	"session_event_read": titled(schema{req("seq", "number"), opt("session_id", "string")},
		func(a map[string]any) string { return "Read event " + seqText(a) }, seqRaw),
	"terminal_open": titled(nil, func(a map[string]any) string {
		n := str(a, "name")
		if n == "" {
			n = str(a, "type")
		}
		return "Open terminal " + n
	}, nil),
	"terminal_read": titled(schema{req("sessionId", "string")},
		func(a map[string]any) string { return "Read terminal " + str(a, "sessionId") }, argsRaw),
	"terminal_signal": titled(schema{req("sessionId", "string")},
		func(a map[string]any) string { return "Signal terminal " + str(a, "sessionId") }, argsRaw),
	"terminal_close": titled(schema{req("sessionId", "string")},
		func(a map[string]any) string { return "Close terminal " + str(a, "sessionId") }, nil),
	"terminal_list": titled(nil, fixed("List terminal sessions"), nil),
	"terminal_send": terminalSendTool,
}

func argsRaw(a map[string]any) *string { return ptrTo(jsonOf(a)) }

func seqText(a map[string]any) string {
	n, _ := num(a, "seq")
	return jsNumber(n)
}

func seqRaw(a map[string]any) *string {
	m := map[string]any{"seq": a["seq"]}
	if id, ok := a["session_id"]; ok {
		m["session_id"] = id
	}
	// JSON.stringify keeps insertion order: session_id first, as the
	// presenter builds it.
	if _, ok := m["session_id"]; ok {
		return ptrTo("{\n  \"session_id\": " + jsString(str(a, "session_id")) + ",\n  \"seq\": " + seqText(a) + "\n}")
	}
	return ptrTo("{\n  \"seq\": " + seqText(a) + "\n}")
}

// updateGoalTitle is "<Action> goal", or "Mark goal" for blocked.
func updateGoalTitle(a map[string]any) string {
	act := str(a, "action")
	if act == "" {
		act = str(a, "status")
	}
	if act == "" || act == "blocked" {
		return "Mark goal"
	}
	return strings.ToUpper(act[:1]) + act[1:] + " goal"
}

func updateGoalRaw(a map[string]any) *string {
	if s := str(a, "blocked_reason"); s != "" {
		return &s
	}
	if s := str(a, "objective"); s != "" {
		return &s
	}
	if n, ok := num(a, "max_goal_rounds"); ok && n != 0 {
		return ptrTo(jsNumber(n))
	}
	if s := str(a, "goal_id"); s != "" {
		return &s
	}
	return nil
}

var planHeading = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t#]*$`)

// exitPlanModeTool (presenters.md §2.15): pending shows the plan as
// Markdown under its first heading; completed is titled "Plan review".
var exitPlanModeTool = builtin{
	schema: schema{req("plan", "string")},
	call: func(args map[string]any) *shownView {
		plan := str(args, "plan")
		title := "Plan"
		if m := planHeading.FindStringSubmatch(plan); m != nil {
			title = m[1]
		}
		return &shownView{generic: &genericView{title: title, content: &plan}}
	},
	result: func(args map[string]any, c *ToolCall) *shownView {
		return &shownView{generic: &genericView{title: "Plan review", content: ptrTo(c.ResultText())}}
	},
}

// builtinPresenters is the built-in table as presenters.
func builtinPresenters() map[string]Presenter {
	out := make(map[string]Presenter, len(builtinTools))
	for name, b := range builtinTools {
		out[name] = builtinPresenter(b)
	}
	return out
}
