package harness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/sessionlog"
)

// This file wraps the payloads the verbs build with internal/logbuild
// into events, and resolves the verbs' text arguments.

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
