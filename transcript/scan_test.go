package transcript

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// fastCorpus is payloads of the shapes the fast decoders take, and of
// shapes they must leave to json.Unmarshal.
var fastCorpus = []string{
	toolData0,
	`{"turn":1,"step":2,"callId":"c1","message":{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"out\nput"}],"isError":false}],"source":{"kind":"tool","callId":"c1"}},"meta":{"exitCode":0,"ms":12.5}}`,
	`{"message":{"content":[{"content":[{"type":"text","text":"a"}],"isError":true},{"content":[],"isError":false}],"source":{"callId":"x"}},"error":"boom"}`,
	`{"message":{"content":[]}}`,
	`{"message":{"content":[{"content":null}]}}`,
	`{"message":{"content":[{"Content":[]}]}}`,
	`{"message":{"content":[{"isError":1}]}}`,
	`{"message":{"content":[1]}}`,
	`{"message":{"source":null},"meta":null}`,
	`{"message":{},"error":{"a":[1,2,{"b":null}]},"META":1}`,
	`{"message":{"content":[{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}]},"message":{}}`,
	`{"turn":3,"step":1,"message":{"role":"assistant","content":[{"type":"reasoning","text":"hm"},{"type":"text","text":"Hi \u00e9"},{"type":"tool-call","id":"c1","name":"bash","arguments":"{\"command\":\"ls\"}"}],"source":{"kind":"model"}}}`,
	`{"turn":3,"step":1,"message":{"content":[]}}`,
	`{"turn":3.5,"step":1,"message":{"content":[]}}`,
	`{"turn":3,"step":1,"message":{"Content":[]}}`,
	`{"turn":3,"step":1,"message":null}`,
	`{"turn":3,"step":1,"message":{"content":[{"type":"text","text":"a","TEXT":"b"}]}}`,
	`{"content":[{"type":"text","text":"Hello"}],"source":{"kind":"user"}}`,
	`{"content":[{"type":"text","text":"ctx"}],"source":{"kind":"context","plugin":"git","plugin":"hg"}}`,
	`{"content":[{"type":"text","text":"x"}],"source":{"k\u0069nd":"user"}}`,
	`{"content":[{"type":"text","text":"x"}],"source":{"kind":null}}`,
	`{"content":[{"type":"text","text":"x"}],"source":{}}`,
	`{"content":[{"type":"text","text":"x"}],"source":[]}`,
	`{"content":"x"}`,
	`{"content":[{"type":"text","text":"x"}] ,"source":{}}`,
	`{"content":[{"type":"text","text":"bad ` + "\xff\x01" + `"}]}`,
	`{"content":[{"type":"text","text":"esc \ud800 \" \\"}]}`,
	`"x"`, `"\u00zz"`, `1`, `-0.5e-3`, `1e`, `true`, `tru`, `[{"a":{"b":[null,false]}}]`, `{"a":1}{`, `{"a":1,}`, `{"a"1}`, `{1:2}`, `[1 ]`,
	`{"kind":"tool","callId":"c1"}`, `{"kind":"plugin","plugin":"compact","compactionId":"x","kind":"user"}`, `{"kind":1}`, `{"Kind":"x","callId":null}`,
	`{"provider":"anthropic","model":"m\u00e9","extra":{"a":[1]}}`, `{"kind":"tool"} `,
	`[]`, `[1,2,-3]`, `[0]`, `[01]`, `[1.0]`, `[1,]`, `[9223372036854775808]`, `[1] `, `[ 1]`, `[null]`,
	`{"turn":1,"reason":{"kind":"completed"}}`, `{"turn":1,"reason":{"kind":"error","error":{"message":"x"}}}`, `{"turn":1,"reason":{"KIND":"x"}}`,
	`{"turn":1,"reason":{"kind":"aborted","Reason":"user"}}`, `{"reason":{"kind":"a"},"reason":{}}`, `{"turn":1,"reason":{"x":1}}`, `{"turn":1}`, `{"Reason":{"kind":"a"}}`,
	`{"turn":1,"step":2}`, `{"turn":1,"Step":2}`, `{"turn":1,"step":2,"turn":3}`, `{"turn":-0,"step":null}`, `{"turn":1e2}`, `{"step":9223372036854775807,"x":[1]}`,
	`{}`, `null`, ``, `{"a":1}`, `{"message":`, `{"content":[{"type":"text"}]}x`,
	`{"turn":1,"step":2,"callId":"c1","name":"bash","arguments":"{\"command\":\"ls\"}"}`, `{"turn":1,"step":2,"callId":"c1","name":"bash","arguments":{}}`,
	`{"turn":1,"callId":"c1","CallId":"c2"}`, `{"name":null}`, `{"name":"a","name":"b"}`, `{"arguments":"\u00e9\ud83d\ude00","extra":[true]}`,
	`{"id":"m1","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}}`, `{"id":1,"content":[]}`, `{"role":null}`,
	`{"Role":"user"}`, `{"id":"m","id":"n","source":{"a":1},"source":2}`,
	`{"turn":1,"step":1,"message":{"id":"m","role":"assistant","content":[]},"usage":{"input":3},"interrupted":true}`,
	`{"turn":1,"step":1,"message":{"id":7,"content":[]}}`, `{"turn":1,"message":{"role":"assistant"},"interrupted":"yes"}`,
	`{"turn":1,"message":{"content":[]},"usage":null}`, `{"interrupted":false,"Usage":{}}`,
	`{"compactionId":"c1","summary":[{"type":"text","text":"sum"}],"shadowedSeqs":[3,4,5],"shadowedTokenCount":120}`,
	`{"summary":[],"shadowedSeqs":[],"shadowedTokenCount":0,"Summary":7}`, `{"summary":null,"shadowedSeqs":[1],"shadowedTokenCount":1}`,
	`{"summary":[],"shadowedSeqs":[1.5],"shadowedTokenCount":1}`, `{"summary":[],"shadowedSeqs":[1],"shadowedTokenCount":1e3}`,
	`{"summary":[],"shadowedSeqs":[1],"shadowedTokenCount":"1"}`, `{"summary":[],"shadowedSeqs":[1]}`,
	`{"summary":[],"summary":[{"type":"text","text":"b"}],"shadowedSeqs":[1],"shadowedTokenCount":2}`,
	`{"summary":[{"type":"text","text":"a"}],"shadowedSeqs":[-0,9223372036854775807],"shadowedTokenCount":-3}`,
}

