package main

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dshtest/dshtest/benchmarks/internal/targets"
)

// run is one process's figures.
type run struct {
	wall         time.Duration
	rss          int64
	exit, signal int
	stderr       string // its first line
	err          string // the runner could not run or time it
}

// result is one cell of the table: one command on one log.
type result struct {
	Shape   string
	Size    int    // the size asked for, in events
	Form    string // raw or zstd
	Events  int    // the events the reader decoded; 0: unknown
	File    int64  // this form's file size
	Raw     int64  // the raw form's size, the RSS budgets' base
	Command string // cat, decode, check, render, history, repro, repro-one, view, "view keys"; gen for a log not made
	Wall    time.Duration
	// Walls are the wall times of the cell's runs, one a round, in round
	// order; nil when a run failed. A ratio of two cells run in the same
	// rounds is worked out round by round (pairedRatio).
	Walls   []time.Duration
	RSS     int64 // 0: not measured
	Outcome string
	Note    string
}

// set records a process's figures and its outcome.
func (r *result) set(p run) {
	r.Wall, r.RSS, r.Outcome = p.wall, p.rss, outcome(r.Command, p)
}

// outcome is a process's verdict: ok, FAIL (repro exits 1 when an
// invariant failed: a verdict about the log, and its figures stand) or
// an error, whose figures are not compared.
func outcome(command string, p run) string {
	switch {
	case p.err != "":
		return "error: " + oneLine(p.err)
	case p.signal != 0:
		return "error: killed by signal " + strconv.Itoa(p.signal)
	case p.exit == 0:
		return "ok"
	case (command == "repro" || command == "repro-one") && p.exit == 1:
		return "FAIL"
	}
	s := "error: exit status " + strconv.Itoa(p.exit)
	if p.stderr != "" {
		s += ": " + p.stderr
	}
	return s
}

// summarize is runs' median wall time and largest peak RSS.
func summarize(runs []run) run {
	r := runs[0]
	walls := make([]time.Duration, len(runs))
	for i, x := range runs {
		walls[i] = x.wall
		r.rss = max(r.rss, x.rss)
	}
	r.wall = median(walls)
	return r
}

// summarizeView is the median of each of view's times and the largest
// peak RSS.
func summarizeView(all []viewResult) viewResult {
	v := all[0]
	var first, read []time.Duration
	for _, x := range all {
		first, read = append(first, x.firstScreen), append(read, x.read)
		v.rep.MaxRSS = max(v.rep.MaxRSS, x.rep.MaxRSS)
	}
	v.firstScreen, v.read = median(first), median(read)
	v.keys = slices.Clone(v.keys)
	for k := range v.keys {
		var ds []time.Duration
		for _, x := range all {
			ds = append(ds, x.keys[k])
		}
		v.keys[k] = median(ds)
	}
	return v
}

// median is the middle value (the lower middle of an even count, a time
// that was measured).
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// runsFor is how many runs measure a cell of a size-event log: count, or
// by default (count 0) 15 up to 20k events, 5 up to 200k, 3 above. A run on
// a small log takes tens or hundreds of milliseconds, and this machine's
// noise is a quarter of that: with 5 and 3 runs, zstd ÷ raw of check came
// out at 1.21 (10k real) and 1.43 (100k small), where 15 and 8 runs
// interleaved by hand gave 1.00 and 1.09; with 9 runs at 10k, 1.28 (small
// check) and 1.30 (tiny view), where 15, the forms' order alternating,
// gave 1.06 and 0.99. A 1M-event log timed once gave zstd ÷ raw of 1.24
// (small history), 1.21 (tiny repro) and 1.22 (dense repro), where 5, 5
// and 3 rounds by hand gave 1.04, 1.06 and 1.14.
func runsFor(count, size int) int {
	switch {
	case count > 0:
		return count
	case size <= 20000:
		return 15
	case size <= 200000:
		return 5
	}
	return 3
}

// runsPhrase says how many runs each figure is of.
func runsPhrase(count int) string {
	switch count {
	case 0:
		return "each figure the median wall time and the largest peak RSS of 15 runs up to 20k events, 5 up to 200k, 3 above"
	case 1:
		return "one run per cell"
	}
	return "each figure the median wall time and the largest peak RSS of " + strconv.Itoa(count) + " runs"
}

// measured reports whether r's figures count.
func (r *result) measured() bool { return r != nil && (r.Outcome == "ok" || r.Outcome == "FAIL") }

// events is r's event count: the decoded count, else the size asked for.
func (r *result) events() int {
	if r.Events > 0 {
		return r.Events
	}
	return r.Size
}

// mark is a verdict against a target.
func mark(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISSED"
}

