package summary_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/load/summary"
	"github.com/dshtest/dshtest/sessionlog"
)

// smallLog is a session header, a prompt and a context message.
const smallLog = `{"type":"session","version":0,"id":"s-1","createdAt":1785974400000}
{"type":"user/message","seq":0,"time":1785974400001,"data":{"content":[{"type":"text","text":"Hello\u001b[31m there"}],"source":{"kind":"user"}},"surfaceOp":"append"}
{"type":"user/message","seq":1,"time":1785974400002,"data":{"content":[{"type":"text","text":"context"}],"source":{"kind":"plugin","plugin":"x"}},"surfaceOp":"append"}
`

// TestSummary: a log read through a tally counts its events, prompts and
// context, names its header, and folds its surface.
func TestSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(smallLog), 0o644); err != nil {
		t.Fatal(err)
	}
	lf, err := load.Open(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	tally := summary.NewTally()
	var events []sessionlog.Event
	lg, err := lf.StreamSurface(func(e *sessionlog.Event, _ int64) bool {
		tally.Add(e)
		events = append(events, *e)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	s := tally.Summarize(lg, lg.Surface)
	if s.Events != 2 || s.Messages.Prompts != 1 || s.Messages.Context != 1 || s.Types["user/message"] != 2 ||
		s.Header == nil || s.Header.ID != "s-1" || !s.OK || s.Surface.Messages != 2 {
		t.Errorf("summary = %+v", s)
	}
	for _, tc := range []struct {
		i    int
		want string
	}{
		{0, `   0 user/message append "Hello\\x1b[31m there"`}, // the escape made visible, then quoted
		{1, `   1 user/message append "context"`},
	} {
		if got := summary.Describe(&events[tc.i]); got != tc.want {
			t.Errorf("Describe(event %d) = %q, want %q", tc.i, got, tc.want)
		}
	}
}
