package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// TestHistoryFarSource: a tail page whose last message cites the log's
// first event (log.md §5 allows it) is the whole log, though the one pass
// kept only the events near the end (the log is larger than the pager's
// reserve): history reads again the events it missed, and prints what
// paging the whole log prints, in both forms.
func TestHistoryFarSource(t *testing.T) {
	events := sessiongen.GenerateN(1, 5_000)
	last := -1
	for i := range events {
		if e := &events[i]; e.Type == sessionlog.TypeAssistantMessage && sessionlog.IsAppendSurfaceEvent(e) {
			last = i
		}
	}
	if last < 0 {
		t.Fatal("the generated log has no assistant message")
	}
	events[last].SourceEventSeqs = []byte("[0]")
	var text []byte
	for i := range events {
		var err error
		if text, err = jsonl.AppendEvent(text, &events[i]); err != nil {
			t.Fatal(err)
		}
		text = append(text, '\n')
	}
	pager := history.NewPager(-1, 1)
	for i := range events {
		pager.Add(&events[i])
	}
	if _, ok := pager.Page(); ok {
		t.Fatalf("the log (%d bytes) is within the pager's reserve: one read serves it", len(text))
	}
	path := filepath.Join(t.TempDir(), "far.jsonl")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	page := history.New(events).Page(-1, 1)
	if page.From != 0 {
		t.Fatalf("the page starts at seq %d, not 0", page.From)
	}
	var want bytes.Buffer
	writePage(&want, path, 1, page)
	var wantJSON bytes.Buffer
	if err := writeJSONOneLine(&wantJSON, pageJSON(path, -1, 1, page)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want []byte
	}{
		{[]string{"history", path, "--max", "1"}, want.Bytes()},
		{[]string{"history", path, "--max", "1", "--json"}, wantJSON.Bytes()},
	} {
		code, stdout, stderr := run(tt.args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", tt.args, code, stderr)
		}
		if !bytes.Equal([]byte(stdout), tt.want) {
			t.Errorf("%v: %d bytes, not the whole log's page (%d bytes)", tt.args, len(stdout), len(tt.want))
		}
	}
}
