package history_test

import (
	"fmt"
	"os"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// ExampleHistory pages the example session from the tail back to its
// first event, three counted messages a page, as session.history does.
func ExampleHistory() {
	data, err := os.ReadFile("../sessionlog/testdata/example-session.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	log, err := jsonl.ParseLog(data, "example-session.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	h := history.New(log.Events)
	for before := int64(-1); ; {
		p := h.Page(before, 3)
		fmt.Printf("seqs %d–%d (%d events), more: %v\n", p.From, p.To, len(p.Events), p.HasMore)
		if !p.HasMore {
			break
		}
		before = p.From
	}
	// Output:
	// seqs 25–40 (16 events), more: true
	// seqs 14–24 (11 events), more: true
	// seqs 0–13 (14 events), more: false
}

// ExampleScanPage is the spec's newest-first scan: the same page as
// History.Page, at O(len(events)).
func ExampleScanPage() {
	data, _ := os.ReadFile("../sessionlog/testdata/example-session.jsonl")
	log, err := jsonl.ParseLog(data, "example-session.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	p := history.ScanPage(log.Events, -1, 1)
	fmt.Printf("seqs %d–%d, more: %v\n", p.From, p.To, p.HasMore)
	// Output: seqs 37–40, more: true
}
