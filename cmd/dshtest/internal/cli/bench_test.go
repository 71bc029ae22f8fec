package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/sessiongen"
)

// BenchmarkRepro runs "dshtest repro" in-process (Run, as main does) on a
// generated JSONL log written to a temporary file: read, decode, load,
// render live and replay at the three default sizes, and check every
// invariant. It lives here rather than in the benchmarks package because
// that package cannot import this internal one; benchmarks/doc.go says so.
//
// Set DSHTEST_BENCH_REPRO_EVENTS to measure another size (e.g. 10000 when
// profiling).
func BenchmarkRepro(b *testing.B) {
	n := 100_000
	if s := os.Getenv("DSHTEST_BENCH_REPRO_EVENTS"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil {
			b.Fatalf("DSHTEST_BENCH_REPRO_EVENTS=%q: %v", s, err)
		}
	}
	name := fmt.Sprintf("events=%dk", n/1000)
	if n < 1000 {
		name = fmt.Sprintf("events=%d", n)
	}
	b.Run(name, func(b *testing.B) {
		events := sessiongen.GenerateN(1, n)
		path := filepath.Join(b.TempDir(), "session.jsonl")
		data, err := encodeLog(events)
		if err != nil {
			b.Fatal(err)
		}
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
	})
}
