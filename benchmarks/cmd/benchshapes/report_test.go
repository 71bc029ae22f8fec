package main

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestOutcome(t *testing.T) {
	for _, tt := range []struct {
		command string
		run     run
		want    string
	}{
		{"check", run{}, "ok"},
		{"repro", run{exit: 1, stderr: "invariant live≡replay failed"}, "FAIL"},
		{"check", run{exit: 1, stderr: "log.jsonl:3: bad seq"}, "error: exit status 1: log.jsonl:3: bad seq"},
		{"render", run{exit: 2}, "error: exit status 2"},
		{"repro", run{exit: 2, stderr: "usage"}, "error: exit status 2: usage"},
		{"history", run{signal: 9}, "error: killed by signal 9"},
		{"repro", run{err: "killed after 15m0s", exit: 1}, "error: killed after 15m0s"},
		{"repro-one", run{exit: 1}, "FAIL"},
		{"repro-one", run{exit: 2}, "error: exit status 2"},
	} {
		if got := outcome(tt.command, tt.run); got != tt.want {
			t.Errorf("outcome(%q, %+v) = %q, want %q", tt.command, tt.run, got, tt.want)
		}
	}
}

func TestTargets(t *testing.T) {
	const mib = 1 << 20
	for _, tt := range []struct {
		name      string
		r         result
		wall, rss string
	}{
		{"repro small 100k missed", result{Shape: "small", Size: 100000, Command: "repro", Wall: 5800 * time.Millisecond, RSS: 153 * mib, Raw: 22 * mib, Outcome: "ok"},
			"≤ 1.00 s MISSED", "≤ 64.0 MiB MISSED"},
		{"repro dense 100k", result{Shape: "dense", Size: 100000, Command: "repro", Wall: 1900 * time.Millisecond, RSS: 100 * mib, Raw: 40 * mib, Outcome: "ok"},
			"≤ 2.00 s ok", "≤ 80.0 MiB MISSED"},
		{"repro FAIL keeps its figures", result{Shape: "small", Size: 100000, Command: "repro", Wall: 900 * time.Millisecond, RSS: 60 * mib, Raw: 22 * mib, Outcome: "FAIL"},
			"≤ 1.00 s ok", "≤ 64.0 MiB ok"},
		{"repro of another shape has no wall target", result{Shape: "tiny", Size: 100000, Command: "repro", Wall: 9 * time.Second, RSS: 10 * mib, Raw: 10 * mib, Outcome: "ok"},
			"—", "≤ 64.0 MiB ok"},
		{"check 2×", result{Shape: "tiny", Size: 1000000, Command: "check", RSS: 748 * mib, Raw: 133 * mib, Outcome: "ok"},
			"—", "≤ 266.0 MiB MISSED"},
		{"error", result{Shape: "tiny", Size: 1000, Command: "render", Raw: 133 * mib, Outcome: "error: exit status 2"},
			"—", "≤ 266.0 MiB n/a"},
		{"view", result{Shape: "real", Size: 1000000, Command: "view", Wall: 1600 * time.Millisecond, RSS: 900 * mib, Raw: 97 * mib, Outcome: "ok"},
			"≤ 500 ms MISSED", "≤ 194.0 MiB MISSED"},
		{"view keys", result{Shape: "real", Size: 1000000, Command: "view keys", Wall: 50 * time.Millisecond, Outcome: "ok"},
			"≤ 50 ms each ok", "—"},
		{"floor", result{Shape: "real", Size: 1000000, Command: "decode", Wall: time.Second, RSS: 900 * mib, Raw: 97 * mib, Outcome: "ok"},
			"—", "—"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := wallTarget(&tt.r); got != tt.wall {
				t.Errorf("wall target %q, want %q", got, tt.wall)
			}
			if got := rssTarget(&tt.r); got != tt.rss {
				t.Errorf("RSS target %q, want %q", got, tt.rss)
			}
		})
	}
}