// wallTarget is the wall-time target of r, with its verdict, or "—".
func wallTarget(r *result) string {
	var limit time.Duration
	var what string
	reproLimit, reproOK := targets.ReproWall(r.Shape, r.Size)
	switch {
	case r.Command == "repro" && reproOK:
		limit, what = reproLimit, "≤ "+formatDuration(reproLimit)
	case r.Command == "view":
		limit, what = targets.FirstScreen, "≤ "+formatDuration(targets.FirstScreen)
	case r.Command == "view keys":
		limit, what = targets.Key, "≤ "+formatDuration(targets.Key)+" each"
	default:
		return "—"
	}
	if !r.measured() {
		return what + " n/a"
	}
	return what + " " + mark(r.Wall <= limit)
}

// rssTarget is the peak-RSS budget of r, with its verdict, or "—".
func rssTarget(r *result) string {
	budget, ok := targets.RSSBudget(r.Command, r.Raw)
	if !ok || r.Raw == 0 {
		return "—"
	}
	what := "≤ " + formatBytes(budget)
	if !r.measured() || r.RSS == 0 {
		return what + " n/a"
	}
	return what + " " + mark(r.RSS <= budget)
}

// cellTable is every cell, in the order measured.
func cellTable(results []result) string {
	rows := [][]string{{"shape", "events", "form", "file", "command", "wall", "wall target", "peak RSS", "RSS ÷ raw", "RSS target", "result"}}
	for i := range results {
		r := &results[i]
		events := "~" + groupDigits(r.Size)
		if r.Events > 0 {
			events = groupDigits(r.Events)
		}
		file, wall, rss, perRaw := "—", "—", "—", "—"
		if r.File > 0 {
			file = formatBytes(r.File)
		}
		if r.Command != "gen" && (r.Wall > 0 || r.measured()) {
			wall = formatDuration(r.Wall)
		}
		if r.RSS > 0 {
			rss = formatBytes(r.RSS)
			if r.Raw > 0 {
				perRaw = strconv.FormatFloat(float64(r.RSS)/float64(r.Raw), 'f', 2, 64) + "×"
			}
		}
		res := r.Outcome
		if r.Note != "" {
			res += " (" + r.Note + ")"
		}
		rows = append(rows, []string{r.Shape, events, r.Form, file, r.Command, wall, wallTarget(r), rss, perRaw, rssTarget(r), res})
	}
	return markdown(rows)
}

// index finds cells by shape, size, form and command.
type index map[[4]string]*result

func newIndex(results []result) index {
	ix := index{}
	for i := range results {
		r := &results[i]
		ix[[4]string{r.Shape, strconv.Itoa(r.Size), r.Form, r.Command}] = r
	}
	return ix
}

func (ix index) get(shape string, size int, form, command string) *result {
	return ix[[4]string{shape, strconv.Itoa(size), form, command}]
}

// ratioCommands are the commands whose ratios are reported: the floor
// (no target: it shows what the commands' ratios can be at best) and
// dshtest's. view is its time to first screen; repro-one, a diagnostic,
// has no target either.
var ratioCommands = []string{"cat", "decode", "check", "render", "history", "repro", "repro-one", "view"}

