package picture

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// chromium finds the headless browser, or skips the test saying how to get
// one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium installed: the browser test of the HTML report needs it (Debian: apt-get install -y chromium; .ci/run installs it)")
	return ""
}

// artifactDir is where the test keeps its screenshot: $DSHTEST_ARTIFACTS,
// or the test's temporary directory.
func artifactDir(t *testing.T) string {
	if d := os.Getenv("DSHTEST_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

const windowW, windowH = 1000, 900

// browse runs headless Chromium on a file:// URL with the given extra
// flags and returns its standard output.
func browse(t *testing.T, bin, page string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
		"--force-device-scale-factor=1", "--user-data-dir=" + t.TempDir(),
		"--window-size=" + itoa(windowW) + "," + itoa(windowH)}, flags...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", flags, err, errb.String())
	}
	return out.Bytes()
}

func itoa(n int) string { return strconv.Itoa(n) }

// probeScript writes each grid's page position into the DOM, for
// --dump-dom to print; the report itself carries no script.
const probeScript = `<script>
addEventListener("load", () => {
  const out = {};
  for (const g of document.querySelectorAll(".grid[id]")) {
    const r = g.getBoundingClientRect();
    out[g.id] = [r.left + scrollX, r.top + scrollY];
  }
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = "PROBE" + JSON.stringify(out) + "PROBE";
  document.body.appendChild(pre);
});
</script>`

func testFixture(scheme string, rows []screen.Row) []byte {
	f := screen.Fixture{Settings: []string{"terminal 12x4 scheme=" + scheme + " profile=ansi16"}, Document: rows, Screen: rows}
	return f.Marshal()
}

// TestReportInBrowser renders a report in headless Chromium, screenshots
// it, and checks that known cells show the palette's colours: inverse
// cells filled with their ANSI colour, plain cells on the scheme's
// background, and each run of changed cells framed once.
func TestReportInBrowser(t *testing.T) {
	bin := chromium(t)
	recorded := []screen.Row{
		{Text: "  ab  ", Runs: []screen.Run{{Start: 0, End: 1, Labels: "fg=red inverse"}, {Start: 4, End: 5, Labels: "fg=bright-blue bold inverse"}}},
		{Text: "You", Runs: []screen.Run{{Start: 0, End: 2, Labels: "fg=bright-magenta bold underline"}}},
		{Text: "dim italic", Runs: []screen.Run{{Start: 0, End: 9, Labels: "dim italic"}}},
	}
	changed := append([]screen.Row(nil), recorded...)
	changed[2] = screen.Row{Text: "  ", Runs: []screen.Run{{Start: 0, End: 1, Labels: "fg=green inverse"}}}
	cards := []Card{
		{Scenario: "colours", Fixture: "fixtures/colours.screen", Recorded: testFixture("dark", recorded), New: testFixture("dark", changed), Diff: "-a\n+b"},
		{Scenario: "light", Fixture: "fixtures/light.screen", New: testFixture("light", recorded)},
	}
	page := Report("browser test", cards)
	if bytes.Contains(page, []byte("http://")) || bytes.Contains(page, []byte("https://")) || bytes.Contains(page, []byte("<script")) {
		t.Fatal("the report refers to the network or carries a script")
	}
	dir := artifactDir(t)
	htmlPath := filepath.Join(dir, "report.html")
	if err := os.WriteFile(htmlPath, page, 0o644); err != nil {
		t.Fatal(err)
	}
	probePath := filepath.Join(t.TempDir(), "probe.html")
	if err := os.WriteFile(probePath, bytes.Replace(page, []byte("</body>"), []byte(probeScript+"</body>"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := browse(t, bin, probePath, "--dump-dom")
	m := regexp.MustCompile(`PROBE(\{.*?\})PROBE`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("no probe in the DOM:\n%s", dom)
	}
	var pos map[string][2]float64
	if err := json.Unmarshal(m[1], &pos); err != nil {
		t.Fatal(err)
	}

	shot := filepath.Join(dir, "report.png")
	browse(t, bin, htmlPath, "--screenshot="+shot)
	t.Logf("screenshot: %s (page %s)", shot, htmlPath)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}

	dark, light := PaletteFor(display.SchemeDark), PaletteFor(display.SchemeLight)
	for _, tc := range []struct {
		what     string
		grid     string
		row, col int
		dx, dy   int // offset from the cell's centre
		want     RGB
	}{
		{"inverse red", "card-0-recorded", 0, 0, 0, 0, dark.ANSI[1]},
		{"inverse red", "card-0-new", 0, 1, 0, 0, dark.ANSI[1]},
		{"inverse bright-blue", "card-0-new", 0, 5, 0, 0, dark.ANSI[12]},
		{"plain cell on the background", "card-0-new", 0, 3, 0, 0, dark.Bg},
		{"unwritten cell on the background", "card-0-new", 3, 10, 0, 0, dark.Bg},
		{"changed inverse green", "card-0-new", 2, 0, 0, 0, dark.ANSI[2]},
		{"changed run's frame", "card-0-new", 2, 0, -CellWidth / 2, 0, dark.Changed},
		// Recorded row 2, "dim italic", is one changed run (cells 0–9):
		// framed at its two ends, not between its cells.
		{"changed run's frame in the recorded screen", "card-0-recorded", 2, 0, -CellWidth / 2, 0, dark.Changed},
		{"changed run's frame, right end", "card-0-recorded", 2, 9, CellWidth / 2, 0, dark.Changed},
		{"no frame between a run's cells", "card-0-recorded", 2, 3, -CellWidth / 2, 0, dark.Bg},
		{"light scheme: inverse red", "card-1-new", 0, 0, 0, 0, light.ANSI[1]},
		{"light scheme: background", "card-1-new", 0, 3, 0, 0, light.Bg},
	} {
		p, ok := pos[tc.grid]
		if !ok {
			t.Fatalf("no grid %s in the page (have %v)", tc.grid, pos)
		}
		x := int(p[0]) + tc.col*CellWidth + CellWidth/2 + tc.dx
		y := int(p[1]) + tc.row*CellHeight + CellHeight/2 + tc.dy
		if got := pixel(img, x, y); got != tc.want {
			t.Errorf("%s: %s cell %d,%d at (%d,%d) is %s, want the palette's %s", tc.what, tc.grid, tc.row, tc.col, x, y, got.Hex(), tc.want.Hex())
		}
	}
}

func pixel(img image.Image, x, y int) RGB {
	r, g, b, _ := img.At(x, y).RGBA()
	return RGB{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}
