package cards

import (
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// ShellCard renders a user shell command of P's terminal (vocabulary.md
// "tui/user-shell-start"): the gap row, the header ("● Shell" green, red
// when the command failed or was interrupted), "$ command" and the cwd in
// dim, then the result rows, folded like a terminal card; hidden in hidden
// mode. The cwd is shown as logged: abbreviating the home directory to ~
// would need the user's home, which the log does not hold.
func (r *Renderer) ShellCard(c *transcript.ShellCard) []string {
	st := greenSty
	if c.Result == nil || c.Result.Failed() {
		st = redSty
	}
	rows := []string{"", r.unpadded(display.TextLine("● Shell", st))}
	body := []display.Line{display.TextLine("$ "+display.EscapeInline(c.Command), dimSty), display.TextLine(display.EscapeInline(c.Cwd), dimSty)}
	if c.Result == nil {
		body = append(body, display.TextLine("Interrupted before a result was recorded.", redSty))
		return append(rows, r.text(r.fold(body))...)
	}
	res := c.Result
	stdout := nonEmptyLines(res.Stdout.Text)
	for _, l := range stdout {
		body = append(body, display.TextLine(l, dimSty))
	}
	if stderr := nonEmptyLines(res.Stderr.Text); len(stderr) > 0 {
		if len(stdout) > 0 {
			body = append(body, display.TextLine("stderr:", dimSty))
		}
		for _, l := range stderr {
			body = append(body, display.TextLine(l, redSty))
		}
	}
	if res.Stdout.Truncated {
		body = append(body, display.TextLine("[stdout truncated]", dimSty))
	}
	if res.Stderr.Truncated {
		body = append(body, display.TextLine("[stderr truncated]", dimSty))
	}
	switch {
	case res.TimedOut:
		body = append(body, display.TextLine("[timed out]", redSty))
	case res.Aborted:
		body = append(body, display.TextLine("[cancelled]", redSty))
	case res.Signal != nil:
		body = append(body, display.TextLine("[signal "+display.EscapeInline(*res.Signal)+"]", redSty))
	case res.ExitCode != nil:
		body = append(body, display.TextLine("[exit "+strconv.FormatInt(*res.ExitCode, 10)+"]", dimSty))
	default:
		body = append(body, display.TextLine("[exit unknown]", dimSty))
	}
	if sb := res.Sandbox; sb != nil {
		switch {
		case sb.Denied:
			body = append(body, display.TextLine("[sandbox denied under "+display.EscapeInline(sb.Mode)+"]", redSty))
		case sb.RunnerFailed:
			body = append(body, display.TextLine("[sandbox runner failed under "+display.EscapeInline(sb.Mode)+"]", redSty))
		}
	}
	return append(rows, r.text(r.fold(body))...)
}

// nonEmptyLines is the display-safe, non-empty lines of s.
func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(display.Escape(s), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
