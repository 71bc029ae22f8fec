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

// TestMemoryInflated runs check and repro as processes on logs a few
// kilobytes long that inflate to 100 MB of text, 20 identical prompts of
// 5 MB each, and fails when a peak RSS is over the command's budget of the
// text (targets.TextBudget). The forms: one Zstandard frame of the whole
// log with the encoder's window (8 MiB), and with the longest window the
// reader accepts (128 MiB, what `zstd --long=27` writes), which the
// decoder holds while it reads; and the raw log itself.
//
// Like TestMemory it runs only with DSHTEST_MEMORY=1 (make bench-shapes).
func TestMemoryInflated(t *testing.T) {
	benchmarkOnly(t)
	dir := t.TempDir()
	dshtest := build(t, dir, "dshtest", "github.com/dshtest/dshtest/cmd/dshtest")
	plain := inflatedLog(20, 5_000_000)
	forms := []struct {
		name string
		data []byte
	}{
		{"window-8MiB.jsonl.zstd", logforms.ZstdWindow(t, plain, 8<<20)},
		{"window-128MiB.jsonl.zstd", logforms.ZstdWindow(t, plain, 1<<27)},
		{"raw.jsonl", plain},
	}
	for _, f := range forms {
		log := filepath.Join(dir, f.name)
		if err := os.WriteFile(log, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes, %d bytes of text", f.name, len(f.data), len(plain))
		for _, command := range []string{"check", "repro"} {
			t.Run(f.name+"/"+command, func(t *testing.T) {
				budget, _ := targets.TextBudget(command, int64(len(plain)))
				within(t, dir, dshtest, command, log, budget, int64(len(plain)))
			})
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
