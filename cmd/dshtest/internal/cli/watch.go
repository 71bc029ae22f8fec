package cli

import (
	"runtime/metrics"
	"time"
)

// every runs f every d on a goroutine of its own until the returned stop
// is called; stop waits for the goroutine to end. The memory budget and
// the peak heap profile watch the live heap this way while a command runs.
func every(d time.Duration, f func()) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// liveHeap returns the live heap the last collection found
// (/gc/heap/live:bytes), or 0 if the runtime does not say.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
