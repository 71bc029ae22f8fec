// Command gen writes a generated session log to standard output (or -o): a
// developer's tool for benchmarks and triage, for example the repro of a
// 100k-event log measured as a process.
//
//	go run ./internal/testkit/sessiongen/cmd/gen -n 100000 -seed 1 > /tmp/session.jsonl
//	go run ./internal/testkit/sessiongen/cmd/gen -shape small -n 100000 -header > /tmp/small.jsonl
//	go run ./internal/testkit/sessiongen/cmd/gen -shape tiny -n 1000000 -zstd -o /tmp/tiny.jsonl.zstd
//	go run ./internal/testkit/sessiongen/cmd/gen -shape real -n 100000 -corpus ../shared/corpus/upstream-logs > /tmp/real.jsonl
//
// -shape picks the kind of log (sessiongen.Shape): current (the default
// Config), small, tiny, real (turns replayed from real upstream logs) or
// dense (item-dense: no streamed chunks, a chain of nested compactions).
// -header writes upstream's session header line first; -pack on packs chunk
// runs into upstream's chunk rows (the tiny shape's own form); -zstd writes
// upstream's Zstandard form (a header frame, then a frame per batch), which
// always has the header.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// zstdBatch is the most lines a Zstandard frame holds (a batch also ends
// at every turn/end, as upstream's turn commits do).
const zstdBatch = 256

func main() {
	n := flag.Int("n", 1000, "about this many events")
	seed := flag.Int64("seed", 1, "generator seed")
	shapeName := flag.String("shape", string(sessiongen.ShapeCurrent), "the kind of log: current, small, tiny, real or dense")
	corpus := flag.String("corpus", "../shared/corpus/upstream-logs", "with -shape real: the directory of real upstream logs")
	header := flag.Bool("header", false, "write upstream's session header line first")
	pack := flag.String("pack", "shape", "pack runs of streamed chunks into upstream's chunk rows: shape (the shape's own form), on or off")
	compress := flag.Bool("zstd", false, "write upstream's Zstandard form (.jsonl.zstd; implies -header)")
	out := flag.String("o", "", "write to this file instead of standard output")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gen [-shape SHAPE] [-n EVENTS] [-seed N] [-header] [-zstd] [-o FILE]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || *n <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *pack != "shape" && *pack != "on" && *pack != "off" {
		fmt.Fprintf(os.Stderr, "gen: -pack %q: want shape, on or off\n", *pack)
		os.Exit(2)
	}
	if err := run(*shapeName, *n, *seed, *corpus, form{header: *header || *compress, pack: *pack, zstd: *compress}, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// form is how the log is written.
type form struct {
	header, zstd bool
	pack         string // "shape", "on" or "off"
}

func run(shapeName string, n int, seed int64, corpus string, f form, out string) error {
	shape, err := sessiongen.ParseShape(shapeName)
	if err != nil {
		return err
	}
	var events []sessionlog.Event
	if cfg, ok := shape.Config(n); ok {
		events = sessiongen.Generate(seed, cfg)
	} else if events, err = sessiongen.Real(seed, n, corpus); err != nil {
		return err
	}
	var w io.Writer = os.Stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	var text []byte
	if f.header {
		text = append(headerLine(seed, events), '\n')
	}
	if f.pack == "on" || f.pack == "shape" && shape.Packed() {
		text, err = jsonl.AppendPacked(text, events)
	} else {
		for i := range events {
			if text, err = jsonl.AppendEvent(text, &events[i]); err != nil {
				break
			}
			text = append(text, '\n')
		}
	}
	if err != nil {
		return err
	}
	if f.zstd {
		text = logforms.Zstd(logforms.SplitLines(text), zstdBatch)
	}
	_, err = w.Write(text)
	return err
}

// headerLine is upstream's session header (containers.md §1) for a
// generated log: format version 0, created at the first event's time.
func headerLine(seed int64, events []sessionlog.Event) []byte {
	var created int64
	if len(events) > 0 {
		created = events[0].Time
	}
	return []byte(`{"type":"session","version":0,"id":"gen-` + strconv.FormatInt(seed, 10) +
		`","createdAt":` + strconv.FormatInt(created, 10) + `,"cwd":"/work/gen"}`)
}
