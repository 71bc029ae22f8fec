package properties

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// packContainer writes events in upstream's persistence container (log.md
// §1.3): a session header line, then the events with their chunk runs
// packed (jsonl.AppendPacked).
func packContainer(events []sessionlog.Event) ([]byte, error) {
	head := fmt.Appendf(nil, `{"type":"session","version":0,"id":"prop-session","createdAt":%d,"cwd":"/w","delegationDepth":0}`+"\n",
		firstTime(events))
	return jsonl.AppendPacked(head, events)
}

func firstTime(events []sessionlog.Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[0].Time
}

// checkContainer: the same log in upstream's container form (header line,
// packed chunk rows) decodes to the same events, byte for byte.
func checkContainer(s *subject) error {
	data, err := packContainer(s.events)
	if err != nil {
		return err
	}
	log, err := jsonl.ParseLog(data, "container.jsonl")
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if log.Header == nil {
		return fmt.Errorf("the header line was not recognised")
	}
	if len(log.Events) != len(s.events) {
		return fmt.Errorf("decoded %d events, want %d", len(log.Events), len(s.events))
	}
	for i := range s.events {
		x, y := &s.events[i], &log.Events[i]
		if x.Type != y.Type || x.Seq != y.Seq || x.Time != y.Time || x.Ignorable != y.Ignorable ||
			!bytes.Equal(x.Data, y.Data) || !rawEqual(x.SurfaceOp, y.SurfaceOp) || !rawEqual(x.SourceEventSeqs, y.SourceEventSeqs) {
			return fmt.Errorf("seq %d differs after packing:\n was %s\n now %s", x.Seq, line(x), line(y))
		}
	}
	return nil
}

var plainText = regexp.MustCompile(`^[A-Za-z .\n]+$`)
