package fastjson

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
)

// chunkCorpus is assistant/chunk payloads of every shape, well formed and
// not: what the fast path takes and what it must leave to json.Unmarshal.
var chunkCorpus = []string{
	`{"turn":1,"step":2,"chunk":{"type":"text-delta","index":0,"text":"Hello, world."}}`,
	`{"turn":1,"step":2,"chunk":{"type":"reasoning-delta","index":3,"text":"line\nnext \"quoted\" \\ \/ \t\u00e9\ud83d\ude00\udc80"}}`,
	`{"turn":1,"step":2,"chunk":{"type":"text-delta","index":0,"text":"héllo 漢字 👍"}}`,
	"{\"turn\":1,\"step\":2,\"chunk\":{\"type\":\"text-delta\",\"index\":0,\"text\":\"bad \xff utf8 \xc3\"}}",
	`{"turn":1,"step":2,"chunk":{"type":"block-start","index":1,"blockType":"tool-call"}}`,
	`{"turn":1,"step":2,"chunk":{"type":"tool-call-delta","index":1,"id":"call-1","name":"bash","argumentsDelta":"{\"command\":"}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"type":"text","text":"done"}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":{"kind":"stop"}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"usage","usage":{"inputTokens":1,"outputTokens":2}}}`,
	`{"chunk":{"text":"x","index":2,"type":"text-delta"},"step":5,"turn":4}`,
	`{"turn":1,"step":2,"chunk":{}}`,
	`{}`,
	`{"turn":1}`,
	`{"turn":1,"turn":2,"chunk":{"type":"text-delta"}}`,
	`{"turn":1,"chunk":{"type":"a","type":"b"}}`,
	`{"turn":1,"chunk":{"type":"a"},"chunk":{"index":4}}`,
	`{"Turn":1,"STEP":2,"chunk":{"Type":"text-delta","Text":"x"}}`,
	`{"turn": 1, "step":2,"chunk":{"type":"text-delta"}}`,
	` {"turn":1}`,
	`{"turn":1} `,
	`{"turn":1.0,"step":2}`,
	`{"turn":1e2,"step":2}`,
	`{"turn":-0,"step":-7}`,
	`{"turn":01}`,
	`{"turn":9223372036854775807,"step":-9223372036854775808}`,
	`{"turn":9223372036854775808}`,
	`{"turn":-9223372036854775809}`,
	`{"turn":99999999999999999999999}`,
	`{"turn":null,"chunk":null}`,
	`{"turn":"1"}`,
	`{"chunk":{"text":null,"index":null}}`,
	`{"chunk":{"index":"1"}}`,
	`{"chunk":{"text":1}}`,
	`{"chunk":{"text":"unterminated}}`,
	`{"chunk":{"text":"bad escape \x"}}`,
	`{"chunk":{"text":"ctl ` + "\x01" + `"}}`,
	`{"turn":1,}`,
	`{"turn":1`,
	`{"turn":1}}`,
	`[1,2]`,
	`null`,
	``,
	`{"unknown":1}`,
	`{"turn":1,"step":2,"chunk":{"type":"text-delta","index":0,"text":"a"},"extra":true}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":2,"block":{"type":"tool-call","id":"c1","name":"bash","arguments":"{\"a\":1}"}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"type":"tool-result","toolCallId":"c1","content":[{"type":"text","text":"ok"},{"type":"image","data":"x"}],"isError":true}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"type":"text","content":[],"extra":[1,-2.5e+3,true,false,null,{"a":[{}]},"\u00e9\n"]}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":null}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"type":1}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"TEXT":"x","type":"text"}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"isError":null}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"content":null}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"block-end","index":0,"block":{"content":[1]}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":{"kind":"stop","n":01}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":{"kind":"stop","n":1.}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":{"kind":"stop","n":1e}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":{"kind":"st\q"}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":{"kind":"\u12G4"}}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":tru}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":[1,]}}`,
	`{"turn":1,"step":2,"chunk":{"type":"usage","Usage":{"inputTokens":1}},"Extra":1}`,
	`{"turn":1,"step":2,"chunk":{"type":"text-delta","text":"a","TEXT":"b"}}`,
	`{"turn":1,"step":2,"chunk":{"type":"finish","reason":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}}`,
}

// chunkPayloads adds the chunk payloads of the testdata logs. The logs are
// read line by line with encoding/json rather than with the JSONL codec,
// which is built on this package; packed chunk rows are skipped, as their
// expanded twin (packed-container.expanded.jsonl) is among the logs.
func chunkPayloads(t *testing.T) []string {
	out := append([]string(nil), chunkCorpus...)
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "sessionlog", "testdata", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no testdata logs")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range bytes.Lines(data) {
			var e struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			}
			if json.Unmarshal(line, &e) == nil && e.Type == sessionlog.TypeAssistantChunk {
				out = append(out, string(e.Data))
			}
		}
	}
	for _, e := range synthlog.Log(2000) {
		if e.Type == sessionlog.TypeAssistantChunk {
			out = append(out, string(e.Data))
		}
	}
	return out
}

