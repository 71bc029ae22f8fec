// Package benchmarks puts numbers on the cost of the product: mounting the
// terminal on a stored log, appending a live event, toggling reasoning,
// resizing and paging session.history, at session lengths of 1k, 10k and
// 100k events (and 1M for paging). The package holds no code, only
// benchmarks (bench_test.go) and the test that proves each baseline
// computes what the product computes.
//
// Every benchmark keeps its naive baseline next to it, as a sub-benchmark
// named naive/events=N: what upstream did, or what a straightforward
// implementation would do.
//
//   - Mount: the product replays the log and draws the first screen
//     through the per-item cache; naive is upstream's rebuildTranscript,
//     projecting the whole log and rendering every item of the document.
//   - LiveAppend: the product feeds one event through EventMsg and draws
//     the next screen; naive rebuilds the whole transcript and renders the
//     whole document per event. (The first live event after a mount also
//     primes the live projector with the log, a one-off projection pass
//     left out of the per-event figure.)
//   - ToggleReasoning and Resize: the product re-renders about a screenful;
//     naive re-projects and re-renders everything (toggle) or re-renders
//     every item (resize).
//   - history.ScanPage: the product indexes the log once (history.History)
//     and answers a page in O(1); naive is history.ScanPage, the
//     spec's scan of the log per page.
//
// The logs come from internal/testkit/sessiongen (GenerateN), generated once per
// size and cached for the test binary. Per-event benchmarks report
// ns/event; every benchmark also reports process CPU time (cpu-ns/op,
// cpu-ns/event), which is the steadier figure on a shared machine. Compare
// sizes within one run, as ratios: `make bench` runs the suite with -cpu 1
// and prints the table of ratios with benchmarks/cmd/benchratio.
//
// The repro benchmark (BenchmarkRepro, the CLI's repro flow on a JSONL
// file of 1k, 10k and 100k events) lives in cmd/dshtest/internal/cli, the
// only place that can import that internal package; benchratio reads it
// from the same run. It has no naive baseline: its parts (mount, live
// append, history pages) have theirs above, and its target is absolute
// (under 3 s and 4× the file's size in memory, as a process: make
// bench-repro).
package benchmarks
