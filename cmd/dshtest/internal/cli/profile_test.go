package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartProfiles writes each profile the environment asks for, and
// reports one it cannot write without stopping the others.
func TestStartProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, heap, tr := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "heap.pprof"), filepath.Join(dir, "trace.out")
	var stderr bytes.Buffer
	stop := startProfiles(map[string]string{envCPUProfile: cpu, envHeapProfile: heap, envTrace: tr}, &stderr)
	stop()
	if stderr.Len() != 0 {
		t.Fatalf("stderr: %s", stderr.String())
	}
	for _, p := range []string{cpu, heap, tr} {
		b, err := os.ReadFile(p)
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %d bytes, %v", filepath.Base(p), len(b), err)
		}
	}
	if b, _ := os.ReadFile(tr); !bytes.HasPrefix(b, []byte("go 1.")) {
		t.Fatalf("trace starts %q", b[:min(len(b), 16)])
	}

	stderr.Reset()
	stop = startProfiles(map[string]string{envTrace: filepath.Join(dir, "missing", "trace.out"), envCPUProfile: cpu}, &stderr)
	stop()
	if !strings.Contains(stderr.String(), envTrace) {
		t.Fatalf("stderr %q does not name %s", stderr.String(), envTrace)
	}
}
