package harness_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/screen"
)

// TestCompactionFixturePair pins the compaction contract (a compaction
// replaces what it shadowed, it does not append) on the committed files:
// the replayed compaction and the live path's wide screen are
// byte-identical, and they show the preserved prompt, the full tool card
// and exactly one marker, never the checkpoint's payload.
func TestCompactionFixturePair(t *testing.T) {
	replayed := readFixture(t, "surface-replayed-compaction")
	wide := readFixture(t, "surface-after-compaction-wide")
	if !bytes.Equal(replayed, wide) {
		t.Fatal("surface-replayed-compaction.screen and surface-after-compaction-wide.screen differ")
	}
	fx, err := screen.ParseFixture(replayed)
	if err != nil {
		t.Fatalf("the fixture does not parse: %v", err)
	}
	if n := strings.Count(string(replayed), projectionMarker); n != 1 {
		t.Errorf("the file has %d marker rows, want exactly 1 (the screen refers to the document's)", n)
	}
	for section, rows := range map[string][]screen.Row{"document": fx.Document, "screen": fx.Screen} {
		var lines []string
		for _, r := range rows {
			lines = append(lines, screen.Quote(r.Text))
		}
		text := strings.Join(lines, "\n")
		for _, want := range []string{
			`"You `,
			`"Old prompt with a long line that exercises wrapping and stays visible after compaction. `,
			`"● Tool / bash / Run the coverage gate"`,
			`"$ pnpm run test:coverage `,
			`"/workspace/project `,
			`"packages/ui/tui 100% `,
			`"… +1 lines (Ctrl+O to expand) `,
			`"1 test skipped `,
			`"coverage complete `,
			`"[exit 0] `,
			`"Model wait 0.0s `,
		} {
			if strings.Count(text, want) != 1 {
				t.Errorf("%s: want one row starting %s", section, want)
			}
		}
		if n := strings.Count(text, projectionMarker); n != 1 {
			t.Errorf("%s: %d marker rows, want exactly 1", section, n)
		}
		for _, never := range []string{"context_checkpoint", "Model-only summary payload", "shadowed step tool output"} {
			if strings.Contains(text, never) {
				t.Errorf("%s shows %q", section, never)
			}
		}
	}
}

const projectionMarker = "… earlier context was compacted …"

// TestFixturesAreClean: fixtures are text without raw control bytes, pass
// the theme rule, and name no scenario or path.
func TestFixturesAreClean(t *testing.T) {
	names, err := harness.FixtureNames(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	scenarios, err := harness.ScenarioNames(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 40 || len(scenarios) < 40 {
		t.Fatalf("%d fixtures and %d scenarios; want at least 40 of each", len(names), len(scenarios))
	}
	for _, n := range names {
		data := readFixture(t, strings.TrimSuffix(n, harness.FixtureSuffix))
		for i, c := range data {
			if (c < 0x20 && c != '\n') || c == 0x7f {
				t.Errorf("%s: raw control byte %#x at offset %d", n, c, i)
				break
			}
		}
		if !bytes.HasPrefix(data, []byte(screen.FixtureVersion+"\n")) || !bytes.Contains(data, []byte("\ntheme-violations 0\n")) {
			t.Errorf("%s: bad header", n)
		}
		if _, err := screen.ParseFixture(data); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		for _, s := range scenarios {
			if bytes.Contains(data, []byte(s+".txtar")) || bytes.Contains(data, []byte("scenarios/")) {
				t.Errorf("%s names a scenario or a path", n)
			}
		}
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDir, name+harness.FixtureSuffix))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
