package harness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/sessionlog"
)

// This file builds the events the verbs append. Payload structs keep the
// upstream key order, so a written log reads like upstream's.

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type toolCallBlock struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type toolResultBlock struct {
	Type       string `json:"type"`
	ToolCallID string `json:"toolCallId"`
	Content    []any  `json:"content"`
	IsError    bool   `json:"isError"`
}

type message struct {
	ID      string `json:"id"`
	Role    string `json:"role"`
	Content []any  `json:"content"`
	Source  any    `json:"source"`
}

type kindSource struct {
	Kind string `json:"kind"`
}

type pluginSource struct {
	Kind   string `json:"kind"`
	Plugin string `json:"plugin"`
}

type modelSource struct {
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

type toolSource struct {
	Kind   string `json:"kind"`
	CallID string `json:"callId"`
}

type turnStep struct {
	Turn int64 `json:"turn"`
	Step int64 `json:"step"`
}

// logOnly is a log-only event.
func logOnly(typ string, data any) sessionlog.Event {
	return sessionlog.Event{Type: typ, Data: mustJSON(data)}
}

// surfaceAppend is an append-origin surface event.
func surfaceAppend(typ string, data any, sources []int64) sessionlog.Event {
	e := sessionlog.Event{Type: typ, Data: mustJSON(data), SurfaceOp: sessionlog.AppendOp()}
	if sources != nil {
		e.SourceEventSeqs = mustJSON(sources)
	}
	return e
}

// surfaceReplace is a replacement surface event over start..end.
func surfaceReplace(typ string, data any, start, end int64, sources []int64) sessionlog.Event {
	return sessionlog.Event{Type: typ, Data: mustJSON(data),
		SurfaceOp: sessionlog.ReplaceOp(start, end), SourceEventSeqs: mustJSON(sources)}
}

// msgID is a deterministic message id for the event appended at seq.
func msgID(prefix string, seq int64) string {
	return prefix + "-" + strconv.FormatInt(seq, 10)
}

func modelSrc() modelSource {
	return modelSource{Kind: "model", Provider: defaultProvider, Model: defaultModel}
}

// textArg resolves a text argument: "@NAME" is the content of the archive
// file NAME (one trailing newline dropped), a double-quoted Go string
// literal ('"a\nb\x1b"') is unquoted, "@@…" is a literal "@…", and
// anything else is taken literally.
func textArg(ts *testscript.TestScript, verb, arg string) (string, error) {
	switch {
	case strings.HasPrefix(arg, "@@"):
		return arg[1:], nil
	case strings.HasPrefix(arg, "@") && len(arg) > 1:
		data, err := readArchiveText(ts, verb, arg[1:])
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(data, "\n"), nil
	case len(arg) >= 2 && arg[0] == '"' && arg[len(arg)-1] == '"':
		s, err := strconv.Unquote(arg)
		if err != nil {
			return "", fmt.Errorf("%s: %s is not a valid Go string literal: %w", verb, arg, err)
		}
		return s, nil
	}
	return arg, nil
}

// oneText resolves a verb's single text positional.
func oneText(ts *testscript.TestScript, verb string, pos []string) (string, error) {
	if len(pos) != 1 {
		return "", fmt.Errorf("%s: want one TEXT argument (quote it), got %d", verb, len(pos))
	}
	return textArg(ts, verb, pos[0])
}
