package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
)

func encodeEvents(t testing.TB, events []sessionlog.Event) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteLog(&b, events); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lineDiff reports the first differing line of two texts.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\nwant " + w + "\n got " + g
		}
	}
	return ""
}

func TestRoundTripTestdata(t *testing.T) {
	for _, name := range []string{
		"example-session.jsonl",
		"upstream-compaction-scenario.jsonl",
		"packed-container.jsonl",
		"packed-container.expanded.jsonl",
	} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile("../testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			log := readTestLog(t, name)
			once := encodeEvents(t, log.Events)
			again := encodeEvents(t, readTestLogBytes(t, once).Events)
			if d := lineDiff(string(once), string(again)); d != "" {
				t.Errorf("encode(decode(encode(x))) != encode(x): %s", d)
			}
			var full bytes.Buffer
			if _, err := log.WriteTo(&full); err != nil {
				t.Fatal(err)
			}
			switch name {
			case "example-session.jsonl", "packed-container.expanded.jsonl":
				// These files are written in the Encoder's own form.
				if d := lineDiff(string(raw), full.String()); d != "" {
					t.Errorf("re-encoding changed the file: %s", d)
				}
			case "upstream-compaction-scenario.jsonl":
				// Upstream writes sourceEventSeqs before surfaceOp; only the
				// key order of that line may change.
				if !bytes.Contains(raw, []byte(`"sourceEventSeqs":[2,3,5],"surfaceOp":{"op":"replace","start":2,"end":5}}`)) ||
					!bytes.Contains(full.Bytes(), []byte(`"surfaceOp":{"op":"replace","start":2,"end":5},"sourceEventSeqs":[2,3,5]}`)) {
					t.Errorf("unexpected re-encoding:\n%s", full.String())
				}
			}
		})
	}
}

func readTestLogBytes(t testing.TB, data []byte) *Log {
	t.Helper()
	log, err := ParseLog(data, "mem")
	if err != nil {
		t.Fatal(err)
	}
	return log
}

func TestPackedContainer(t *testing.T) {
	log := readTestLog(t, "packed-container.jsonl")
	wantHeader := `{"type":"session","version":0,"id":"session-0d5c3d33-9b1a-4a95-b7a6-09a9f2ea8720","createdAt":1784630399995,"cwd":"/workspace/project","delegationDepth":0}`
	if string(log.Header) != wantHeader {
		t.Errorf("Header = %s", log.Header)
	}
	expanded, err := os.ReadFile("../testdata/packed-container.expanded.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if d := lineDiff(string(expanded), string(encodeEvents(t, log.Events))); d != "" {
		t.Errorf("expanded packed rows differ from packed-container.expanded.jsonl: %s", d)
	}
	if n := len(log.Events); n != 27 {
		t.Errorf("%d events, want 27", n)
	}
	// WriteTo keeps the header line.
	var b bytes.Buffer
	if _, err := log.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if want := wantHeader + "\n" + string(expanded); b.String() != want {
		t.Errorf("WriteTo: %s", lineDiff(want, b.String()))
	}
	// The expanded log is a valid session; the unknown type survives
	// because it is ignorable.
	s, err := surface.Load(log.Events, frozenClock)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Surface().Nodes(); !cmp.Equal(got, []int64{2, 25}) {
		t.Errorf("nodes = %v", got)
	}
	if e := log.Events[8]; e.Type != "x-vendor/telemetry" || !e.Ignorable || string(e.Data) != `{"spans":[1,2.5,{"k":null}]}` {
		t.Errorf("unknown event = %+v", e)
	}
}

func frozenClock() int64 { return 1784630700000 }

