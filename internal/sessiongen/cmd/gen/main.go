// Command gen writes a generated session log as JSONL to standard output: a
// developer's tool for benchmarks and triage (for example the repro of a
// 100k-event log, measured as a process).
//
//	go run ./internal/sessiongen/cmd/gen -n 100000 -seed 1 > /tmp/session.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/dshtest/dshtest/internal/sessiongen"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

func main() {
	n := flag.Int("n", 1000, "about this many events (sessiongen.GenerateN)")
	seed := flag.Int64("seed", 1, "generator seed")
	flag.Parse()
	if flag.NArg() != 0 || *n <= 0 {
		fmt.Fprintln(os.Stderr, "usage: gen [-n EVENTS] [-seed N] > LOG.jsonl")
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	err := jsonl.WriteLog(w, sessiongen.GenerateN(*seed, *n))
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
