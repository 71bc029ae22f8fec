package properties

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/transcript"
)

// expectedNotices reads, from the log alone, the notices the transcript
// must show in log order (terminal.md §2.6, §11.1): one per turn/end of a
// kind other than completed, one per llm/retry, one per compaction end
// that carries an error.
func expectedNotices(events []sessionlog.Event) []transcript.Notice {
	var out []transcript.Notice
	for i := range events {
		e := &events[i]
		switch sessionlog.Canonical(e.Type) {
		case sessionlog.TypeTurnEnd:
			var d sessionlog.TurnEndData
			if json.Unmarshal(e.Data, &d) != nil {
				continue
			}
			switch k := d.Reason.Kind; k {
			case "completed":
			case "error":
				text := d.Reason.Message
				if d.Reason.Failure != nil {
					text = d.Reason.Failure.Message
				}
				out = append(out, transcript.Notice{Level: transcript.LevelError, Text: text})
			case "aborted":
				out = append(out, transcript.Notice{Level: transcript.LevelWarning, Text: "Turn cancelled."})
			case "max-tokens":
				out = append(out, transcript.Notice{Level: transcript.LevelWarning, Text: "The model reached its output-token limit."})
			case "disposed":
				out = append(out, transcript.Notice{Level: transcript.LevelWarning, Text: "Turn stopped: the agent was disposed."})
			case "interrupted":
				out = append(out, transcript.Notice{Level: transcript.LevelWarning, Text: "The previous process ended during this turn."})
			default:
				out = append(out, transcript.Notice{Level: transcript.LevelWarning, Text: "Turn ended: " + k + "."})
			}
		case sessionlog.TypeLLMRetry:
			var d sessionlog.RetryData
			if json.Unmarshal(e.Data, &d) != nil {
				continue
			}
			max := "∞"
			if d.Mode != "always" && d.MaxRetries != nil {
				max = fmt.Sprint(*d.MaxRetries)
			}
			out = append(out, transcript.Notice{Level: transcript.LevelWarning,
				Text: fmt.Sprintf("Retrying model request (%d/%s) in %dms: %s", d.Retry, max, d.DelayMs, d.Failure.Message)})
		case sessionlog.TypeCompactionEnd:
			var d sessionlog.CompactionEndData
			if json.Unmarshal(e.Data, &d) == nil && d.Error != "" {
				out = append(out, transcript.Notice{Level: transcript.LevelWarning, Text: "Compaction failed: " + d.Error})
			}
		}
	}
	return out
}

// checkNotices: the transcript's notices are exactly the log's, in log
// order, with the spec's texts and colours.
func checkNotices(s *subject) error {
	want := expectedNotices(s.events)
	var got []transcript.Notice
	for _, it := range s.model().Transcript().Items {
		if it.Kind == transcript.KindNotice {
			got = append(got, *it.Notice)
		}
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Errorf("notice %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d notices, want %d", len(got), len(want))
	}
	return nil
}

// expectedProgress is the standalone compaction the log leaves open
// (terminal.md §11.2): the first turn:null start not closed by a
// turn:null end and not made stale by a later session/end-seed.
func expectedProgress(events []sessionlog.Event) *transcript.Progress {
	var open *transcript.Progress
	for i := range events {
		e := &events[i]
		switch sessionlog.Canonical(e.Type) {
		case sessionlog.TypeCompactionStart:
			var d sessionlog.CompactionStartData
			if json.Unmarshal(e.Data, &d) == nil && d.Turn == nil && open == nil {
				open = &transcript.Progress{StartSeq: e.Seq, StartTime: e.Time}
			}
		case sessionlog.TypeCompactionEnd:
			var d sessionlog.CompactionEndData
			if json.Unmarshal(e.Data, &d) == nil && d.Turn == nil {
				open = nil
			}
		case sessionlog.TypeSessionEndSeed:
			open = nil
		}
	}
	return open
}

// checkProgress: the indicator is shown exactly while a standalone
// compaction is open at the tail; a resume (session/end-seed) makes it
// stale and changes nothing else in the transcript.
func checkProgress(s *subject) error {
	tr := s.model().Transcript()
	if got, want := tr.Progress, expectedProgress(s.events); !reflect.DeepEqual(got, want) {
		return fmt.Errorf("progress %+v, want %+v", deref(got), deref(want))
	}
	resumed, err := surface.Resume(slices.Clip(s.events), func() int64 { return s.p.now(s.events) })
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	rt := transcript.Project(resumed.Events(), transcript.Options{EagerSteps: s.p.eager})
	if rt.Progress != nil {
		return fmt.Errorf("a resumed log still shows compaction progress from seq %d", rt.Progress.StartSeq)
	}
	rt.Progress = tr.Progress
	if !sameTranscript(tr, rt) {
		return fmt.Errorf("resuming (session/end-seed) changed the transcript")
	}
	return nil
}
