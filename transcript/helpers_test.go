package transcript_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/synthlog"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// ---------------------------------------------------------------------------
// Test helpers: loading logs and describing items.

// testdataDir holds the example logs, beside the log vocabulary they show.
const testdataDir = "../sessionlog/testdata"

// trLoad and trLogFiles read the plain example logs (internal/testkit/synthlog's
// test-support reader).
func trLoad(t testing.TB, name string) []sessionlog.Event {
	t.Helper()
	return synthlog.LoadTestdata(t, testdataDir, name)
}

func trLogFiles(t testing.TB) []string {
	t.Helper()
	return synthlog.TestdataLogs(t, testdataDir)
}

// trDuration formats a bucket total as terminal.md §2.5.3 says: floored to
// 100 ms, "<s>.<d>s" under a minute, else "<m>m<ss.s>s".
func trDuration(ms int64) string {
	tenths := max(ms, 0) / 100
	if tenths < 600 {
		return fmt.Sprintf("%d.%ds", tenths/10, tenths%10)
	}
	m, rest := tenths/600, tenths%600
	return fmt.Sprintf("%dm%02d.%ds", m, rest/10, rest%10)
}

// trFooterText is the footer row of terminal.md §2.5 at the clock reading
// now, with Completed stamps in UTC.
func trFooterText(f *transcript.Footer, now int64) string {
	t := f.Timing
	if t.Open != transcript.BucketNone {
		open := max(now-t.OpenSince, 0)
		switch t.Open {
		case transcript.BucketWait:
			t.WaitMs += open
		case transcript.BucketThinking:
			t.ThinkingMs += open
		case transcript.BucketResponding:
			t.RespondingMs += open
		case transcript.BucketTools:
			t.ToolsMs += open
		}
	}
	parts := []string{"Model wait " + trDuration(t.WaitMs)}
	for _, b := range []struct {
		label string
		ms    int64
	}{{"Thinking", t.ThinkingMs}, {"Response", t.RespondingMs}, {"Tools", t.ToolsMs}} {
		if b.ms > 0 {
			parts = append(parts, b.label+" "+trDuration(b.ms))
		}
	}
	if f.Completed {
		parts = append(parts, "Completed "+time.UnixMilli(f.CompletedAt).UTC().Format("2006-01-02 15:04:05"))
	}
	return strings.Join(parts, " · ")
}

func trShort(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("<%d runes>", utf8.RuneCountInString(s))
}

// trRow describes one item in one line, with footers formatted at now.
func trRow(it transcript.Item, now int64) string {
	id := fmt.Sprint(it.ID.Seq)
	if it.ID.Part == transcript.PartFooter {
		id += "f"
	}
	var s string
	switch it.Kind {
	case transcript.KindPrompt:
		s = fmt.Sprintf("%s: %q", it.Prompt.Header, it.Prompt.Text)
	case transcript.KindContext:
		s = fmt.Sprintf("Context · %s: %q", it.Context.Label, it.Context.Text)
	case transcript.KindSessionRef:
		s = "Referenced sessions · " + strings.Join(it.SessionRef.Entries, ", ")
	case transcript.KindStep:
		s = fmt.Sprintf("Assistant %d/%d", it.Step.Turn, it.Step.Step)
		if r := it.Step.Reasoning(); r != "" {
			s += " reasoning=" + trShort(r)
		}
		if x := it.Step.Text(); x != "" {
			s += " text=" + trShort(x)
		}
		if it.Step.Reasoning() == "" && it.Step.Text() == "" {
			s += " (empty)"
		}
		if !it.Step.Settled {
			s += " streaming"
		}
	case transcript.KindFooter:
		s = fmt.Sprintf("Footer %d/%d: %s", it.Footer.Turn, it.Footer.Step, trFooterText(it.Footer, now))
	case transcript.KindToolCard:
		c := it.Tool
		state := "pending"
		if c.HasResult {
			state = "ok"
			if c.IsError {
				state = "error"
			}
		}
		s = fmt.Sprintf("Tool %s %s %s", c.Name, c.CallID, state)
		if c.Orphan {
			s += " orphan"
		}
		if c.HasResult {
			s += " result=" + trShort(sessionlog.ContentText(c.Result))
		}
	case transcript.KindNotice:
		level := map[transcript.Level]string{transcript.LevelInfo: "info", transcript.LevelWarning: "warning", transcript.LevelError: "error"}[it.Notice.Level]
		s = fmt.Sprintf("%s notice: %q", level, it.Notice.Text)
	case transcript.KindMarker:
		m := it.Marker
		if m.SummaryEventSeq == nil {
			s = "Marker (no summary)"
		} else {
			s = fmt.Sprintf("Marker summary=%d items=%d tokens=%d text=%s", *m.SummaryEventSeq, *m.ShadowedItemCount, *m.ShadowedTokenCount, trShort(derefOr(m.Summary, "<nil>")))
		}
	default:
		s = "unknown item"
	}
	return "[" + id + "] " + s
}

func derefOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

func trRows(tr transcript.Transcript, now int64) []string {
	rows := make([]string, 0, len(tr.Items))
	for _, it := range tr.Items {
		rows = append(rows, trRow(it, now))
	}
	if tr.Progress != nil {
		rows = append(rows, fmt.Sprintf("progress since seq %d", tr.Progress.StartSeq))
	}
	return rows
}

func trCheckRows(t *testing.T, got, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s\ngot:\n%s", diff, strings.Join(got, "\n"))
	}
}
