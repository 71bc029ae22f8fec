package sessiongen

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
)

// features names what a log exercises, read from the log itself (not from
// the generator's intentions).
func features(t *testing.T, events []sessionlog.Event) map[string]bool {
	t.Helper()
	f := map[string]bool{}
	if _, err := surface.Fold(events, 0); err != nil {
		t.Fatalf("fold: %v", err)
	}
	older := false
	for i := range events {
		e := &events[i]
		f["type "+e.Type] = true
		if strings.HasPrefix(e.Type, "compact/") || e.Type == sessionlog.TypeSteeringMessage {
			older = true
		}
		var d map[string]json.RawMessage
		_ = json.Unmarshal(e.Data, &d)
		switch sessionlog.Canonical(e.Type) {
		case sessionlog.TypeTurnStart:
			var tr struct{ Kind string }
			if json.Unmarshal(d["trigger"], &tr) == nil && tr.Kind != "" {
				f["trigger "+tr.Kind] = true
				older = true
			}
		case sessionlog.TypeTurnEnd:
			var r sessionlog.TurnEndData
			_ = json.Unmarshal(e.Data, &r)
			f["turn/end "+r.Reason.Kind] = true
			if r.Reason.Kind == "error" && r.Reason.Failure != nil {
				f["turn/end error failure"] = true
			}
			if r.Reason.Kind == "error" && r.Reason.Failure == nil && r.Reason.Message != "" {
				f["turn/end error message"] = true
			}
		case sessionlog.TypeAssistantChunk:
			var c sessionlog.ChunkData
			_ = json.Unmarshal(e.Data, &c)
			f["chunk "+c.Chunk.Type] = true
		case sessionlog.TypeLLMRetry:
			var r sessionlog.RetryData
			_ = json.Unmarshal(e.Data, &r)
			f["retry "+r.Mode] = true
		case sessionlog.TypeCompactionStart:
			if string(d["turn"]) == "null" {
				f["compaction standalone"] = true
			} else {
				f["compaction in turn"] = true
			}
		case sessionlog.TypeCompactionEnd:
			if _, ok := d["error"]; ok {
				f["compaction failed"] = true
			}
		case sessionlog.TypeToolResult:
			var r sessionlog.ToolResultData
			_ = json.Unmarshal(e.Data, &r)
			if len(r.Message.Content) == 1 {
				n := utf8.RuneCountInString(sessionlog.ContentText(r.Message.Content[0].Content))
				if n > 8192 && sessionlog.IsAppendSurfaceEvent(e) {
					f["huge result"] = true
				}
				if r.Message.Content[0].IsError {
					f["error result"] = true
				}
			}
			if bytes.Contains(r.Meta, []byte("exitCode")) {
				f["exit code meta"] = true
			}
			if bytes.Contains(r.Error, []byte("TOOL_NOT_STARTED")) {
				f["tool not started"] = true
			}
			if sessionlog.IsReplacementSurfaceEvent(e) {
				f["pruned result"] = true
			}
		case sessionlog.TypeAssistantMessage:
			if sessionlog.IsReplacementSurfaceEvent(e) {
				f["regenerated"] = true
			}
			src, _ := e.Sources()
			switch {
			case e.SourceEventSeqs == nil:
				f["assistant no provenance"] = true
			case len(src) == 0:
				f["assistant empty provenance"] = true
			default:
				f["assistant cites chunks"] = true
			}
		case sessionlog.TypeUserMessage:
			s := sessionlog.DecodeSource(d["source"])
			switch {
			case sessionlog.IsCheckpoint(e):
				f["checkpoint"] = true
			case sessionlog.IsReplacementSurfaceEvent(e):
				f["foreign replacement"] = true
			case s.Kind == "session-reference":
				f["session reference"] = true
			case s.Kind != "user":
				f["context "+s.Kind] = true
			}
		}
		if e.Ignorable {
			f["ignorable unknown"] = true
		}
		if e.Type == sessionlog.TypeSessionEndSeed && i < len(events)-1 {
			f["end-seed mid-log"] = true
		}
		if bytes.Contains(e.Data, []byte(`\udc80`)) {
			f["lone surrogate"] = true
		}
		if bytes.Contains(e.Data, []byte(`\u001b`)) {
			f["escape sequence"] = true
		}
		if bytes.Contains(e.Data, []byte("\u0085")) {
			f["C1 control"] = true
		}
		if bytes.Contains(e.Data, []byte("漢")) {
			f["wide rune"] = true
		}
		if bytes.Contains(e.Data, []byte(`\ufffd`)) {
			f["invalid utf-8 replaced"] = true
		}
	}
	if older {
		f["older vocabulary"] = true
	} else {
		f["newer vocabulary"] = true
	}
	// Nested: a checkpoint whose range starts at an earlier checkpoint.
	checkpoints := map[int64]bool{}
	for i := range events {
		e := &events[i]
		if sessionlog.IsCheckpoint(e) {
			op := e.Op()
			if checkpoints[op.Start] || checkpoints[op.End] {
				f["nested checkpoint"] = true
			}
			checkpoints[e.Seq] = true
		}
	}
	// Tails.
	last := events[len(events)-1]
	switch sessionlog.Canonical(last.Type) {
	case sessionlog.TypeAssistantChunk:
		f["tail cut mid-stream"] = true
	case sessionlog.TypeCompactionStart:
		f["tail open compaction"] = true
	}
	return f
}

