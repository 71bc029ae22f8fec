package screen

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/hostile"
)

func TestDecodeLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Row
	}{
		{"blank", "", Row{}},
		{"header padded", "\x1b[1;4;95mYou\x1b[0m   ", Row{Text: "You   ", Width: 6,
			Runs: []Run{{0, 2, "fg=bright-magenta bold underline"}}}},
		{"dim then plain", "\x1b[2mdim\x1b[22m  x", Row{Text: "dim  x", Width: 6,
			Runs: []Run{{0, 2, "dim"}}}},
		{"wide rune", "a中b", Row{Text: "a中b", Width: 4}},
		{"styled wide rune", "\x1b[32m中\x1b[39mx", Row{Text: "中x", Width: 3, Runs: []Run{{0, 1, "fg=green"}}}},
		{"indexed and rgb", "\x1b[38;5;200mx\x1b[38;2;1;2;3my\x1b[0m", Row{Text: "xy", Width: 2,
			Runs: []Run{{0, 0, "fg=ansi-200"}, {1, 1, "fg=#010203"}}}},
		{"cursor movement dropped", "a\x1b[2Jb\x1b]2;title\x07c", Row{Text: "abc", Width: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, DecodeLine(tt.in)); diff != "" {
				t.Errorf("DecodeLine(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestViolations(t *testing.T) {
	rows := Decode([]string{"\x1b[32mok\x1b[0m", "\x1b[38;5;200mx\x1b[48;5;1my\x1b[0m"})
	got := Violations(rows)
	want := []string{"1:0 extended-fg-200", "1:1 extended-fg-200", "1:1 explicit-bg"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Violations mismatch (-want +got):\n%s", diff)
	}
}

// TestUpstreamRoundTrip parses every upstream snapshot and writes its rows
// back: the row section must come out byte for byte, which pins the format.
func TestUpstreamRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../terminal/testdata/upstream/*.expected.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no upstream snapshots: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			for _, h := range s.Header {
				b.WriteString(h + "\n")
			}
			AppendRows(&b, s.Range(0, s.Last), 0)
			if !bytes.Equal(b.Bytes(), data) {
				t.Errorf("round trip differs:\n%s", b.String())
			}
		})
	}
}

// TestAppendPlain holds AppendPlain to ansi.Strip, on SGR-only rows (the
// fast path) and on rows it must leave to ansi.Strip.
func TestAppendPlain(t *testing.T) {
	for _, row := range []string{
		"",
		"plain text  ",
		"\x1b[1;38;5;205mbold pink\x1b[m and \x1b[2mdim\x1b[0m",
		"\x1b[38:2::1:2:3mcolon params\x1b[m",
		"é and 漢字 \x1b[4munderlined\x1b[24m",
		"\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
		"\x1b[?25lcursor hidden",
		"c1 \u009b31m control",
		"invalid \xff byte",
		"\x1b[",
		"\x1b[12",
	} {
		checkAppendPlain(t, row)
	}
}

// appendPlainSeeds are rows where AppendPlain's eight-byte runs end: at an
// escape, a byte outside ASCII or a C1 control just past eight bytes.
var appendPlainSeeds = []string{
	"abcdefgh\x1b[1mijklmnop\x1b[m        ",
	"abcdefghi\x1b[2mj",
	"abcdefgh\u009b31m",
	"abcdefghijklmno\xff",
	"abcdefgh漢字abcdefgh",
	"abcdefgh\x1b]8;;x\x07y",
}

// FuzzAppendPlain holds AppendPlain to ansi.Strip on any row.
func FuzzAppendPlain(f *testing.F) {
	for _, s := range appendPlainSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAppendPlain)
}

func TestAppendPlainRuns(t *testing.T) {
	for _, s := range appendPlainSeeds {
		checkAppendPlain(t, s)
	}
}

func checkAppendPlain(t *testing.T, row string) {
	t.Helper()
	if got, want := string(AppendPlain([]byte("prefix"), row)), "prefix"+ansi.Strip(row); got != want {
		t.Errorf("AppendPlain(%q) = %q, want %q", row, got, want)
	}
}

// TestPreviewAsWhole: Preview, which reads a text only as far as it
// needs, says what collapsing the whole text's white space and cutting it
// says, on random texts of letters, spaces, tabs, newlines, wide and
// invalid bytes.
func TestPreviewAsWhole(t *testing.T) {
	whole := func(s string, n int) string {
		s = strings.Join(strings.Fields(s), " ")
		if utf8.RuneCountInString(s) > n {
			s = string([]rune(s)[:n]) + "…"
		}
		return Quote(s)
	}
	pieces := []string{"a", "bc", " ", "  ", "\t", "\n", "宽", "\u00a0", "\u0085", "\xff", "é"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s, n := hostile.Text(rng, pieces, 30), rng.IntN(12)
		if got, want := Preview(s, n), whole(s, n); got != want {
			t.Fatalf("Preview(%q, %d) = %s, want %s", s, n, got, want)
		}
	}
}

func TestPreview(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, `"short"`},
		{"  many\n\tspaces  here ", 40, `"many spaces here"`},
		{"abcdefghij", 4, `"abcd…"`},
		{"<b>&", 10, `"<b>&"`},
	} {
		if got := Preview(tt.in, tt.n); got != tt.want {
			t.Errorf("Preview(%q, %d) = %s, want %s", tt.in, tt.n, got, tt.want)
		}
	}
}
