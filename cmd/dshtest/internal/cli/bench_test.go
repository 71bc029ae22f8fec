package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// BenchmarkRepro runs "dshtest repro" in-process (Run, as main does) on a
// generated JSONL log written to a temporary file: read, decode, load,
// render live and replay at the three default sizes, and check every
// invariant. It runs at 1k, 10k and 100k events, so that benchratio can
// show how its cost per event grows with the log. It lives here rather
// than in the benchmarks package because that package cannot import this
// internal one; benchmarks/doc.go says so.
//
// Set DSHTEST_BENCH_REPRO_EVENTS to measure one other size instead (e.g.
// 10000 when profiling).
func BenchmarkRepro(b *testing.B) {
	sizes := []int{1_000, 10_000, 100_000}
	if s := os.Getenv("DSHTEST_BENCH_REPRO_EVENTS"); s != "" {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
			b.Fatalf("DSHTEST_BENCH_REPRO_EVENTS=%q: want a positive number of events", s)
		}
		sizes = []int{n}
	}
	for _, n := range sizes {
		b.Run(reproBenchName(n), func(b *testing.B) { benchRepro(b, n) })
	}
}

// reproBenchName names a size as the benchmarks package does: events=1k,
// events=100k, or events=N below a thousand.
func reproBenchName(n int) string {
	if n < 1000 {
		return fmt.Sprintf("events=%d", n)
	}
	return fmt.Sprintf("events=%dk", n/1000)
}

// benchRepro measures repro of one generated n-event log.
func benchRepro(b *testing.B, n int) {
	events := sessiongen.GenerateN(1, n)
	path := filepath.Join(b.TempDir(), "session.jsonl")
	var buf bytes.Buffer
	if err := jsonl.WriteLog(&buf, events); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var stderr strings.Builder
	for b.Loop() {
		stderr.Reset()
		// A failed invariant (exit 1) is a verdict, not an error.
		if code := Run([]string{"repro", path}, strings.NewReader(""), io.Discard, &stderr, nil); code == ExitUsage {
			b.Fatalf("repro exit %d: %s", code, stderr.String())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(events)), "ns/event")
}
