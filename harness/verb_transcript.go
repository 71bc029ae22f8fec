package harness

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// verbTranscript is the transcript verb.
//
//	transcript
//
// Prints the human transcript of the log (the replay projection with the
// scenario's step rule), one line per item, for a following
// "cmp stdout FILE":
//
//	prompt 2 You "List the files"
//	step 9 1/1 settled reasoning="Run ls." text=""
//	tool 10 call-1 bash ok
//	footer 9 1/1 completed
//	marker 33 summary-seq=32 items=4 tokens=120 "Listed the files."
//	notice 40 warning "Turn cancelled."
//
// Each line is the item kind, the seq of the event that created it, and a
// short form of its content (texts cut at 40 code points).
//
// Example:
//
//	transcript
//	cmp stdout transcript.txt
func verbTranscript(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "transcript", func(s *script) error {
		if len(args) != 0 {
			return fmt.Errorf("usage: transcript")
		}
		t := s.project(s.events())
		writeTranscript(ts.Stdout(), t)
		return nil
	})
}

// project is the replay projection through the suite's seam.
func (s *script) project(events []sessionlog.Event) transcript.Transcript {
	opts := transcript.Options{EagerSteps: s.view.eager}
	if r := s.suite.cfg.Projection.Replay; r != nil {
		return r(events, opts)
	}
	return transcript.Project(events, opts)
}

func writeTranscript(w io.Writer, t transcript.Transcript) {
	for i := range t.Items {
		fmt.Fprintln(w, itemLine(&t.Items[i]))
	}
	if p := t.Progress; p != nil {
		fmt.Fprintf(w, "progress %d since %d\n", p.StartSeq, p.StartTime)
	}
}

func itemLine(it *transcript.Item) string {
	head := fmt.Sprintf("%s %d", it.Kind, it.ID.Seq)
	switch it.Kind {
	case transcript.KindPrompt:
		return fmt.Sprintf("%s %s %s", head, it.Prompt.Header, short(it.Prompt.Text))
	case transcript.KindContext:
		return fmt.Sprintf("%s %s %s", head, it.Context.Label, short(it.Context.Text))
	case transcript.KindSessionRef:
		return fmt.Sprintf("%s %s", head, short(strings.Join(it.SessionRef.Entries, ", ")))
	case transcript.KindStep:
		st := it.Step
		state := "streaming"
		if st.Settled {
			state = "settled"
		}
		return fmt.Sprintf("%s %d/%d %s reasoning=%s text=%s", head, st.Turn, st.Step, state, short(st.Reasoning()), short(st.Text()))
	case transcript.KindFooter:
		f := it.Footer
		state := "open"
		if f.Completed {
			state = "completed"
		}
		return fmt.Sprintf("%s %d/%d %s", head, f.Turn, f.Step, state)
	case transcript.KindToolCard:
		c := it.Tool
		state := "pending"
		switch {
		case c.HasResult && c.IsError:
			state = "error"
		case c.HasResult:
			state = "ok"
		}
		if c.Orphan {
			state += " orphan"
		}
		return fmt.Sprintf("%s %s %s %s", head, c.CallID, c.Name, state)
	case transcript.KindNotice:
		lv := map[transcript.Level]string{transcript.LevelInfo: "info", transcript.LevelWarning: "warning", transcript.LevelError: "error"}[it.Notice.Level]
		return fmt.Sprintf("%s %s %s", head, lv, short(it.Notice.Text))
	case transcript.KindMarker:
		return head + markerData(it.Marker)
	case transcript.KindShell:
		state := "interrupted"
		if r := it.Shell.Result; r != nil {
			state = "ok"
			if r.Failed() {
				state = "failed"
			}
		}
		return fmt.Sprintf("%s %s %s %s", head, it.Shell.ID, state, short(it.Shell.Command))
	}
	return head
}

// markerData formats a marker's summary data; "?" is data outside the
// projected window.
func markerData(m *transcript.Marker) string {
	opt := func(p *int64) string {
		if p == nil {
			return "?"
		}
		return strconv.FormatInt(*p, 10)
	}
	items := "?"
	if m.ShadowedItemCount != nil {
		items = strconv.Itoa(*m.ShadowedItemCount)
	}
	summary := "?"
	if m.Summary != nil {
		summary = short(*m.Summary)
	}
	return fmt.Sprintf(" summary-seq=%s items=%s tokens=%s %s", opt(m.SummaryEventSeq), items, opt(m.ShadowedTokenCount), summary)
}

// short quotes s, cut to 40 code points.
func short(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return strconv.Quote(s)
}
