package sessionlog

import (
	"errors"
	"fmt"
	"testing"
)

func TestError(t *testing.T) {
	for _, tt := range []struct {
		pos    Pos
		reason string // "" for "bad"
		want   string
	}{
		{Pos{"f.jsonl", 0, -1}, "", "f.jsonl: bad"},
		{Pos{"f.jsonl", 3, -1}, "", "f.jsonl:3: bad"},
		{Pos{"f.jsonl", 0, 7}, "", "f.jsonl: bad (seq 7)"},
		{Pos{"f.jsonl", 3, 0}, "", "f.jsonl:3: bad (seq 0)"},
		{NoPos, "", "bad"},
		{Pos{Seq: 4}, "", "bad"}, // no file yet: the caller places it
		// Upstream's wording that names the seq already is not followed by it again.
		{Pos{"f.jsonl", 2, 0}, "malformed turn/start at seq 0", "f.jsonl:2: malformed turn/start at seq 0"},
		{Pos{"f.jsonl", 2, 10}, "malformed turn/start at seq 1", "f.jsonl:2: malformed turn/start at seq 1 (seq 10)"},
	} {
		reason := tt.reason
		if reason == "" {
			reason = "bad"
		}
		e := Refuse(LayerDecode, tt.pos, reason, nil)
		if got := e.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.pos, got, tt.want)
		}
	}
}

func TestErrorFound(t *testing.T) {
	cause := Refuse(LayerDecode, Pos{"f.jsonl", 2, -1}, "line too long", ErrTooLong)
	err := fmt.Errorf("reading: %w", cause)
	var e *Error
	if !errors.As(err, &e) || e.Layer != LayerDecode || !errors.Is(err, ErrTooLong) {
		t.Fatalf("errors.As/Is of %v: %+v", err, e)
	}
	moved := e.At(Pos{"g.jsonl", 5, 1})
	if moved.Error() != "g.jsonl:5: line too long (seq 1)" || e.Path != "f.jsonl" {
		t.Errorf("At: %q (original %q)", moved, e)
	}
}

func TestWarning(t *testing.T) {
	if got := (Warning{Pos{"f.jsonl", 1, -1}, "bom"}).String(); got != "f.jsonl:1: bom" {
		t.Errorf("%q", got)
	}
	if got := (Warning{Pos{"f.jsonl", 0, -1}, "torn"}).String(); got != "f.jsonl: torn" {
		t.Errorf("%q", got)
	}
}