func checkChunkDecode(t *testing.T, data string) {
	t.Helper()
	got, gotErr := DecodeChunkData([]byte(data))
	var want sessionlog.ChunkData
	wantErr := json.Unmarshal([]byte(data), &want)
	if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("decodeChunkData(%q) = %+v, %v; json.Unmarshal gives %+v, %v", data, got, gotErr, want, wantErr)
	}
	if got, want := DecodeChunkHead([]byte(data)), chunkHead(want); got != want {
		t.Fatalf("decodeChunkHead(%q) = %+v; json.Unmarshal gives %+v", data, got, want)
	}
}

// TestDecodeChunkData checks DecodeChunkData against json.Unmarshal on the
// corpus, every chunk of the testdata and synthetic logs, and random edits
// of them (bytes replaced, dropped, inserted, keys recased).
func TestDecodeChunkData(t *testing.T) {
	payloads := chunkPayloads(t)
	fast := 0
	for _, p := range payloads {
		checkChunkDecode(t, p)
		if _, ok := scanChunkData([]byte(p), false); ok {
			fast++
		}
	}
	if fast < len(payloads)/2 {
		t.Errorf("the fast path took %d of %d payloads", fast, len(payloads))
	}
	r := rand.New(rand.NewPCG(11, 12))
	keys := []string{`"text"`, `"turn"`, `"type"`, `"block"`, `"index"`}
	for range 200_000 {
		checkChunkDecode(t, synthlog.EditPayload(r, payloads[r.IntN(len(payloads))], keys))
	}
}

// FuzzDecodeChunkData: DecodeChunkData is json.Unmarshal.
func FuzzDecodeChunkData(f *testing.F) {
	for _, p := range chunkCorpus {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data string) { checkChunkDecode(t, data) })
}

// TestUnquote checks str (skipString and unquote) against json.Unmarshal
// on random JSON strings of escapes, surrogates (paired, lone, reversed),
// controls, and valid and invalid UTF-8.
func TestUnquote(t *testing.T) {
	pieces := []string{"a", " ", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00e9`, `\uD83D`, `\ude00`,
		`\uDBFF\uDFFF`, `\ud800\u0041`, `\u`, `\u12`, `\x`, `\'`, "é", "漢", "👍", "\xff", "\xc3", "\xed\xa0\x80", "\x01", "\x7f", `"`}
	r := rand.New(rand.NewPCG(15, 16))
	for range 100_000 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(40) { // long enough for the eight-byte skips
			if r.IntN(3) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString("abcdefg"[:1+r.IntN(7)])
			}
		}
		b.WriteByte('"')
		tok := []byte(b.String())
		var want string
		wantErr := json.Unmarshal(tok, &want)
		s := &chunkScanner{b: tok}
		var got string
		ok := s.str(&got) && s.i == len(tok)
		if ok != (wantErr == nil) || (ok && got != want) {
			t.Fatalf("str(%q) = %q, %v; json.Unmarshal gives %q, %v", tok, got, ok, want, wantErr)
		}
	}
}

// TestScanStringLanes puts every byte at every lane of the eight-byte
// skip, among filler bytes of both kinds the skip passes (printable ASCII
// and bytes with the high bit set): scanString stops where the string
// ends, takes it exactly when json.Valid does, and calls it plain exactly
// when it holds no escape and no byte outside ASCII.
func TestScanStringLanes(t *testing.T) {
	fillers := []byte{'a', 0xc3, 0x7e, 0x80, 0xff, 0x20}
	for _, fill := range fillers {
		for _, other := range fillers {
			for v := range 256 {
				for lane := range 16 {
					body := make([]byte, 24)
					for i := range body {
						body[i] = fill
						if i%3 == 1 {
							body[i] = other
						}
					}
					body[lane] = byte(v)
					tok := append(append([]byte{'"'}, body...), '"')
					s := &chunkScanner{b: tok}
					ok, plain := s.scanString()
					ok = ok && s.i == len(tok)
					if want := json.Valid(tok); ok != want {
						t.Fatalf("scanString(%q) ok %v, json.Valid %v", tok, ok, want)
					}
					if !ok {
						continue
					}
					wantPlain := true
					for _, c := range body {
						if c == '\\' || c >= 0x80 {
							wantPlain = false
						}
					}
					if plain != wantPlain {
						t.Fatalf("scanString(%q) plain %v, want %v", tok, plain, wantPlain)
					}
				}
			}
		}
	}
}
