package history_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
)

// testdataDir holds the example logs, beside the log vocabulary they show.
const testdataDir = "../sessionlog/testdata"

// The loaders below are the transcript tests' (transcript/transcript_test.go).

// trTestEvent mirrors sessionlog.Event's JSONL form. (A tiny private reader
// until the codec's ReadLog is in; see the package's codec tests for the real
// one.)
type trTestEvent struct {
	Type            string          `json:"type"`
	Seq             int64           `json:"seq"`
	Time            int64           `json:"time"`
	Data            json.RawMessage `json:"data"`
	SurfaceOp       json.RawMessage `json:"surfaceOp"`
	SourceEventSeqs json.RawMessage `json:"sourceEventSeqs"`
	Ignorable       bool            `json:"ignorable"`
}

func trDecodeJSONL(data []byte) ([]sessionlog.Event, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []sessionlog.Event
	for {
		var e trTestEvent
		err := dec.Decode(&e)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", len(out), err)
		}
		out = append(out, sessionlog.Event{Type: e.Type, Seq: e.Seq, Time: e.Time, Data: e.Data,
			SurfaceOp: e.SurfaceOp, SourceEventSeqs: e.SourceEventSeqs, Ignorable: e.Ignorable})
	}
}

func trLoad(t testing.TB, name string) []sessionlog.Event {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testdataDir, name))
	if err != nil {
		t.Fatal(err)
	}
	events, err := trDecodeJSONL(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return events
}

// trLogFiles lists every plain event log in testdata. Files in upstream's
// persistence container (a "session" header line, packed chunk rows) are left
// to the codec's tests; their expanded twins are plain logs and are listed.
func trLogFiles(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(testdataDir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := bytes.Cut(data, []byte("\n"))
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(first, &head) == nil && head.Type == "session" {
			continue
		}
		names = append(names, filepath.Base(p))
	}
	if len(names) < 8 {
		t.Fatalf("only %d logs in testdata", len(names))
	}
	return names
}