// fastPayloads adds the user, assistant and tool-result payloads of the
// testdata logs and a synthetic log.
func fastPayloads(t *testing.T) []string {
	out := append([]string(nil), fastCorpus...)
	files, _ := filepath.Glob(filepath.Join(testdataDir, "*.jsonl"))
	var events []sessionlog.Event
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if log, err := jsonl.ParseLog(data, f); err == nil {
			events = append(events, log.Events...)
		}
	}
	events = append(events, synthlog.Log(2000)...)
	for _, e := range events {
		switch e.Type {
		case sessionlog.TypeUserMessage, sessionlog.TypeAssistantMessage, sessionlog.TypeToolResult,
			sessionlog.TypeStepStart, sessionlog.TypeStepEnd, sessionlog.TypeTurnEnd, sessionlog.TypeToolCall,
			sessionlog.TypeCompactionSummary:
			out = append(out, string(e.Data))
		}
	}
	return out
}

// checkFastDecoders holds each scanner to json.Unmarshal into the struct
// its caller decodes with: where the scanner says ok, json.Unmarshal
// succeeds and gives the same values. It returns how many scanners took
// data.
func checkFastDecoders(t *testing.T, data string) int {
	t.Helper()
	b := []byte(data)
	took := 0
	if got, ok := fastjson.ScanToolResult(b); ok {
		took++
		var fast trResultJSON
		if err := json.Unmarshal(b, &fast); err != nil {
			t.Fatalf("scanResult(%q) ok, json.Unmarshal: %v", data, err)
		}
		if want := trResultSlow(b); !reflect.DeepEqual(trResult(got), want) {
			t.Fatalf("scanResult(%q) = %+v, json.Unmarshal gives %+v", data, got, want)
		}
	}
	if turn, step, content, ok := fastjson.ScanAssistant(b); ok {
		key := trKey{turn, step}
		took++
		var fast struct {
			sessionlog.TurnStep
			Message struct {
				Content []sessionlog.ContentBlock `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(b, &fast); err != nil {
			t.Fatalf("scanAssistant(%q) ok, json.Unmarshal: %v", data, err)
		}
		if want := (trKey{fast.Turn, fast.Step}); key != want || !reflect.DeepEqual(content, fast.Message.Content) {
			t.Fatalf("scanAssistant(%q) = %v %+v, json.Unmarshal gives %v %+v", data, key, content, want, fast.Message.Content)
		}
	}
	if turn, step, ok := fastjson.ScanTurnStep(b); ok {
		took++
		var ts sessionlog.TurnStep
		if err := json.Unmarshal(b, &ts); err != nil {
			t.Fatalf("ScanTurnStep(%q) ok, json.Unmarshal: %v", data, err)
		}
		if turn != ts.Turn || step != ts.Step {
			t.Fatalf("ScanTurnStep(%q) = %d %d, json.Unmarshal gives %d %d", data, turn, step, ts.Turn, ts.Step)
		}
	}
	if kind, ok := fastjson.ScanTurnEndKind(b); ok {
		took++
		var te struct {
			Reason turnEndReason `json:"reason"`
		}
		if err := json.Unmarshal(b, &te); err != nil {
			t.Fatalf("ScanTurnEndKind(%q) ok, json.Unmarshal: %v", data, err)
		}
		if !reflect.DeepEqual(te.Reason, turnEndReason{Kind: kind}) {
			t.Fatalf("ScanTurnEndKind(%q) = %q, json.Unmarshal gives %+v", data, kind, te.Reason)
		}
	}
	if content, src, ok := fastjson.ScanUser(b); ok {
		took++
		var fast struct {
			Content []sessionlog.ContentBlock  `json:"content"`
			Source  map[string]json.RawMessage `json:"source"`
		}
		if err := json.Unmarshal(b, &fast); err != nil {
			t.Fatalf("scanUser(%q) ok, json.Unmarshal: %v", data, err)
		}
		if !reflect.DeepEqual(content, fast.Content) || !reflect.DeepEqual(src, fast.Source) {
			t.Fatalf("scanUser(%q) = %+v %q, json.Unmarshal gives %+v %q", data, content, src, fast.Content, fast.Source)
		}
	}
	if got, ok := fastjson.ScanToolCall(b); ok {
		took++
		var want sessionlog.ToolCallData
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("ScanToolCall(%q) ok, json.Unmarshal: %v", data, err)
		}
		if got != want {
			t.Fatalf("ScanToolCall(%q) = %+v, json.Unmarshal gives %+v", data, got, want)
		}
	}
	if got, ok := fastjson.ScanMessage(b); ok {
		took++
		var want sessionlog.Message
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("ScanMessage(%q) ok, json.Unmarshal: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ScanMessage(%q) = %+v, json.Unmarshal gives %+v", data, got, want)
		}
	}
	if got, ok := fastjson.ScanAssistantMessage(b); ok {
		took++
		var want sessionlog.AssistantMessageData
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("ScanAssistantMessage(%q) ok, json.Unmarshal: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ScanAssistantMessage(%q) = %+v, json.Unmarshal gives %+v", data, got, want)
		}
	}
	if got, ok := fastjson.ScanSummary(b); ok {
		took++
		want, ok := trSummarySlow(b)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("ScanSummary(%q) = %+v, json.Unmarshal gives %+v, %v", data, got, want, ok)
		}
	}
	if got, ok := fastjson.ScanSource(b); ok {
		took++
		var want struct {
			Source json.RawMessage `json:"source"`
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("ScanSource(%q) ok, json.Unmarshal: %v", data, err)
		}
		if !bytes.Equal(got, want.Source) || (got == nil) != (want.Source == nil) {
			t.Fatalf("ScanSource(%q) = %s, json.Unmarshal gives %s", data, got, want.Source)
		}
	}
	return took
}

// TestFastDecoders checks the scanners on the corpus, every message and
// tool result of the testdata and synthetic logs, and random edits of
// them (editPayload).
func TestFastDecoders(t *testing.T) {
	payloads := fastPayloads(t)
	took := 0
	for _, p := range payloads {
		took += min(checkFastDecoders(t, p), 1)
	}
	if took < len(payloads)*3/4 {
		t.Errorf("the scanners took %d of %d payloads", took, len(payloads))
	}
	r := rand.New(rand.NewPCG(13, 14))
	keys := []string{`"content"`, `"source"`, `"isError"`, `"text"`, `"turn"`, `"message"`, `"kind"`, `"callId"`, `"role"`, `"id"`, `"usage"`, `"summary"`, `"shadowedSeqs"`}
	for range 60_000 {
		checkFastDecoders(t, synthlog.EditPayload(r, payloads[r.IntN(len(payloads))], keys))
	}
}

// FuzzFastDecoders: where a scanner takes a payload, json.Unmarshal
// succeeds on it and agrees.
func FuzzFastDecoders(f *testing.F) {
	for _, p := range fastCorpus {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data string) { checkFastDecoders(t, data) })
}

// testdataDir holds the example logs, beside the log vocabulary they show.
const testdataDir = "../sessionlog/testdata"

// toolData0 is a well-formed tool/result payload (as in the surface tests).
const toolData0 = `{"turn":2,"step":1,"message":{"id":"m-t2","role":"user","content":[{"type":"tool-result","toolCallId":"call-2","content":[{"type":"text","text":"short"}],"isError":false}],"source":{"kind":"tool","callId":"call-2"}}}`

// The benchmarks below hold each payload reader of internal/ground/fastjson to the
// rule that keeps it: at least 1.5× faster than the plain path (the
// encoding/json decode it stands in for), in the same run.

func benchScanPayloads(b *testing.B, typ string) [][]byte {
	var out [][]byte
	for _, e := range synthlog.Log(20000) {
		if e.Type == typ {
			out = append(out, e.Data)
		}
	}
	if len(out) == 0 {
		b.Fatalf("no %s payloads", typ)
	}
	return out
}

func benchFastSlow(b *testing.B, typ string, fast, slow func([]byte)) {
	payloads := benchScanPayloads(b, typ)
	for _, path := range []struct {
		name string
		f    func([]byte)
	}{{"fast", fast}, {"json", slow}} {
		b.Run(path.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				path.f(payloads[i%len(payloads)])
				i++
			}
		})
	}
}

func BenchmarkScanToolResult(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeToolResult,
		func(p []byte) {
			if _, ok := fastjson.ScanToolResult(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) { _ = trResultSlow(p) })
}

func BenchmarkScanAssistant(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeAssistantMessage,
		func(p []byte) {
			if _, _, _, ok := fastjson.ScanAssistant(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) { _, _ = trAssistantSlow(p) })
}

func BenchmarkScanTurnStep(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeStepStart,
		func(p []byte) {
			if _, _, ok := fastjson.ScanTurnStep(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) {
			var ts sessionlog.TurnStep
			_ = json.Unmarshal(p, &ts)
		})
}

func BenchmarkScanTurnEnd(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeTurnEnd,
		func(p []byte) {
			if _, ok := fastjson.ScanTurnEndKind(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) {
			var t struct {
				Reason turnEndReason `json:"reason"`
			}
			_ = json.Unmarshal(p, &t)
		})
}

func BenchmarkScanUser(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeUserMessage,
		func(p []byte) {
			if _, _, ok := fastjson.ScanUser(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) { _, _ = trUserSlow(p) })
}

func BenchmarkScanToolCall(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeToolCall,
		func(p []byte) {
			if _, ok := fastjson.ScanToolCall(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) {
			var c sessionlog.ToolCallData
			_ = json.Unmarshal(p, &c)
		})
}

func BenchmarkScanMessage(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeUserMessage,
		func(p []byte) {
			if _, ok := fastjson.ScanMessage(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) {
			var m sessionlog.Message
			_ = json.Unmarshal(p, &m)
		})
}

func BenchmarkScanAssistantMessage(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeAssistantMessage,
		func(p []byte) {
			if _, ok := fastjson.ScanAssistantMessage(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) {
			var d sessionlog.AssistantMessageData
			_ = json.Unmarshal(p, &d)
		})
}

func BenchmarkScanSource(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeUserMessage,
		func(p []byte) {
			if _, ok := fastjson.ScanSource(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) {
			var m struct {
				Source json.RawMessage `json:"source"`
			}
			_ = json.Unmarshal(p, &m)
		})
}

func BenchmarkScanSummary(b *testing.B) {
	benchFastSlow(b, sessionlog.TypeCompactionSummary,
		func(p []byte) {
			if _, ok := fastjson.ScanSummary(p); !ok {
				b.Fatal("declined")
			}
		},
		func(p []byte) { _, _ = trSummarySlow(p) })
}
