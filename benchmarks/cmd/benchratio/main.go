// Command benchratio reads `go test -bench` output (benchstat's input
// format, as `make bench` writes bench/latest.txt) and prints the table of
// cost ratios that the benchmarks package exists for: how the cost of an
// operation grows with the session, and how much faster each operation is
// than its naive baseline.
//
//	go run ./benchmarks/cmd/benchratio bench/latest.txt
//
// Each figure is the median over the -count runs. CPU time (cpu-ns/op,
// cpu-ns/event) is used where the benchmark reports it, wall time
// otherwise; ratios compare benchmarks of one run, never absolute times
// across runs. A ratio with a target is marked ok or MISS; the exit status
// is 0 either way (a missing benchmark is reported as "n/a"), so that the
// table is always printed.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	in := io.Reader(os.Stdin)
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: benchratio [BENCH.txt]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchratio:", err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	}
	res, err := parse(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(2)
	}
	fmt.Print(table(res))
}

// results maps "pkg-suffix.BenchmarkName/sub" to unit to the values of
// every run, in order.
type results map[string]map[string][]float64

// parse reads benchmark lines; "pkg:" lines qualify the names that follow
// with the last element of the package path. A -N GOMAXPROCS suffix is
// dropped.
func parse(r io.Reader) (results, error) {
	res := results{}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p[strings.LastIndexByte(p, '/')+1:]
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		key := pkg + "." + name
		if res[key] == nil {
			res[key] = map[string][]float64{}
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: bad value %q", f[0], f[i])
			}
			res[key][f[i+1]] = append(res[key][f[i+1]], v)
		}
	}
	return res, sc.Err()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// get returns the median of the first unit the benchmark reports among
// units, and whether it had one.
func (r results) get(name string, units ...string) (float64, bool) {
	m := r[name]
	for _, u := range units {
		if v := m[u]; len(v) > 0 {
			return median(v), true
		}
	}
	return 0, false
}

// perOp is an op's cost: CPU time if reported, else wall time.
func (r results) perOp(name string) (float64, bool) { return r.get(name, "cpu-ns/op", "ns/op") }

// perEvent is an op's cost per event of the log.
func (r results) perEvent(name string) (float64, bool) {
	return r.get(name, "cpu-ns/event", "ns/event")
}

const pkg = "benchmarks."

// row is one line of the table.
type row struct {
	what, value, target, verdict string
}

// ratioRow compares a/b against an upper bound.
func ratioRow(what string, a, b float64, okA, okB bool, limit float64, format func(float64) string, target string) row {
	if !okA || !okB || b == 0 {
		return row{what, "n/a", target, ""}
	}
	v := a / b
	verdict := "ok"
	if v > limit {
		verdict = "MISS"
	}
	return row{what, format(v), target, verdict}
}

func times(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

func percent(v float64) string {
	p := 100 * v
	if p < 0.01 {
		return "<0.01%"
	}
	return strconv.FormatFloat(p, 'g', 2, 64) + "%"
}

// speedup formats a baseline/product ratio.
func speedup(v float64) string {
	if v >= 10 {
		return strconv.FormatFloat(v, 'f', 0, 64) + "×"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "×"
}

// table computes the ratios and formats them as a Markdown table.
func table(r results) string {
	var rows []row
	la, okLa := r.perOp(pkg + "BenchmarkLiveAppend/events=100k")
	lb, okLb := r.perOp(pkg + "BenchmarkLiveAppend/events=1k")
	rows = append(rows, ratioRow("live append, 100k ÷ 1k events (per op)", la, lb, okLa, okLb, 1.2, times, "≤ 1.2"))
	ma, okMa := r.perEvent(pkg + "BenchmarkMount/events=100k")
	mb, okMb := r.perEvent(pkg + "BenchmarkMount/events=1k")
	rows = append(rows, ratioRow("mount per event, 100k ÷ 1k events", ma, mb, okMa, okMb, 1.3, times, "≤ 1.3"))
	tg, okTg := r.perOp(pkg + "BenchmarkToggleReasoning/events=100k")
	mo, okMo := r.perOp(pkg + "BenchmarkMount/events=100k")
	rows = append(rows, ratioRow("reasoning toggle at 100k, % of mount", tg, mo, okTg, okMo, 0.05, percent, "≤ 5%"))
	ha, okHa := r.perOp(pkg + "BenchmarkHistoryPage/events=1M")
	hb, okHb := r.perOp(pkg + "BenchmarkHistoryPage/events=10k")
	rows = append(rows, ratioRow("history page, 1M ÷ 10k events", ha, hb, okHa, okHb, 1.5, times, "≤ 1.5"))

	for _, b := range []struct{ name, what string }{
		{"Mount", "mount"},
		{"LiveAppend", "live append"},
		{"ToggleReasoning", "reasoning toggle"},
		{"Resize", "resize"},
		{"HistoryPage", "history page"},
	} {
		sizes := []string{"1k", "10k", "100k"}
		if b.name == "HistoryPage" {
			sizes = append(sizes, "1M")
		}
		var vals []string
		for _, s := range sizes {
			p, okP := r.perOp(pkg + "Benchmark" + b.name + "/events=" + s)
			n, okN := r.perOp(pkg + "Benchmark" + b.name + "/naive/events=" + s)
			if !okP || !okN || p == 0 {
				vals = append(vals, "n/a")
				continue
			}
			vals = append(vals, speedup(n/p))
		}
		rows = append(rows, row{b.what + " vs naive, speed-up at " + strings.Join(sizes, " / "), strings.Join(vals, " / "), "", ""})
	}
	// Repro's scaling has no target (its target is absolute, as a
	// process); it reports wall time, which perEvent falls back to.
	ra, okRa := r.perEvent("cli.BenchmarkRepro/events=100k")
	rb, okRb := r.perEvent("cli.BenchmarkRepro/events=1k")
	if okRa && okRb && rb > 0 {
		rows = append(rows, row{"repro per event, 100k ÷ 1k events", times(ra / rb), "", ""})
	}
	if v, ok := r.get("cli.BenchmarkRepro/events=100k", "ns/op"); ok {
		rows = append(rows, row{"repro of a 100k-event log, in-process (s/op)", strconv.FormatFloat(v/1e9, 'f', 2, 64), "< 3 s as a process", ""})
	}

	var b strings.Builder
	w := []int{len("measure"), len("value"), len("target"), len("")}
	for _, r := range rows {
		w[0] = max(w[0], runeLen(r.what))
		w[1] = max(w[1], runeLen(r.value))
		w[2] = max(w[2], runeLen(r.target))
		w[3] = max(w[3], runeLen(r.verdict))
	}
	line := func(c ...string) {
		b.WriteString("|")
		for i, s := range c {
			b.WriteString(" " + s + strings.Repeat(" ", w[i]-runeLen(s)) + " |")
		}
		b.WriteString("\n")
	}
	line("measure", "value", "target", "")
	line(strings.Repeat("-", w[0]), strings.Repeat("-", w[1]), strings.Repeat("-", w[2]), strings.Repeat("-", w[3]))
	for _, r := range rows {
		line(r.what, r.value, r.target, r.verdict)
	}
	return b.String()
}

func runeLen(s string) int { return len([]rune(s)) }
