package transcript

import (
	"encoding/json"

	"github.com/dshtest/dshtest/sessionlog"
)

// The Shell card: a command the user ran in P's terminal (`!cmd`), logged
// as tui/user-shell-start {id, command, cwd} and, once it finished,
// tui/user-shell-result {id, durationMs, result} (vocabulary.md
// "tui/user-shell-start"). The start places the card at its log position;
// the result with the same id settles it in place. A start without a
// result is an interrupted process: the log cannot say that a command is
// still running, so both paths draw the replay form.

// sessionlog.Event types of P's terminal.
const (
	TypeUserShellStart  = "tui/user-shell-start"
	TypeUserShellResult = "tui/user-shell-result"
	TypeInboxSpliced    = "agent/inbox/spliced"
)

// ShellCard is one user shell command. Command and Cwd are raw log text.
// Result is nil until the result arrives.
type ShellCard struct {
	ID      string
	Command string
	Cwd     string
	Result  *ShellResult
}

// ShellResult is tui/user-shell-result's result. A nil ExitCode or Signal
// is JSON null or absent.
type ShellResult struct {
	ExitCode *int64        `json:"exitCode"`
	Signal   *string       `json:"signal"`
	TimedOut bool          `json:"timedOut"`
	Aborted  bool          `json:"aborted"`
	Stdout   ShellStream   `json:"stdout"`
	Stderr   ShellStream   `json:"stderr"`
	Sandbox  *ShellSandbox `json:"sandbox,omitempty"`
}

// ShellStream is one output stream of a shell result.
type ShellStream struct {
	Text      string `json:"text"`
	Truncated bool   `json:"truncated"`
}

// ShellSandbox is a shell result's sandbox report.
type ShellSandbox struct {
	Mode         string `json:"mode"`
	Denied       bool   `json:"denied"`
	RunnerFailed bool   `json:"runnerFailed"`
}

// Failed reports whether the result colours its card as an error.
func (r *ShellResult) Failed() bool {
	return r.ExitCode == nil || *r.ExitCode != 0 || r.Signal != nil || r.TimedOut || r.Aborted ||
		(r.Sandbox != nil && (r.Sandbox.Denied || r.Sandbox.RunnerFailed))
}

// trShellStart decodes a start into its card item, false when it has no
// id or command.
func trShellStart(e *sessionlog.Event) (Item, bool) {
	var s struct {
		ID      string `json:"id"`
		Command string `json:"command"`
		Cwd     string `json:"cwd"`
	}
	if json.Unmarshal(e.Data, &s) != nil || s.ID == "" || s.Command == "" {
		return Item{}, false
	}
	return Item{ID: ItemID{e.Seq, PartMain}, Kind: KindShell,
		Shell: &ShellCard{ID: s.ID, Command: s.Command, Cwd: s.Cwd}}, true
}

// trShellResult decodes a result: its id and result, false when malformed.
func trShellResult(e *sessionlog.Event) (string, *ShellResult, bool) {
	var r struct {
		ID     string       `json:"id"`
		Result *ShellResult `json:"result"`
	}
	if json.Unmarshal(e.Data, &r) != nil || r.ID == "" || r.Result == nil {
		return "", nil, false
	}
	return r.ID, r.Result, true
}

// settleShell gives a card its result: a copy, so that the replay and live
// paths never share what they project.
func settleShell(card *ShellCard, r *ShellResult) {
	c := *r
	card.Result = &c
}