// cells builds the results of one shape: every command at 10k and 1M
// events, raw and zstd, wall times per event given by cost.
func cells(shape string, cost func(size int, form, command string) time.Duration) []result {
	var out []result
	for _, size := range []int{10000, 1000000} {
		for _, form := range []string{"raw", "zstd"} {
			for _, c := range ratioCommands {
				out = append(out, result{Shape: shape, Size: size, Form: form, Events: size + 8, Raw: int64(size) * 200,
					Command: c, Wall: cost(size, form, c) * time.Duration(size+8), Outcome: "ok"})
			}
		}
	}
	return out
}

func TestRatioTable(t *testing.T) {
	res := cells("small", func(size int, form, command string) time.Duration {
		d := time.Microsecond
		if command == "repro" {
			d *= 10 // 10× the decode pass
			if size == 1000000 {
				d = 14 * time.Microsecond // 1.4× per event
			}
		}
		if command == "repro-one" {
			d *= 4 // so each further size adds 3× the decode pass at 10k, 5× at 1M
		}
		if form == "zstd" && command == "check" {
			d += d / 10 // 1.1× raw
		}
		if form == "zstd" && command == "history" && size == 10000 {
			d *= 2
		}
		return d
	})
	// A repro that failed its invariants keeps its ratio; a view that
	// errored has none.
	for i := range res {
		r := &res[i]
		if r.Command == "repro" && r.Size == 10000 && r.Form == "raw" {
			r.Outcome = "FAIL"
		}
		if r.Command == "view" && r.Size == 1000000 && r.Form == "zstd" {
			r.Outcome = "error: view: first screen: no settled screen"
		}
	}
	out := ratioTable(res)
	checkRows(t, "ratio table", out,
		"| small | raw        | repro   | per event, 1M ÷ 10k     | 1.40  | ≤ 1.3  | MISSED |",
		"| small | raw        | check   | per event, 1M ÷ 10k     | 1.00  | ≤ 1.3  | ok     |",
		"| small | raw        | decode  | per event, 1M ÷ 10k     | 1.00  | —      |        |",
		"| small | zstd       | view    | per event, 1M ÷ 10k     | n/a   | ≤ 1.3  | n/a    |",
		"| small | raw        | repro   | repro ÷ decode pass, 10k | 10.00 | ≤ 6    | MISSED |",
		"| small | raw        | repro   | repro ÷ decode pass, 1M  | 14.00 | ≤ 6    | MISSED |",
		"| small | zstd ÷ raw | check   | wall, 1M                | 1.10  | ≤ 1.2  | ok     |",
		"| small | zstd ÷ raw | history | wall, 10k               | 2.00  | ≤ 1.2  | MISSED |",
		"| small | zstd ÷ raw | cat     | wall, 10k               | 1.00  | —      |        |",
		"| small | raw | repro-one | one size ÷ decode pass, 10k | 4.00 | — | |",
		"| small | raw | repro | each further size ÷ decode pass, 10k | 3.00 | — | |",
		"| small | zstd | repro | each further size ÷ decode pass, 1M | 5.00 | — | |",
		"| small | raw | repro-one | per event, 1M ÷ 10k | 1.00 | — | |",
		"| small | zstd ÷ raw | repro-one | wall, 1M | 1.00 | — | |",
	)
	checkRectangular(t, out)
}

func TestRatioTableOneSizeOneForm(t *testing.T) {
	res := []result{
		{Shape: "tiny", Size: 10000, Form: "raw", Command: "decode", Wall: time.Second, Outcome: "ok"},
		{Shape: "tiny", Size: 10000, Form: "raw", Command: "repro", Wall: 3 * time.Second, Outcome: "ok"},
	}
	out := ratioTable(res)
	if strings.Contains(out, "per event") || strings.Contains(out, "zstd ÷ raw") {
		t.Errorf("ratios that need two sizes or both forms:\n%s", out)
	}
	if !hasRow(out, "| tiny | raw | repro | repro ÷ decode pass, 10k | 3.00 | ≤ 6 | ok |") {
		t.Errorf("no repro ÷ decode row:\n%s", out)
	}
	if strings.Contains(out, "one size") || strings.Contains(out, "further size") {
		t.Errorf("repro's split without repro-one measured:\n%s", out)
	}
}

