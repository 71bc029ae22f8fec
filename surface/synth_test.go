package surface

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

func TestSynthLog(t *testing.T) {
	for _, n := range []int{1000, 10000} {
		events := synthlog.Log(n)
		if len(events) != n {
			t.Fatalf("synthlog.Log(%d) has %d events", n, len(events))
		}
		s, err := Load(events, frozenClock)
		if err != nil {
			t.Fatalf("synthlog.Log(%d) does not load: %v", n, err)
		}
		sur := s.Surface()
		if sur.Generation() < n/200 || sur.Len() > 200 {
			t.Errorf("synthlog.Log(%d): generation %d, surface %d nodes", n, sur.Generation(), sur.Len())
		}
		var b bytes.Buffer
		if err := jsonl.WriteLog(&b, events); err != nil {
			t.Fatal(err)
		}
		log, err := jsonl.ParseLog(b.Bytes(), "synth")
		if err != nil || len(log.Events) != n {
			t.Fatalf("round trip: %v", err)
		}
	}
}

func benchSizes() []int { return []int{1000, 10000, 100000} }

func sizeName(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("events=%dk", n/1000)
	}
	return fmt.Sprintf("events=%d", n)
}

// reportPerEvent reports wall and process CPU nanoseconds per event. The
// CPU figure (all threads, GC included) is the steadier one on a shared
// machine; run with -cpu 1 to keep it comparable across sizes.
func reportPerEvent(b *testing.B, n int, cpu0 int64) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/event")
	if cpu1 := processCPUTime(); cpu0 >= 0 && cpu1 >= 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/float64(n), "cpu-ns/event")
	}
}

// benchPool returns distinct synthetic logs of n events each, together at
// least 100k events, so that every size is measured on data that is not
// in the CPU cache (as a log loaded from disk is). Folding one small log
// over and over would measure a warm cache instead and make the small
// sizes look cheaper per event than they are.
func benchPool(n int) [][]sessionlog.Event {
	pool := make([][]sessionlog.Event, max(1, 100000/n))
	for i := range pool {
		pool[i] = synthlog.LogSeed(n, uint64(i))
	}
	return pool
}

// BenchmarkFold measures the whole-log surface fold; ns/event should not
// grow with the log. Each op folds one n-event log, taken in turn from a
// pool (see benchPool).
func BenchmarkFold(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(sizeName(n), func(b *testing.B) {
			pool := benchPool(n)
			cpu0 := processCPUTime()
			i := 0
			for b.Loop() {
				if _, err := Fold(pool[i%len(pool)], 0); err != nil {
					b.Fatal(err)
				}
				i++
			}
			reportPerEvent(b, n, cpu0)
		})
	}
}

// BenchmarkAppend measures Session.Append (all checks, fold, push) over a
// whole log.
func BenchmarkAppend(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(sizeName(n), func(b *testing.B) {
			pool := benchPool(n)
			cpu0 := processCPUTime()
			i := 0
			for b.Loop() {
				s := NewSession(frozenClock)
				events := pool[i%len(pool)]
				i++
				for _, e := range events {
					if _, err := s.Append(e); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportPerEvent(b, n, cpu0)
		})
	}
}

// BenchmarkDecode measures ParseLog on the JSONL form of a synthetic log.
func BenchmarkDecode(b *testing.B) {
	for _, n := range benchSizes()[:2] {
		b.Run(sizeName(n), func(b *testing.B) {
			var buf bytes.Buffer
			if err := jsonl.WriteLog(&buf, synthlog.Log(n)); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(buf.Len()))
			cpu0 := processCPUTime()
			for b.Loop() {
				if _, err := jsonl.ParseLog(buf.Bytes(), "bench"); err != nil {
					b.Fatal(err)
				}
			}
			reportPerEvent(b, n, cpu0)
		})
	}
}
