package synthlog

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

// testEvent mirrors sessionlog.Event's JSONL form: a reader of its own, so
// that the projection packages' tests do not lean on the codec they may be
// testing against.
type testEvent struct {
	Type            string          `json:"type"`
	Seq             int64           `json:"seq"`
	Time            int64           `json:"time"`
	Data            json.RawMessage `json:"data"`
	SurfaceOp       json.RawMessage `json:"surfaceOp"`
	SourceEventSeqs json.RawMessage `json:"sourceEventSeqs"`
	Ignorable       bool            `json:"ignorable"`
}

// DecodeJSONL decodes a plain event log (no container header, no packed
// rows) with encoding/json.
func DecodeJSONL(data []byte) ([]sessionlog.Event, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []sessionlog.Event
	for {
		var e testEvent
		err := dec.Decode(&e)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("synthlog: event %d: %w", len(out), err)
		}
		out = append(out, sessionlog.Event{Type: e.Type, Seq: e.Seq, Time: e.Time, Data: e.Data,
			SurfaceOp: e.SurfaceOp, SourceEventSeqs: e.SourceEventSeqs, Ignorable: e.Ignorable})
	}
}

// LoadTestdata reads the plain event log dir/name, failing t on error.
func LoadTestdata(t testing.TB, dir, name string) []sessionlog.Event {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	events, err := DecodeJSONL(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return events
}

// TestdataLogs lists every plain event log in dir. Files in upstream's
// persistence container (a "session" header line, packed chunk rows) are
// left to the codec's tests; their expanded twins are plain logs and are
// listed.
func TestdataLogs(t testing.TB, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
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
		t.Fatalf("only %d logs in %s", len(names), dir)
	}
	return names
}