// readTestLog decodes a file of testdata/ and fails the test on any error.
func readTestLog(t testing.TB, name string) *Log {
	t.Helper()
	path := filepath.Join("../testdata", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := ParseLog(data, path)
	if err != nil {
		t.Fatalf("ParseLog(%s): %v", name, err)
	}
	return log
}

func TestDecodeErrors(t *testing.T) {
	const (
		l0 = `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n"
		l1 = `{"type":"step/start","seq":1,"time":2,"data":{"turn":1,"step":1}}` + "\n"
	)
	tests := []struct {
		name      string
		in        string
		want      string // the full Error()
		wantPfx   bool   // want is a prefix
		truncated bool
		seq       int64
		kept      int // events decoded before the error
	}{
		{"malformed JSON at line 3", l0 + l1 + "{\"type\":\"x\",}\n", "f.jsonl:3: malformed JSON: invalid character '}' looking for beginning of object key string (byte 13)", false, false, -1, 2},
		{"truncated last line", l0 + l1 + `{"type":"step/end","seq":2,"ti`, "f.jsonl:3: truncated last line: unexpected end of JSON input", true, true, -1, 2},
		{"truncated first line", `{"type"`, "f.jsonl:1: truncated last line: ", true, true, -1, 0},
		{"binary garbage", "\x00\xff\xfe\x28\xb5\x2f\xfd\n" + l0, "f.jsonl:1: malformed JSON: invalid character", true, false, -1, 0},
		{"not an object", l0 + "[1,2]\n", "f.jsonl:2: invalid event envelope", false, false, -1, 1},
		{"unknown key", l0 + `{"type":"step/start","seq":1,"time":2,"data":{},"extra":1}` + "\n", "f.jsonl:2: invalid event envelope (seq 1)", false, false, 1, 1},
		{"missing seq", l0 + `{"type":"step/start","time":2,"data":{}}` + "\n", "f.jsonl:2: invalid event envelope", false, false, -1, 1},
		{"negative seq", `{"type":"turn/start","seq":-1,"time":2,"data":{}}` + "\n", "f.jsonl:1: invalid event envelope", false, false, -1, 0},
		{"fractional seq", `{"type":"turn/start","seq":0.5,"time":2,"data":{}}` + "\n", "f.jsonl:1: invalid event envelope", false, false, -1, 0},
		{"string time", `{"type":"turn/start","seq":0,"time":"2","data":{}}` + "\n", "f.jsonl:1: invalid event envelope (seq 0)", false, false, 0, 0},
		{"fractional time", `{"type":"turn/start","seq":0,"time":2.5,"data":{}}` + "\n", "f.jsonl:1: invalid event envelope (seq 0)", false, false, 0, 0},
		{"missing time", `{"type":"turn/start","seq":0,"data":{}}` + "\n", "f.jsonl:1: invalid event envelope (seq 0)", false, false, 0, 0},
		{"missing data", `{"type":"turn/start","seq":0,"time":1}` + "\n", "f.jsonl:1: invalid event envelope (seq 0)", false, false, 0, 0},
		{"ignorable false", `{"type":"turn/start","seq":0,"time":1,"data":{},"ignorable":false}` + "\n", "f.jsonl:1: invalid event envelope (seq 0)", false, false, 0, 0},
		{"non-string type", `{"type":7,"seq":0,"time":1,"data":{}}` + "\n", "f.jsonl:1: invalid event envelope", false, false, -1, 0},
		{"missing type", `{"seq":0,"time":1,"data":{}}` + "\n", "f.jsonl:1: invalid event envelope (seq 0)", false, false, 0, 0},
		{"duplicate key", `{"type":"turn/start","seq":0,"seq":0,"time":1,"data":{}}` + "\n", "f.jsonl:1: invalid event envelope", false, false, -1, 0},
		{"legacy header delta", l0 + `{"type":"request/header-delta","seq":1,"time":2,"data":{}}` + "\n", "f.jsonl:2: unsupported legacy request/header-delta format (seq 1)", false, false, 1, 1},
		{"seq gap", l0 + `{"type":"step/start","seq":5,"time":2,"data":{}}` + "\n", "f.jsonl:2: seq 5 is not contiguous; expected 1 (seq 5)", false, false, 5, 1},
		{"not starting at 0", l1, "f.jsonl:1: seq 1 is not contiguous; expected 0 (seq 1)", false, false, 1, 0},
		{"header not first", l0 + `{"type":"session","version":0,"id":"s"}` + "\n", "f.jsonl:2: invalid event envelope", false, false, -1, 1},
		{"header without version", `{"type":"session","id":"s"}` + "\n" + l0, "f.jsonl:1: invalid session header", false, false, -1, 0},
		{"packed dt mismatch", l0 + `{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b","c"]}}` + "\n", "f.jsonl:2: invalid packed chunk row", false, false, -1, 1},
		{"packed extra key", l0 + `{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a"]},"x":1}` + "\n", "f.jsonl:2: invalid packed chunk row", false, false, -1, 1},
		{"packed extra data key", l0 + `{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a"],"args":[]}}` + "\n", "f.jsonl:2: invalid packed chunk row", false, false, -1, 1},
		{"packed member not a string", l0 + `{"type":"reasoning-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a",2]}}` + "\n", "f.jsonl:2: invalid packed chunk row", false, false, -1, 1},
		{"packed no members", l0 + `{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":[]}}` + "\n", "f.jsonl:2: invalid packed chunk row", false, false, -1, 1},
		{"packed tool without id", l0 + `{"type":"tool-call-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[],"args":["{"]}}` + "\n", "f.jsonl:2: invalid packed chunk row", false, false, -1, 1},
		{"packed fractional dt", l0 + `{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1.5],"texts":["a","b"]}}` + "\n", "f.jsonl:2: invalid packed chunk row (seq 2)", false, false, 2, 1},
		{"packed time overflow", l0 + `{"type":"text-chunks","seq0":1,"time0":9223372036854775807,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b"]}}` + "\n", "f.jsonl:2: packed chunk row time overflows (seq 2)", false, false, 2, 1},
		{"packed seq gap", l0 + `{"type":"text-chunks","seq0":2,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a"]}}` + "\n", "f.jsonl:2: seq 2 is not contiguous; expected 1 (seq 2)", false, false, 2, 1},
		{"after packed row", l0 + `{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b"]}}` + "\n" + l1, "f.jsonl:3: seq 1 is not contiguous; expected 3 (seq 1)", false, false, 1, 3},
		{"blank lines count", l0 + "\n  \n" + "{oops}\n", "f.jsonl:4: malformed JSON: ", true, false, -1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, err := ParseLog([]byte(tt.in), "f.jsonl")
			if log == nil {
				t.Fatal("ParseLog returned a nil Log")
			}
			var de *sessionlog.Error
			if !errors.As(err, &de) {
				t.Fatalf("error = %v (%T), want *sessionlog.Error", err, err)
			}
			if got := err.Error(); tt.wantPfx && !strings.HasPrefix(got, tt.want) || !tt.wantPfx && got != tt.want {
				t.Errorf("error:\n got %q\nwant %q", got, tt.want)
			}
			if errors.Is(err, sessionlog.ErrTruncated) != tt.truncated || de.Seq != tt.seq || de.Path != "f.jsonl" {
				t.Errorf("Truncated, Seq, Path = %v, %d, %q; want %v, %d", errors.Is(err, sessionlog.ErrTruncated), de.Seq, de.Path, tt.truncated, tt.seq)
			}
			if len(log.Events) != tt.kept {
				t.Errorf("kept %d events, want %d", len(log.Events), tt.kept)
			}
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // encoding of the decoded events
	}{
		{"empty file", "", ""},
		{"only blank lines", "\n \n\t\r\n", ""},
		{"no final newline", `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`,
			`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n"},
		{"CRLF and white space", "{ \"data\" : { \"turn\" : 1 } , \"time\":-5, \"seq\":0,\"type\":\"turn/start\" }\r\n",
			`{"type":"turn/start","seq":0,"time":-5,"data":{"turn":1}}` + "\n"},
		{"escaped keys and type", `{"\u0074ype":"turn\/start","seq":0,"time":1,"data":"\u003c\u2028"}` + "\n",
			`{"type":"turn/start","seq":0,"time":1,"data":"\u003c\u2028"}` + "\n"},
		{"key order and null data", `{"sourceEventSeqs":[ 1 ],"surfaceOp":"append","ignorable":true,"data":null,"time":0,"seq":0,"type":"user/message"}` + "\n",
			`{"type":"user/message","seq":0,"time":0,"data":null,"surfaceOp":"append","sourceEventSeqs":[1],"ignorable":true}` + "\n"},
		{"no HTML escaping", `{"type":"x<&>","seq":0,"time":1,"data":{"t":"<&> ` + "\u2028\u2029" + `"}}` + "\n",
			`{"type":"x<&>","seq":0,"time":1,"data":{"t":"<&> ` + "\u2028\u2029" + `"}}` + "\n"},
		{"event typed session on line 1", `{"type":"session","seq":0,"time":1,"data":{"version":0}}` + "\n",
			`{"type":"session","seq":0,"time":1,"data":{"version":0}}` + "\n"},
		{"event typed like a packed row", `{"type":"text-chunks","seq":0,"time":1,"data":{}}` + "\n",
			`{"type":"text-chunks","seq":0,"time":1,"data":{}}` + "\n"},
		{"header only", `{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}` + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, err := ParseLog([]byte(tt.in), "f.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if got := string(encodeEvents(t, log.Events)); got != tt.want {
				t.Errorf("encoded:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDecoderSticky(t *testing.T) {
	d := NewDecoder(strings.NewReader(`{"type":"turn/start","seq":0,"time":1,"data":{}}`+"\n{bad\n"), "x")
	if _, err := d.Next(); err != nil {
		t.Fatal(err)
	}
	_, err1 := d.Next()
	_, err2 := d.Next()
	if err1 == nil || err1 != err2 || d.Line() != 2 || d.Name() != "x" {
		t.Errorf("errors %v, %v at line %d", err1, err2, d.Line())
	}
	d = NewDecoder(strings.NewReader(""), "x")
	for range 2 {
		if _, err := d.Next(); err != io.EOF {
			t.Errorf("Next on empty = %v, want io.EOF", err)
		}
	}
}

func TestDecodeErrorFormat(t *testing.T) {
	e := sessionlog.Refuse(sessionlog.LayerDecode, sessionlog.Pos{Path: "a/b.jsonl", Line: 7, Seq: -1}, "invalid event envelope", nil)
	if got := e.Error(); got != "a/b.jsonl:7: invalid event envelope" {
		t.Errorf("Error() = %q", got)
	}
	e.Seq = 0
	if got := e.Error(); got != "a/b.jsonl:7: invalid event envelope (seq 0)" {
		t.Errorf("Error() = %q", got)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestDecodeReadError(t *testing.T) {
	_, err := ReadLog(errReader{}, "f")
	var de *sessionlog.Error
	if !errors.As(err, &de) || de.Error() != "f:1: read error: disk on fire" {
		t.Errorf("err = %v", err)
	}
}

func TestMegabyteLine(t *testing.T) {
	text := strings.Repeat("0123456789abcdé\\n", 1<<16) // > 1 MB of JSON text
	line := `{"type":"user/message","seq":0,"time":1,"data":{"id":"u","role":"user","content":[{"type":"text","text":"` + text + `"}],"source":{"kind":"user"}},"surfaceOp":"append"}` + "\n"
	if len(line) < 1<<20 {
		t.Fatalf("line is only %d bytes", len(line))
	}
	log, err := ParseLog([]byte(line+line[:0]), "big.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(encodeEvents(t, log.Events)); got != line {
		t.Error("1 MB line did not round-trip")
	}
	if _, err := surface.Load(log.Events, frozenClock); err != nil {
		t.Error(err)
	}
}

// repeatReader yields n bytes of c.
type repeatReader struct {
	c byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range k {
		p[i] = r.c
	}
	r.n -= k
	return k, nil
}

func TestLineTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 64 MiB")
	}
	r := io.MultiReader(strings.NewReader(`{"type":"turn/start","seq":0,"time":1,"data":{}}`+"\n"),
		&repeatReader{c: ' ', n: MaxLineBytes + 1}, strings.NewReader("\n"))
	log, err := ReadLog(r, "f")
	var de *sessionlog.Error
	if !errors.As(err, &de) || !errors.Is(err, sessionlog.ErrTooLong) || de.Error() != "f:2: line exceeds 67108864 bytes" || len(log.Events) != 1 {
		t.Errorf("err = %v, kept %d", err, len(log.Events))
	}
}

func TestEncodeErrors(t *testing.T) {
	for _, e := range []sessionlog.Event{
		{Type: "t", Seq: 1},
		{Type: "t", Seq: 1, Data: json.RawMessage(`{`)},
		{Type: "t", Seq: 1, Data: json.RawMessage(`{}`), SurfaceOp: json.RawMessage(`"x`)},
	} {
		if err := WriteLog(io.Discard, []sessionlog.Event{e}); err == nil {
			t.Errorf("WriteLog(%+v) succeeded", e)
		}
	}
	// Invalid UTF-8 in a type becomes U+FFFD, which decodes to itself.
	b := encodeEvents(t, []sessionlog.Event{{Type: "a\xffb\x01", Data: json.RawMessage(`{}`)}})
	if want := "{\"type\":\"a\uFFFDb\\u0001\",\"seq\":0,\"time\":0,\"data\":{}}\n"; string(b) != want {
		t.Errorf("got %q, want %q", b, want)
	}
}

// TestPackedRowRefusedWhole: a packed row refused at one of its members
// (a gap that is not an integer) yields none of its events, read as a
// stream or line by line: the events before the row are all there are.
func TestPackedRowRefusedWhole(t *testing.T) {
	lines := []string{
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`,
		`{"type":"text-chunks","seq0":1,"time0":2,"data":{"turn":1,"step":1,"index":0,"dt":[1,1.5,1],"texts":["a","b","c","d"]}}`,
	}
	d := NewDecoder(strings.NewReader(strings.Join(lines, "\n")+"\n"), "x.jsonl")
	var seqs []int64
	var err error
	for {
		var ev sessionlog.Event
		if ev, err = d.Next(); err != nil {
			break
		}
		seqs = append(seqs, ev.Seq)
	}
	if !slices.Equal(seqs, []int64{0}) || err == io.EOF {
		t.Errorf("stream: seqs %v, then %v; want seq 0, then the row's refusal", seqs, err)
	}
	ld := NewLineDecoder("x.jsonl")
	if evs, err := ld.Decode([]byte(lines[0]), 1); err != nil || len(evs) != 1 {
		t.Fatalf("line 1: %v %v", evs, err)
	}
	if evs, err := ld.Decode([]byte(lines[1]), 2); err == nil || len(evs) != 0 {
		t.Errorf("line 2: %d events, %v; want none and the refusal", len(evs), err)
	}
}

// TestPackedRowInBatches reads rows longer than a batch: the events are
// those of the row, in order, with their times, whether read from the
// stream or line by line, and the line decoder never holds more than a
// batch of them (a row of millions of members had been built whole).
func TestPackedRowInBatches(t *testing.T) {
	for _, n := range []int{1, packedBatch - 1, packedBatch, packedBatch + 1, 3*packedBatch + 7} {
		var texts, dts []string
		var want []sessionlog.Event
		tm := int64(100)
		for k := range n {
			if k > 0 {
				gap := int64(k%5 - 2) // falling and rising times
				dts = append(dts, fmt.Sprint(gap))
				tm += gap
			}
			texts = append(texts, fmt.Sprintf("%q", fmt.Sprint("t", k)))
			want = append(want, sessionlog.Event{Type: sessionlog.TypeAssistantChunk, Seq: int64(1 + k), Time: tm,
				Data: json.RawMessage(fmt.Sprintf(`{"turn":1,"step":1,"chunk":{"type":"tool-call-delta","index":2,"id":"c","name":"n","argumentsDelta":"t%d"}}`, k))})
		}
		lines := []string{
			`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`,
			fmt.Sprintf(`{"type":"tool-call-chunks","seq0":1,"time0":100,"data":{"turn":1,"step":1,"index":2,"id":"c","name":"n","dt":[%s],"args":[%s]}}`,
				strings.Join(dts, ","), strings.Join(texts, ",")),
			fmt.Sprintf(`{"type":"turn/end","seq":%d,"time":1,"data":{"turn":1}}`, n+1),
		}
		d := NewDecoder(strings.NewReader(strings.Join(lines, "\n")+"\n"), "x.jsonl")
		var streamed []sessionlog.Event
		for {
			ev, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%d members: stream: %v", n, err)
			}
			streamed = append(streamed, ev)
		}
		if len(streamed) != n+2 || !eventsEqual(streamed[1:n+1], want) || streamed[n+1].Seq != int64(n+1) {
			t.Errorf("%d members: stream read %d events, or not the row's", n, len(streamed))
		}
		ld := NewLineDecoder("x.jsonl")
		var lined []sessionlog.Event
		for i, l := range lines {
			evs, err := ld.Decode([]byte(l), i+1)
			for ; len(evs) > 0; evs = ld.More() {
				if len(evs) > packedBatch {
					t.Fatalf("%d members: a batch of %d events", n, len(evs))
				}
				lined = append(lined, slices.Clone(evs)...)
			}
			if err != nil {
				t.Fatalf("%d members: line %d: %v", n, i+1, err)
			}
		}
		if len(lined) != n+2 || !eventsEqual(lined[1:n+1], want) {
			t.Errorf("%d members: lines read %d events, or not the row's", n, len(lined))
		}
	}
}

func eventsEqual(a, b []sessionlog.Event) bool {
	return slices.EqualFunc(a, b, func(x, y sessionlog.Event) bool {
		return x.Type == y.Type && x.Seq == y.Seq && x.Time == y.Time && string(x.Data) == string(y.Data)
	})
}
