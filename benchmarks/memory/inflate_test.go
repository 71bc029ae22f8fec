package memory

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/benchmarks/internal/targets"
	"github.com/dshtest/dshtest/internal/testkit/logforms"
)

// TestMemoryInflated runs check, render and repro as processes on logs of
// identical prompts of 5 MB each, a few kilobytes compressed, and fails
// when a peak RSS is over the command's budget of the text
// (targets.TextBudget): 20 prompts (100 MB of text), and 8 and 2, whose
// budgets the window, the line buffers and the rows of a prompt spend the
// most of (2 prompts are under the 64 MiB floor). The forms: one
// Zstandard frame of the whole log with the encoder's window (8 MiB), with
// the longest window the reader accepts (128 MiB, what `zstd --long=27`
// writes from a pipe), and in one segment (its window its text, as the
// zstd command writes a file it knows the size of), which the decoder
// holds while it reads; and the raw log itself. render runs on the raw
// log only: it holds the text once as its items and the rows drawn of
// them, so a decoder's window takes it over its 2× (8 prompts in the
// 8 MiB window: 77–81 MiB against 76.3, and 20 in the 128 MiB window: 220
// MiB against 191, before render drew as it read and after alike).
//
// Like TestMemory it runs only with DSHTEST_MEMORY=1 (make bench-shapes).
func TestMemoryInflated(t *testing.T) {
	benchmarkOnly(t)
	dir := t.TempDir()
	dshtest := build(t, dir, "dshtest", "github.com/dshtest/dshtest/cmd/dshtest")
	for _, prompts := range []int{20, 8, 2} {
		plain := inflatedLog(prompts, 5_000_000)
		forms := []struct {
			name string
			data []byte
		}{
			{"window-8MiB.jsonl.zstd", logforms.ZstdWindow(t, plain, 8<<20)},
			{"window-128MiB.jsonl.zstd", logforms.ZstdWindow(t, plain, 1<<27)},
			{"one-segment.jsonl.zstd", logforms.ZstdFrame(t, plain)},
			{"raw.jsonl", plain},
		}
		for _, f := range forms {
			name := strconv.Itoa(prompts) + "-prompts-" + f.name
			log := filepath.Join(dir, name)
			if err := os.WriteFile(log, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes, %d bytes of text", name, len(f.data), len(plain))
			commands := []string{"check", "repro"}
			if f.name == "raw.jsonl" {
				commands = []string{"check", "render", "repro"}
			}
			for _, command := range commands {
				t.Run(name+"/"+command, func(t *testing.T) {
					budget, _ := targets.TextBudget(command, int64(len(plain)))
					within(t, dir, dshtest, command, log, budget, int64(len(plain)))
				})
			}
			os.Remove(log)
		}
	}
}

// inflatedLog is a headered log of n turns, each one user prompt of size
// bytes of words.
func inflatedLog(n, size int) []byte {
	words := strings.Repeat("lorem ipsum dolor sit amet ", size/27+1)[:size]
	var b bytes.Buffer
	b.WriteString(logforms.Header + "\n")
	seq := 0
	event := func(typ, data, extra string) {
		b.WriteString(`{"type":"` + typ + `","seq":` + strconv.Itoa(seq) + `,"time":` + strconv.Itoa(1784630400000+seq) + `,"data":` + data + extra + "}\n")
		seq++
	}
	for turn := 1; turn <= n; turn++ {
		t := strconv.Itoa(turn)
		event("turn/start", `{"turn":`+t+`}`, "")
		event("step/start", `{"turn":`+t+`,"step":1}`, "")
		event("user/message", `{"id":"m-u`+t+`","role":"user","content":[{"type":"text","text":"`+words+`"}],"source":{"kind":"user"}}`, `,"surfaceOp":"append"`)
	}
	return b.Bytes()
}