// TestEveryKind checks that 50 seeds together exercise every event kind and
// every situation the generator promises.
func TestEveryKind(t *testing.T) {
	seen := map[string]int{}
	for seed := range int64(50) {
		for k := range features(t, Generate(seed, Config{})) {
			seen[k]++
		}
	}
	want := []string{
		"type turn/start", "type turn/end", "type step/start", "type step/end",
		"type user/message", "type steering/message", "type assistant/chunk", "type assistant/message",
		"type tool/call", "type tool/result", "type todo/write", "type request/header",
		"type request/context", "type session/title", "type session/end-seed", "type llm/retry",
		"type compaction/start", "type compaction/summary", "type compaction/end", "type compaction/prune",
		"type compact/start", "type compact/summary", "type compact/end", "type " + UnknownType,
		"trigger message", "trigger retry", "trigger injection",
		"turn/end completed", "turn/end aborted", "turn/end error", "turn/end disposed",
		"turn/end max-tokens", "turn/end interrupted", "turn/end blocked", "turn/end paused",
		"turn/end error failure", "turn/end error message",
		"chunk block-start", "chunk text-delta", "chunk reasoning-delta", "chunk tool-call-delta",
		"chunk block-end", "chunk usage", "chunk finish",
		"retry normal", "retry always",
		"compaction standalone", "compaction in turn", "compaction failed",
		"huge result", "error result", "exit code meta", "tool not started", "pruned result",
		"regenerated", "assistant no provenance", "assistant empty provenance", "assistant cites chunks",
		"checkpoint", "nested checkpoint", "foreign replacement", "session reference",
		"context plugin", "context goal", "context agent-instructions", "context workspace-instructions",
		"context x-custom-source",
		"ignorable unknown", "end-seed mid-log",
		"lone surrogate", "escape sequence", "C1 control", "wide rune", "invalid utf-8 replaced",
		"older vocabulary", "newer vocabulary", "tail cut mid-stream", "tail open compaction",
	}
	var missing []string
	for _, k := range want {
		if seen[k] == 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		var keys []string
		for k, n := range seen {
			keys = append(keys, k+"="+itoa(n))
		}
		sort.Strings(keys)
		t.Errorf("features never generated in 50 seeds: %q\nseen: %s", missing, strings.Join(keys, ", "))
	}
}

func itoa(n int) string { return string(encode(n)) }

// TestDeterministic: the same seed gives the same bytes; different seeds
// differ.
func TestDeterministic(t *testing.T) {
	for seed := range int64(20) {
		a, b := encodeLog(t, Generate(seed, Config{})), encodeLog(t, Generate(seed, Config{}))
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
		if c := encodeLog(t, Generate(seed+1000, Config{})); bytes.Equal(a, c) {
			t.Fatalf("seeds %d and %d give the same log", seed, seed+1000)
		}
	}
}

func encodeLog(t *testing.T, events []sessionlog.Event) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jsonl.WriteLog(&b, events); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestValid: every generated log passes the load-time checks and the fold,
// after a trip through the JSONL codec, and the checkpoint's cited summary
// is adjacent to it.
func TestValid(t *testing.T) {
	for seed := range int64(100) {
		events := Generate(seed, Config{})
		data := encodeLog(t, events)
		log, err := jsonl.ParseLog(data, "gen.jsonl")
		if err != nil {
			t.Fatalf("seed %d: parse: %v", seed, err)
		}
		if _, err := surface.Load(log.Events, func() int64 { return 0 }); err != nil {
			t.Fatalf("seed %d: load: %v", seed, err)
		}
		for i := range events {
			e := &events[i]
			if sessionlog.IsCheckpoint(e) {
				prev := events[i-1]
				if sessionlog.Canonical(prev.Type) != sessionlog.TypeCompactionSummary {
					t.Fatalf("seed %d: checkpoint %d not preceded by its summary", seed, e.Seq)
				}
			}
			if i > 0 && e.Time < events[i-1].Time-500 {
				t.Fatalf("seed %d: clock went back more than 500ms at seq %d", seed, e.Seq)
			}
		}
	}
}