// ratioTable is, for each shape: the cost per event on each larger size
// over the smallest, for each form and command; render ÷ one decode pass
// and repro ÷ one decode pass,
// for each size and form, and where repro-one was measured its split: repro
// at one size ÷ the decode pass, and what each further size adds ÷ the
// decode pass, so that repro ÷ decode is the first plus reproSizes−1 times
// the second; zstd ÷ raw wall time, for each size and command.
func ratioTable(results []result) string {
	ix := newIndex(results)
	var shapes, forms []string
	var sizes []int
	for _, r := range results {
		if !slices.Contains(shapes, r.Shape) {
			shapes = append(shapes, r.Shape)
		}
		if !slices.Contains(forms, r.Form) {
			forms = append(forms, r.Form)
		}
		if !slices.Contains(sizes, r.Size) {
			sizes = append(sizes, r.Size)
		}
	}
	slices.Sort(sizes)
	rows := [][]string{{"shape", "form", "command", "ratio", "value", "target", ""}}
	add := func(shape, form, command, ratio string, a, b *result, value func(a, b *result) float64, limit float64) {
		if a == nil && b == nil {
			return // neither measured: not asked for
		}
		target, verdict, v := "—", "", "n/a"
		if limit > 0 {
			target = "≤ " + strconv.FormatFloat(limit, 'f', -1, 64)
		}
		if a.measured() && b.measured() && b.Wall > 0 {
			x := value(a, b)
			v = strconv.FormatFloat(x, 'f', 2, 64)
			if limit > 0 {
				verdict = mark(x <= limit)
			}
		} else if limit > 0 {
			verdict = "n/a"
		}
		rows = append(rows, []string{shape, form, command, ratio, v, target, verdict})
	}
	perEvent := func(a, b *result) float64 {
		return float64(a.Wall) / float64(a.events()) / (float64(b.Wall) / float64(b.events()))
	}
	limitFor := func(command string, limit float64) float64 {
		if command == "cat" || command == "decode" || command == "repro-one" {
			return 0
		}
		return limit
	}
	for _, shape := range shapes {
		lo := sizes[0]
		for _, hi := range sizes[1:] {
			ratio := "per event, " + sizeLabel(hi) + " ÷ " + sizeLabel(lo)
			for _, form := range forms {
				for _, c := range ratioCommands {
					add(shape, form, c, ratio, ix.get(shape, hi, form, c), ix.get(shape, lo, form, c), perEvent, limitFor(c, targets.PerEventRatio))
				}
			}
		}
		for _, size := range sizes {
			for _, form := range forms {
				repro, one, decode := ix.get(shape, size, form, "repro"), ix.get(shape, size, form, "repro-one"), ix.get(shape, size, form, "decode")
				if render := ix.get(shape, size, form, "render"); render != nil {
					add(shape, form, "render", "render ÷ decode pass, "+sizeLabel(size), render, decode, pairedRatio, targets.RenderDecodeRatio)
				}
				add(shape, form, "repro", "repro ÷ decode pass, "+sizeLabel(size), repro, decode, pairedRatio, targets.ReproDecodeRatio)
				if one == nil {
					continue
				}
				add(shape, form, "repro-one", "one size ÷ decode pass, "+sizeLabel(size), one, decode, pairedRatio, 0)
				if !decode.measured() || decode.Wall <= 0 {
					one = nil // no ratio to a decode pass there is not
				}
				// What each size after the first adds to repro (a) over
				// repro-one (b), divided by the decode pass.
				furtherSize := func(a, b *result) float64 {
					return float64(a.Wall-b.Wall) / (reproSizes - 1) / float64(decode.Wall)
				}
				add(shape, form, "repro", "each further size ÷ decode pass, "+sizeLabel(size), repro, one, furtherSize, 0)
			}
		}
		if slices.Contains(forms, "raw") && slices.Contains(forms, "zstd") {
			for _, size := range sizes {
				for _, c := range ratioCommands {
					add(shape, "zstd ÷ raw", c, "wall, "+sizeLabel(size),
						ix.get(shape, size, "zstd", c), ix.get(shape, size, "raw", c), pairedRatio, limitFor(c, targets.ZstdRawRatio))
				}
			}
		}
	}
	if len(rows) == 1 {
		return ""
	}
	return markdown(rows)
}

// pairedRatio is a's wall time over b's, for two cells run in the same
// rounds (runOrder puts them side by side in each): the median of the
// rounds' ratios, which a change of the machine's speed from one round to
// the next moves less than it moves the ratio of the two medians. Cells
// whose rounds do not pair up (a run failed) give the ratio of their
// medians.
func pairedRatio(a, b *result) float64 {
	if len(a.Walls) == 0 || len(a.Walls) != len(b.Walls) || slices.Contains(b.Walls, 0) {
		return float64(a.Wall) / float64(b.Wall)
	}
	rs := make([]float64, len(a.Walls))
	for i := range rs {
		rs[i] = float64(a.Walls[i]) / float64(b.Walls[i])
	}
	slices.Sort(rs)
	return rs[(len(rs)-1)/2] // as median: the lower middle of an even count
}

// markdown formats rows (the first is the header) as a Markdown table
// with padded columns.
func markdown(rows [][]string) string {
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], runeLen(c))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for i, c := range cells {
			b.WriteString(" " + c + strings.Repeat(" ", w[i]-runeLen(c)) + " |")
		}
		b.WriteString("\n")
	}
	line(rows[0])
	rule := make([]string, len(w))
	for i := range w {
		rule[i] = strings.Repeat("-", max(w[i], 1))
	}
	line(rule)
	for _, r := range rows[1:] {
		line(r)
	}
	return b.String()
}

func runeLen(s string) int { return len([]rune(s)) }

// formatDuration is a wall time: milliseconds below a second, else
// seconds.
func formatDuration(d time.Duration) string {
	ms := float64(d) / 1e6
	switch {
	case d <= 0:
		return "—"
	case ms < 9.95:
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	case ms < 999.5:
		return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}

// formatBytes is a size in MiB (KiB below one MiB, bytes below one KiB).
func formatBytes(n int64) string {
	switch {
	case n <= 0:
		return "—"
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 0, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// sizeLabel is a size as the targets name it: 10k, 100k, 1M.
func sizeLabel(n int) string {
	switch {
	case n >= 1000000 && n%1000000 == 0:
		return strconv.Itoa(n/1000000) + "M"
	case n >= 1000 && n%1000 == 0:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// groupDigits writes n with thousands separators.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