func TestRatioTableReproSplit(t *testing.T) {
	res := []result{
		{Shape: "current", Size: 100000, Form: "raw", Command: "decode", Wall: 200 * time.Millisecond, Outcome: "ok"},
		{Shape: "current", Size: 100000, Form: "raw", Command: "repro", Wall: 3 * time.Second, Outcome: "ok"},
		{Shape: "current", Size: 100000, Form: "raw", Command: "repro-one", Wall: 1800 * time.Millisecond, Outcome: "FAIL"},
		{Shape: "current", Size: 100000, Form: "zstd", Command: "decode", Outcome: "error: exit status 1"},
		{Shape: "current", Size: 100000, Form: "zstd", Command: "repro", Wall: 3 * time.Second, Outcome: "ok"},
		{Shape: "current", Size: 100000, Form: "zstd", Command: "repro-one", Wall: 1800 * time.Millisecond, Outcome: "ok"},
	}
	out := ratioTable(res)
	checkRows(t, "ratio table", out,
		// 3 s = 1.8 s + 2 × 0.6 s: 15 = 9 + 2 × 3 decode passes.
		"| current | raw | repro | repro ÷ decode pass, 100k | 15.00 | ≤ 6 | MISSED |",
		"| current | raw | repro-one | one size ÷ decode pass, 100k | 9.00 | — | |",
		"| current | raw | repro | each further size ÷ decode pass, 100k | 3.00 | — | |",
		// No decode pass, no ratio to it.
		"| current | zstd | repro-one | one size ÷ decode pass, 100k | n/a | — | |",
		"| current | zstd | repro | each further size ÷ decode pass, 100k | n/a | — | |",
	)
	checkRectangular(t, out)
}

func TestCommandArgs(t *testing.T) {
	for _, tt := range []struct{ step, want string }{
		{"check", "check l.jsonl"},
		{"repro", "repro l.jsonl"},
		{"repro-one", "repro --size 80x24 l.jsonl"},
	} {
		if got := strings.Join(commandArgs(tt.step, "l.jsonl"), " "); got != tt.want {
			t.Errorf("commandArgs(%q) = %s, want %s", tt.step, got, tt.want)
		}
	}
}

func TestCellTable(t *testing.T) {
	const mib = 1 << 20
	res := []result{
		{Shape: "small", Size: 100000, Form: "raw", Events: 100008, File: 22 * mib, Raw: 22 * mib, Command: "repro",
			Wall: 5800 * time.Millisecond, RSS: 153 * mib, Outcome: "ok"},
		{Shape: "small", Size: 100000, Form: "zstd", Events: 100008, File: 5 * mib, Raw: 22 * mib, Command: "check",
			Wall: 800 * time.Millisecond, RSS: 30 * mib, Outcome: "ok"},
		{Shape: "small", Size: 100000, Form: "raw", Events: 100008, Command: "view keys", Wall: 62 * time.Millisecond,
			Outcome: "ok", Note: "ctrl+o 62 ms, pgup 3.0 ms, end 2.5 ms"},
		{Shape: "real", Size: 10000, Form: "raw", Command: "gen", Outcome: "error: gen: sessiongen: real shape not built yet"},
	}
	out := cellTable(res)
	checkRows(t, "cell table", out,
		"| small | 100,008 | raw  | 22.0 MiB | repro     | 5.80 s | ≤ 1.00 s MISSED      | 153.0 MiB | 6.95×     | ≤ 64.0 MiB MISSED |",
		"| small | 100,008 | zstd | 5.0 MiB  | check     | 800 ms | —                    | 30.0 MiB  | 1.36×     | ≤ 64.0 MiB ok     |",
		"| view keys | 62 ms | ≤ 50 ms each MISSED | — | — | — | ok (ctrl+o 62 ms, pgup 3.0 ms, end 2.5 ms) |",
		"| real  | ~10,000 | raw  | —        | gen       | —      | —                    | —         | —         | —                 | error: gen: sessiongen: real shape not built yet |",
	)
	checkRectangular(t, out)
}