// TestConfig: the knobs do what they say.
func TestConfig(t *testing.T) {
	t.Run("generation", func(t *testing.T) {
		for seed := range int64(10) {
			f := features(t, Generate(seed, Config{Generation: GenOlder}))
			if !f["older vocabulary"] || f["type compaction/start"] || f["ignorable unknown"] {
				t.Fatalf("seed %d: GenOlder produced newer events", seed)
			}
			f = features(t, Generate(seed, Config{Generation: GenNewer}))
			if f["older vocabulary"] {
				t.Fatalf("seed %d: GenNewer produced older events", seed)
			}
		}
	})
	t.Run("turns", func(t *testing.T) {
		events := Generate(1, Config{Turns: 2, Generation: GenNewer})
		n := 0
		for _, e := range events {
			if e.Type == sessionlog.TypeTurnStart {
				n++
			}
		}
		if n != 2 {
			t.Fatalf("Turns: 2 gave %d turns", n)
		}
	})
	t.Run("events", func(t *testing.T) {
		for _, n := range []int{100, 1000, 5000} {
			events := GenerateN(7, n)
			if len(events) < n || len(events) > n+400 {
				t.Fatalf("GenerateN(%d) gave %d events", n, len(events))
			}
		}
	})
	t.Run("plain", func(t *testing.T) {
		events := Generate(3, Config{Hostile: -1, Huge: -1})
		for _, e := range events {
			if bytes.Contains(e.Data, []byte(`\u001b`)) {
				t.Fatalf("Hostile: -1 still wrote an escape at seq %d", e.Seq)
			}
		}
	})
}

// TestAppendStringRules holds the generator's string writer to the one
// JSON string encoder byte for byte, except where it must differ: invalid
// UTF-8 (written as the escape \ufffd, one per byte, where the encoder writes
// U+FFFD itself) and the sentinels.
func TestAppendStringRules(t *testing.T) {
	for _, s := range []string{
		"", "plain", "q\"b\\s/", "\x00\x01\a\b\t\n\v\f\r\x0e\x1b\x1f", "\x7f", "\u0080\u0085\u009f",
		"\u2028\u2029", "<>&", "\uFFFD", "漢字😀e\u0301", "\u200b\u202e\ufeff\U0010ffff",
	} {
		if got, want := appendString(nil, s), jsonobj.AppendString(nil, s); string(got) != string(want) {
			t.Errorf("appendString(%q) = %q, the encoder writes %q", s, got, want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"\xff", `"\ufffd"`},
		{"a\xe2\x82b", `"a\ufffd\ufffdb"`},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
		{"\xf4\x90\x80\x80<\xc0\xaf", `"\ufffd\ufffd\ufffd\ufffd<\ufffd\ufffd"`},
		{"\n" + string(loneSurrogate) + "\u2028" + string(escapedPair) + "\x1b", "\"\\n\\udc80\u2028\\ud83d\\ude00\\u001b\""},
	} {
		if got := string(appendString(nil, c.in)); got != c.want {
			t.Errorf("appendString(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestEncodeString pins the sentinel escapes and the JSON.stringify style.
func TestEncodeString(t *testing.T) {
	got := string(encode("a\"\\\n\x1b\x7f\u0085\u2028" + string(loneSurrogate) + string(escapedPair) + "\xff<>&"))
	want := `"a\"\\\n\u001b` + "\x7f\u0085\u2028" + `\udc80\ud83d\ude00\ufffd<>&"`
	if got != want {
		t.Fatalf("encode:\n got %q\nwant %q", got, want)
	}
	var s string
	if err := json.Unmarshal([]byte(got), &s); err != nil {
		t.Fatal(err)
	}
	if s != decoded("a\"\\\n\x1b\x7f\u0085\u2028"+string(loneSurrogate)+string(escapedPair)+"\xff<>&") {
		t.Fatalf("decoded form differs: %q", s)
	}
}
