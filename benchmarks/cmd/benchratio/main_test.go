package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/dshtest/dshtest/benchmarks
cpu: AMD EPYC
BenchmarkMount/events=1k 	      75	  15000000 ns/op	     15000 cpu-ns/event	     15000 ns/event
BenchmarkMount/events=1k 	      75	  15000000 ns/op	     16000 cpu-ns/event	     16000 ns/event
BenchmarkMount/events=1k 	      75	  15000000 ns/op	     99000 cpu-ns/event	     99000 ns/event
BenchmarkMount/events=100k        	       1	2000000000 ns/op	     18000 cpu-ns/event	     20000 ns/event
BenchmarkMount/naive/events=100k  	       1	4000000000 ns/op	     40000 cpu-ns/event	     40000 ns/event
BenchmarkLiveAppend/events=1k-2     	   30118	     50000 ns/op	     50000 cpu-ns/op	   18793 B/op	      70 allocs/op
BenchmarkLiveAppend/events=100k-2   	   23122	     65000 ns/op	     65000 cpu-ns/op	   18998 B/op	      71 allocs/op
BenchmarkToggleReasoning/events=100k        	    8962	    200000 ns/op	    200000 cpu-ns/op
BenchmarkHistoryPage/events=10k             	46074174	        20.00 ns/op
BenchmarkHistoryPage/events=1M              	41830095	        40.00 ns/op
PASS
pkg: github.com/dshtest/dshtest/cmd/dshtest/internal/cli
BenchmarkRepro/events=1k 	50	  20000000 ns/op	  15.00 MB/s	     20000 ns/event
BenchmarkRepro/events=100k 	1	2500000000 ns/op	  14.00 MB/s	     25000 ns/event
`

func TestTable(t *testing.T) {
	res, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := res["benchmarks.BenchmarkLiveAppend/events=1k"]["cpu-ns/op"]; len(got) != 1 || got[0] != 50000 {
		t.Errorf("-2 suffix not dropped or value lost: %v", got)
	}
	out := table(res)
	for _, want := range []string{
		"| live append, 100k ÷ 1k events (per op)", "| 1.30 ", "MISS", // 65000/50000
		"| mount per event, 100k ÷ 1k events", "| 1.12 ", // 18000 / median(15000,16000,99000)
		"| reasoning toggle at 100k, % of mount", "| 0.01% ", // 200µs of 2 s
		"| history page, 1M ÷ 10k events", "| 2.00 ", // wall time: no cpu metric
		"| mount vs naive, speed-up at 1k / 10k / 100k", "| n/a / n/a / 2.0× ",
		"| repro per event, 100k ÷ 1k events", "| 1.25 ", // 25000 / 20000
		"| repro of a 100k-event log, in-process (s/op)", "| 2.50 ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if len([]rune(l)) != len([]rune(lines[0])) {
			t.Errorf("ragged table row %q", l)
		}
	}
}
