package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/hostile"
)

// fuzzLog is a small valid log whose strings the fuzzer's text is put
// into: a prompt, reasoning, a tool call and its result, an answer, an
// ignorable event and a header.
func fuzzLog(s string) []byte {
	q := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	lines := []string{
		`{"type":"session","version":0,"id":` + q("s-"+s) + `}`,
		`{"type":"turn/start","seq":0,"time":1784630400000,"data":{"turn":1}}`,
		`{"type":"step/start","seq":1,"time":1784630400001,"data":{"turn":1,"step":1}}`,
		`{"type":"user/message","seq":2,"time":1784630400002,"data":{"id":"m-u1","role":"user","content":[{"type":"text","text":` + q(s) + `}],"source":{"kind":"user"}},"surfaceOp":"append"}`,
		`{"type":"assistant/message","seq":3,"time":1784630400131,"data":{"turn":1,"step":1,"message":{"id":"m-a1","role":"assistant","content":[{"type":"reasoning","text":` + q(s) + `},{"type":"tool-call","id":` + q("c"+s) + `,"name":` + q("bash"+s) + `,"arguments":` + q(`{"command":`+q(s)+`}`) + `}],"source":{"kind":"model","provider":` + q("p"+s) + `,"model":` + q("m"+s) + `}}},"surfaceOp":"append"}`,
		`{"type":"tool/call","seq":4,"time":1784630400132,"data":{"turn":1,"step":1,"callId":` + q("c"+s) + `,"name":` + q("bash"+s) + `,"arguments":` + q(`{"command":`+q(s)+`}`) + `}}`,
		`{"type":"tool/result","seq":5,"time":1784630400300,"data":{"turn":1,"step":1,"message":{"id":"m-t1","role":"user","content":[{"type":"tool-result","toolCallId":` + q("c"+s) + `,"content":[{"type":"text","text":` + q(s) + `}],"isError":false}],"source":{"kind":"tool","callId":` + q("c"+s) + `}}},"surfaceOp":"append","sourceEventSeqs":[4]}`,
		`{"type":"step/end","seq":6,"time":1784630400301,"data":{"turn":1,"step":1}}`,
		`{"type":"assistant/message","seq":7,"time":1784630400500,"data":{"turn":1,"step":2,"message":{"id":"m-a2","role":"assistant","content":[{"type":"text","text":` + q(s) + `}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}`,
		`{"type":` + q("x/"+s) + `,"seq":8,"time":1784630400501,"ignorable":true,"data":{"note":` + q(s) + `}}`,
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// outputRuns are the commands whose every output the fuzzer checks; "LOG"
// is the log, "OUT" a fresh path for a written file. sgr marks the one
// output that carries the renderer's own styling.
var outputRuns = []struct {
	args []string
	sgr  bool
}{
	{args: []string{"check", "LOG"}},
	{args: []string{"check", "--json", "LOG"}},
	{args: []string{"events", "LOG"}},
	{args: []string{"events", "LOG", "--header"}},
	{args: []string{"history", "LOG", "--max", "2"}},
	{args: []string{"history", "LOG", "--max", "50", "--json"}},
	{args: []string{"render", "LOG", "--width", "17", "--tools", "expanded"}},
	{args: []string{"render", "LOG", "--width", "30", "--format", "ansi", "--tools", "expanded"}, sgr: true},
	{args: []string{"render", "LOG", "--width", "23", "--format", "fixture"}},
	{args: []string{"render", "LOG", "--projection", "surface"}},
	{args: []string{"repro", "LOG", "--size", "30x8"}},
	{args: []string{"repro", "LOG", "--size", "30x8", "--json", "--emit", "OUT.txtar"}},
}

// FuzzOutputs feeds the fuzzer's bytes through every output path, as
// text inside every string of a valid log and as the log file itself, and
// checks the byte rule on standard output, standard error and the written
// scenario: no C0 but LF, no DEL, no C1, no BiDi or tag character, valid
// UTF-8.
func FuzzOutputs(f *testing.F) {
	f.Add([]byte(hostile.Payload))
	f.Add([]byte("plain text"))
	f.Add([]byte("\xff\xfe\x9b\xc2\x9b\xe2\x80\xae"))
	f.Add([]byte("x \U0001F3FB\U0001F3FB\n\tline\r\n\u2028"))
	f.Add([]byte(`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n{\x1b]0;x\x07"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := fuzzDir(t)
		for i, log := range [][]byte{fuzzLog(string(b)), b} {
			path := filepath.Join(dir, "log"+string(rune('a'+i))+".jsonl")
			if err := os.WriteFile(path, log, 0o644); err != nil {
				t.Fatal(err)
			}
			for j, run := range outputRuns {
				out := filepath.Join(dir, "s"+string(rune('a'+i))+string(rune('a'+j)))
				args := make([]string, len(run.args))
				for k, a := range run.args {
					a = strings.ReplaceAll(a, "LOG", path)
					args[k] = strings.ReplaceAll(a, "OUT", out)
				}
				var stdout, stderr bytes.Buffer
				Run(args, strings.NewReader(""), &stdout, &stderr, []string{"CI=", "TERM=dumb", "GOMEMLIMIT=off"}) // no memory budget: the fuzzer's heap is not the log's
				so := stdout.String()
				if run.sgr {
					so = hostile.StripSGR(so)
				}
				for name, text := range map[string]string{"stdout": so, "stderr": stderr.String()} {
					if err := hostile.Check(text); err != nil {
						t.Fatalf("%s: %s: %v", strings.Join(run.args, " "), name, err)
					}
				}
				if data, err := os.ReadFile(out + ".txtar"); err == nil {
					if err := hostile.Check(string(data)); err != nil {
						t.Fatalf("%s: the scenario: %v", strings.Join(run.args, " "), err)
					}
				}
			}
		}
	})
}

// fuzzDir is a scratch directory on a memory file system where there is
// one: the emitted scenario is written with fsync, which a busy disk makes
// slow enough to stall the fuzzer.
func fuzzDir(t *testing.T) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "dshtest-fuzz-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}
