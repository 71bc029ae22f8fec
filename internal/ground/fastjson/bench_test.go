package fastjson

import (
	"encoding/json"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
)

// The benchmarks below hold each scanner of this package to the rule that
// keeps it: at least 1.5× faster than encoding/json on its operation, in the
// same run. Each has a fast and a json sub-benchmark over the same payloads
// of a synthetic log. (The payload readers are measured in transcript's
// scan_test.go, beside the plain paths they stand in for.)

func benchPayloads(b *testing.B, typ string) [][]byte {
	var out [][]byte
	for _, e := range synthlog.Log(20000) {
		if e.Type == typ {
			out = append(out, e.Data)
		}
	}
	if len(out) == 0 {
		b.Fatalf("no %s payloads", typ)
	}
	return out
}

func BenchmarkDecodeChunkData(b *testing.B) {
	payloads := benchPayloads(b, sessionlog.TypeAssistantChunk)
	b.Run("fast", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := DecodeChunkData(payloads[i%len(payloads)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("json", func(b *testing.B) {
		i := 0
		for b.Loop() {
			var c sessionlog.ChunkData
			if err := json.Unmarshal(payloads[i%len(payloads)], &c); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkSplitObject measures the codec's envelope split of a log line
// against decoding the line into a map of raw members.
func BenchmarkSplitObject(b *testing.B) {
	lines := benchLines(b)
	b.Run("fast", func(b *testing.B) {
		var fields []Field
		i := 0
		for b.Loop() {
			var ok bool
			if fields, ok = SplitObjectInto(fields, lines[i%len(lines)]); !ok || HasDuplicateKey(fields) {
				b.Fatal("split failed")
			}
			i++
		}
	})
	b.Run("json", func(b *testing.B) {
		i := 0
		for b.Loop() {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(lines[i%len(lines)], &m); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkValid measures Valid against json.Valid on log lines, the
// Decoder's check of every line.
func BenchmarkValid(b *testing.B) {
	lines := benchLines(b)
	b.Run("fast", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if !Valid(lines[i%len(lines)]) {
				b.Fatal("invalid")
			}
			i++
		}
	})
	b.Run("json", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if !json.Valid(lines[i%len(lines)]) {
				b.Fatal("invalid")
			}
			i++
		}
	})
}

// BenchmarkScanSource measures scanSource against sessionlog.DecodeSource,
// the plain path, on a synthetic log's message sources.
func BenchmarkScanSource(b *testing.B) {
	sources := sourceCorpus()[13:]
	b.Run("fast", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, ok := scanSource([]byte(sources[i%len(sources)])); !ok {
				b.Fatal("declined")
			}
			i++
		}
	})
	b.Run("json", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = sessionlog.DecodeSource([]byte(sources[i%len(sources)]))
			i++
		}
	})
}

// benchLines are the JSONL lines of a synthetic log, envelope keys in the
// codec's order.
func benchLines(b *testing.B) [][]byte {
	var lines [][]byte
	for _, e := range synthlog.Log(20000) {
		line, err := json.Marshal(struct {
			Type            string          `json:"type"`
			Seq             int64           `json:"seq"`
			Time            int64           `json:"time"`
			Data            json.RawMessage `json:"data"`
			SurfaceOp       json.RawMessage `json:"surfaceOp,omitempty"`
			SourceEventSeqs json.RawMessage `json:"sourceEventSeqs,omitempty"`
		}{e.Type, e.Seq, e.Time, e.Data, e.SurfaceOp, e.SourceEventSeqs})
		if err != nil {
			b.Fatal(err)
		}
		lines = append(lines, line)
	}
	return lines
}
