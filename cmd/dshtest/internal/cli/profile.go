package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"time"

	"github.com/dshtest/dshtest/internal/ground/membudget"
)

// Profiling for developers measuring a command as a process (make
// bench-shapes): a CPU profile, a heap profile, an execution
// trace (what a slow key waited for):
//
//	DSHTEST_CPUPROFILE=cpu.pprof dshtest repro big.jsonl
//	DSHTEST_HEAPPROFILE=heap.pprof dshtest repro big.jsonl
//	go tool pprof -top -sample_index=inuse_space dshtest heap.pprof
//	DSHTEST_TRACE=trace.out dshtest view big.jsonl
//	go tool trace trace.out
//
// The heap profile is taken at the peak of the live heap: a sampler
// watches it and rewrites the profile whenever it grows by a tenth, so
// inuse_space shows what was held when the command held the most, not
// what was left at exit.
const (
	envCPUProfile  = "DSHTEST_CPUPROFILE"
	envHeapProfile = "DSHTEST_HEAPPROFILE"
	envTrace       = "DSHTEST_TRACE"
)

// HeapProfileAsked reports whether the environment getenv reads asks for
// a heap profile: the command's main turns the runtime's sampling of
// allocations off otherwise.
func HeapProfileAsked(getenv func(string) string) bool { return getenv(envHeapProfile) != "" }

// startProfiles starts the profiles env asks for; the returned function
// stops them and writes the files. Failures are reported on stderr: a
// profile is a developer's aid and never changes a command's outcome.
func startProfiles(env map[string]string, stderr io.Writer) func() {
	var stops []func()
	// streamed starts a profile the runtime writes to its file as it
	// goes, until stop.
	streamed := func(key string, start func(io.Writer) error, stop func()) {
		p := env[key]
		if p == "" {
			return
		}
		f, err := os.Create(p)
		if err == nil {
			if err = start(f); err != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "dshtest: %s: %v\n", key, err)
			return
		}
		stops = append(stops, func() { stop(); f.Close() })
	}
	streamed(envCPUProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
	streamed(envTrace, trace.Start, trace.Stop)
	if p := env[envHeapProfile]; p != "" {
		stops = append(stops, peakHeapProfile(p, stderr))
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// peakHeapProfile samples the live heap every 20 ms and writes a heap
// profile to path whenever it has grown by a tenth since the last one.
func peakHeapProfile(path string, stderr io.Writer) func() {
	var peak uint64
	write := func() {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.Lookup("heap").WriteTo(f, 0)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "dshtest: %s: %v\n", envHeapProfile, err)
		}
	}
	stop := membudget.Every(20*time.Millisecond, func() {
		if live := membudget.LiveHeap(); live > peak+peak/10 {
			peak = live
			write()
		}
	})
	return func() {
		stop()
		if peak == 0 { // the command ended before the first sample
			runtime.GC()
			write()
		}
	}
}