// checkRows fails t for each of want that is not a row of table (hasRow).
func checkRows(t *testing.T, name, table string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !hasRow(table, w) {
			t.Errorf("%s lacks\n%s\nin\n%s", name, w, table)
		}
	}
}

// hasRow reports whether table has a row holding the cells of want, a
// row of the same columns or its tail, padding aside.
func hasRow(table, want string) bool {
	w := squeeze(want)
	for _, l := range strings.Split(table, "\n") {
		if strings.HasSuffix(squeeze(l), w) || strings.HasPrefix(squeeze(l), w) {
			return true
		}
	}
	return false
}

func squeeze(row string) string { return strings.Join(strings.Fields(row), " ") }

func checkRectangular(t *testing.T, table string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	for _, l := range lines {
		if runeLen(l) != runeLen(lines[0]) {
			t.Errorf("ragged row %q", l)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{formatDuration(3300 * time.Microsecond), "3.3 ms"},
		{formatDuration(59 * time.Millisecond), "59 ms"},
		{formatDuration(1500 * time.Millisecond), "1.50 s"},
		{formatDuration(999700 * time.Microsecond), "1.00 s"},
		{formatDuration(9970 * time.Microsecond), "10 ms"},
		{formatDuration(0), "—"},
		{formatBytes(458 << 10), "458 KiB"},
		{formatBytes(10), "10 B"},
		{formatBytes(3 << 19), "1.5 MiB"},
		{sizeLabel(10000), "10k"},
		{sizeLabel(1000000), "1M"},
		{sizeLabel(1500), "1500"},
		{groupDigits(1000002), "1,000,002"},
		{groupDigits(999), "999"},
		{oneLine("a\n  b | c"), `a b \| c`},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	r := summarize([]run{{wall: 3 * time.Second, rss: 10}, {wall: time.Second, rss: 30}, {wall: 2 * time.Second, rss: 20}})
	if r.wall != 2*time.Second || r.rss != 30 {
		t.Errorf("summarize: %+v, want the median wall 2s and the largest RSS 30", r)
	}
	v := summarizeView([]viewResult{
		{firstScreen: 300 * time.Millisecond, keys: []time.Duration{1, 9, 5}},
		{firstScreen: 100 * time.Millisecond, keys: []time.Duration{3, 7, 5}},
	})
	if v.firstScreen != 100*time.Millisecond || v.keys[0] != 1 || v.keys[1] != 7 || v.keys[2] != 5 {
		t.Errorf("summarizeView: %+v", v)
	}
}

func TestRunsFor(t *testing.T) {
	for _, tt := range []struct{ count, size, want int }{
		{0, 10000, 15}, {0, 100000, 5}, {0, 1000000, 3}, {2, 10000, 2}, {1, 1000000, 1},
	} {
		if got := runsFor(tt.count, tt.size); got != tt.want {
			t.Errorf("runsFor(%d, %d) = %d, want %d", tt.count, tt.size, got, tt.want)
		}
	}
}

func TestParsePlan(t *testing.T) {
	p, err := parsePlan("small, tiny", "100000,10000,10000", "zstd,raw", "repro,view")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.shapes, ",") != "small,tiny" || len(p.sizes) != 2 || p.sizes[0] != 10000 ||
		strings.Join(p.forms, ",") != "raw,zstd" || strings.Join(p.commands, ",") != "repro,view" {
		t.Errorf("plan %+v", p)
	}
	for _, bad := range [][4]string{
		{"small", "ten", "raw", "repro"},
		{"small", "0", "raw", "repro"},
		{"small", "10", "gzip", "repro"},
		{"small", "10", "raw", "run"},
		{"", "10", "raw", "repro"},
	} {
		if _, err := parsePlan(bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("parsePlan%q: no error", bad)
		}
	}
}

func TestRunOrder(t *testing.T) {
	for _, tt := range []struct{ steps, want string }{
		{"cat,decode,check,render,history,repro,view", "cat,check,render,decode,repro,history,view"},
		{"cat,decode,repro", "cat,decode,repro"},
		{"cat,decode,check,view", "cat,decode,check,view"},
		{"cat,decode,check,render,history,repro,repro-one,view", "cat,check,render,decode,repro,repro-one,history,view"},
		{"cat,decode,repro-one,check", "cat,decode,repro-one,check"},
		{"cat,decode,repro-one,repro", "cat,decode,repro,repro-one"},
		{"cat,decode,check,render", "cat,check,render,decode"},
		{"cat,decode,history,repro,render", "cat,history,render,decode,repro"},
	} {
		if got := strings.Join(runOrder(strings.Split(tt.steps, ",")), ","); got != tt.want {
			t.Errorf("runOrder(%s) = %s, want %s", tt.steps, got, tt.want)
		}
	}
}

// TestPairedRatio: a ratio of two cells run in the same rounds is the
// median of the rounds' ratios, not the ratio of the medians, which a
// machine that changes speed between rounds moves: here the rounds say
// 1.10, 1.11 and 1.07, and the medians 30 ÷ 28 ms (1.07). Cells whose
// rounds do not pair up give the ratio of their medians.
func TestPairedRatio(t *testing.T) {
	ms := func(ds ...int) []time.Duration {
		var out []time.Duration
		for _, d := range ds {
			out = append(out, time.Duration(d)*time.Millisecond)
		}
		return out
	}
	for _, tt := range []struct {
		name string
		a, b result
		want string
	}{
		{"paired", result{Wall: 30 * time.Millisecond, Walls: ms(11, 50, 30)}, result{Wall: 28 * time.Millisecond, Walls: ms(10, 45, 28)}, "1.10"},
		{"one round", result{Wall: 3 * time.Second, Walls: ms(3000)}, result{Wall: time.Second, Walls: ms(1000)}, "3.00"},
		{"even count: the lower middle", result{Walls: ms(10, 12, 14, 16)}, result{Walls: ms(10, 10, 10, 10)}, "1.20"},
		{"a failed run", result{Wall: 30 * time.Millisecond}, result{Wall: 28 * time.Millisecond, Walls: ms(10, 45, 28)}, "1.07"},
		{"rounds that differ in number", result{Wall: 30 * time.Millisecond, Walls: ms(30)}, result{Wall: 20 * time.Millisecond, Walls: ms(10, 20)}, "1.50"},
	} {
		if got := strconv.FormatFloat(pairedRatio(&tt.a, &tt.b), 'f', 2, 64); got != tt.want {
			t.Errorf("%s: pairedRatio = %s, want %s", tt.name, got, tt.want)
		}
	}
	// The table pairs the rounds of its ratios to a decode pass and of
	// zstd ÷ raw.
	res := []result{
		{Shape: "tiny", Size: 10000, Form: "raw", Command: "decode", Wall: 28 * time.Millisecond, Walls: ms(10, 45, 28), Outcome: "ok"},
		{Shape: "tiny", Size: 10000, Form: "raw", Command: "render", Wall: 30 * time.Millisecond, Walls: ms(11, 50, 30), Outcome: "ok"},
		{Shape: "tiny", Size: 10000, Form: "zstd", Command: "render", Wall: 33 * time.Millisecond, Walls: ms(33, 60, 30), Outcome: "ok"},
	}
	checkRows(t, "ratio table", ratioTable(res),
		"| tiny | raw | render | render ÷ decode pass, 10k | 1.10 | ≤ 3 | ok |",
		"| tiny | zstd ÷ raw | render | wall, 10k | 1.20 | ≤ 1.2 | ok |",
	)
}
