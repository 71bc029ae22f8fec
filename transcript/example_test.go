package transcript_test

import (
	"fmt"

	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/transcript"
)

// exampleLog is a turn whose prompt and answer a compaction then shadows on
// the model surface.
const exampleLog = `{"type":"turn/start","seq":0,"time":1000,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1001,"data":{"turn":1,"step":1}}
{"type":"user/message","seq":2,"time":1002,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"Summarize the logs"}],"source":{"kind":"user"}},"surfaceOp":"append"}
{"type":"assistant/message","seq":3,"time":1900,"data":{"turn":1,"step":1,"message":{"id":"a1","role":"assistant","content":[{"type":"text","text":"Reading them now."}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}
{"type":"step/end","seq":4,"time":1901,"data":{"turn":1,"step":1}}
{"type":"compaction/start","seq":5,"time":2000,"data":{"compactionId":"c1","turn":1}}
{"type":"compaction/summary","seq":6,"time":2500,"data":{"compactionId":"c1","summary":[{"type":"text","text":"The user asked for a log summary."}],"shadowedRange":{"start":2,"end":3},"shadowedSeqs":[2,3],"shadowedTokenCount":40,"provider":"p","model":"m"}}
{"type":"user/message","seq":7,"time":2501,"data":{"id":"k1","role":"user","content":[{"type":"text","text":"The user asked for a log summary."}],"source":{"kind":"plugin","plugin":"compact","compactionId":"c1"}},"surfaceOp":{"op":"replace","start":2,"end":3},"sourceEventSeqs":[5,6,2,3]}
{"type":"compaction/end","seq":8,"time":2502,"data":{"compactionId":"c1","turn":1}}
`

// ExampleProject projects a whole log (the replay path): the prompt and the
// answer a person read stay, the compaction adds one marker, and the
// checkpoint's payload renders nothing.
func ExampleProject() {
	log, err := jsonl.ParseLog([]byte(exampleLog), "example.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	t := transcript.Project(log.Events, transcript.Options{})
	for _, it := range t.Items {
		switch it.Kind {
		case transcript.KindPrompt:
			fmt.Printf("%d %s: %s\n", it.ID.Seq, it.Prompt.Header, it.Prompt.Text)
		case transcript.KindStep:
			fmt.Printf("%d step %d/%d: %s\n", it.ID.Seq, it.Step.Turn, it.Step.Step, it.Step.Text())
		case transcript.KindMarker:
			fmt.Printf("%d %s (summary at seq %d)\n", it.ID.Seq, transcript.MarkerText, *it.Marker.SummaryEventSeq)
		default:
			fmt.Printf("%d %s\n", it.ID.Seq, it.Kind)
		}
	}
	// Output:
	// 2 You: Summarize the logs
	// 3 step 1/1: Reading them now.
	// 3 footer
	// 7 … earlier context was compacted … (summary at seq 6)
}
