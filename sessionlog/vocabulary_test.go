package sessionlog_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/upgrade"
)

// specSection returns the lines of a markdown file between the heading that
// starts with from and the next heading of the same level.
func specSection(t *testing.T, file, from string) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	level := strings.Count(strings.Fields(from)[0], "#")
	for line := range strings.SplitSeq(string(raw), "\n") {
		if strings.HasPrefix(line, from) {
			in = true
			continue
		}
		if in && strings.HasPrefix(line, strings.Repeat("#", level)+" ") {
			break
		}
		if in {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no section %q", file, from)
	}
	return out
}

// tableRows returns the cells of each table row whose first cell starts with
// a backticked name.
func tableRows(lines []string) [][]string {
	var rows [][]string
	for _, l := range lines {
		if !strings.HasPrefix(l, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	typeName   = regexp.MustCompile(`^(…/)?[a-z][a-z-]*(/[a-z][a-z-]*)*$`)
)

// typeNames returns the event type names of a first cell, expanding the
// spec's `a/b` `…/c` shorthand to a/b, a/c.
func typeNames(cell string) []string {
	var names []string
	prefix := ""
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		n := m[1]
		if !typeName.MatchString(n) || !strings.Contains(n, "/") {
			continue
		}
		if rest, ok := strings.CutPrefix(n, "…/"); ok {
			n = prefix + rest
		} else {
			prefix = n[:strings.Index(n, "/")+1]
		}
		names = append(names, n)
	}
	return names
}

// TestVocabularyMatchesSpec checks the table against vocabulary.md itself:
// §2 (every current type, its surface column and its fork) and §4 (the
// legacy types), so that a type the spec lists cannot be missing here.
func TestVocabularyMatchesSpec(t *testing.T) {
	spec := sharedDir(t, "spec")
	vocab := filepath.Join(spec, "vocabulary.md")

	// log.md §2: the surface types of the older generation.
	olderSurface := map[string]bool{}
	for _, l := range specSection(t, filepath.Join(spec, "log.md"), "## 2. Surface types") {
		if strings.HasPrefix(l, "| older |") {
			for _, m := range backticked.FindAllStringSubmatch(l, -1) {
				olderSurface[m[1]] = true
			}
		}
	}
	if len(olderSurface) != 4 {
		t.Fatalf("log.md §2 older row: %v", olderSurface)
	}

	want := map[string]sessionlog.TypeInfo{}
	for _, row := range tableRows(specSection(t, vocab, "## 2. Summary table")) {
		if len(row) != 9 {
			t.Fatalf("§2 row with %d cells, not 9: %q", len(row), row)
		}
		origin := sessionlog.OriginShared
		switch {
		case strings.Contains(row[2], "B only"):
			origin = sessionlog.OriginB
		case strings.Contains(row[3], "P only"):
			origin = sessionlog.OriginP
		}
		for _, n := range typeNames(row[0]) {
			want[n] = sessionlog.TypeInfo{Name: n, Surface: row[1] == "S", Origin: origin}
		}
	}
	var refusedLegacy []string
	for _, row := range tableRows(specSection(t, vocab, "## 4. Legacy types")) {
		if len(row) != 5 {
			t.Fatalf("§4 row with %d cells, not 5: %q", len(row), row)
		}
		handling := row[4]
		for _, n := range typeNames(row[0]) {
			switch {
			case strings.Contains(handling, "unsupported legacy"):
				refusedLegacy = append(refusedLegacy, n)
			default:
				canon := strings.Replace(n, "compact/", "compaction/", 1)
				if m := regexp.MustCompile("converted to `([^`]+)`").FindStringSubmatch(handling); m != nil {
					canon = m[1]
				}
				want[n] = sessionlog.TypeInfo{Name: n, Surface: olderSurface[n], Origin: sessionlog.OriginLegacy, Canonical: canon}
			}
		}
	}

	got := sessionlog.KnownTypes()
	var inP, inB int
	for _, ti := range got {
		w, ok := want[ti.Name]
		switch {
		case !ok:
			t.Errorf("%s is in the table but not in vocabulary.md §2/§4", ti.Name)
		case ti != w:
			t.Errorf("%s: table %+v, spec %+v", ti.Name, ti, w)
		}
		if ti.InP() {
			inP++
		}
		if ti.InB() {
			inB++
		}
		if ti.Canonical != "" {
			if c, ok := sessionlog.LookupType(ti.Canonical); !ok || c.Origin == sessionlog.OriginLegacy {
				t.Errorf("%s: canonical %q is not a current type", ti.Name, ti.Canonical)
			}
		}
	}
	for n := range want {
		if _, ok := sessionlog.LookupType(n); !ok {
			t.Errorf("vocabulary.md lists %s, the table lacks it", n)
		}
	}
	if inP != 52 || inB != 45 {
		t.Errorf("known sets: P %d, B %d; the spec says 52 and 45", inP, inB)
	}

	// §4's refused legacy types are the upgrade package's refusals, which
	// run before the vocabulary rule.
	if len(refusedLegacy) != 3 {
		t.Errorf("§4 refused legacy rows: %v", refusedLegacy)
	}
	for _, n := range refusedLegacy {
		line := `{"type":"` + n + `","seq":3,"time":1,"data":{"reason":"fallback"}}`
		_, _, err := upgrade.New("s").Upgrade([]byte(line))
		var ue *sessionlog.Error
		if !errors.As(err, &ue) || ue.Layer != sessionlog.LayerUpgrade || !strings.Contains(ue.Reason, "unsupported legacy "+n) {
			t.Errorf("%s: the upgrade refusal is missing: %v", n, err)
		}
	}
}

func TestKnownTypesIsACopy(t *testing.T) {
	a := sessionlog.KnownTypes()
	a[0].Name = "changed"
	if b := sessionlog.KnownTypes(); b[0].Name == "changed" {
		t.Fatal("KnownTypes shares its table")
	}
}

func TestLookupType(t *testing.T) {
	tests := []struct {
		name      string
		ok        bool
		surface   bool
		origin    sessionlog.Origin
		canonical string
	}{
		{"user/message", true, true, sessionlog.OriginShared, ""},
		{"tool/result", true, true, sessionlog.OriginShared, ""},
		{"tool/call", true, false, sessionlog.OriginShared, ""},
		{"agent/inbox/spliced", true, false, sessionlog.OriginShared, ""},
		{"tui/user-shell-start", true, false, sessionlog.OriginP, ""},
		{"team/message/delivered", true, false, sessionlog.OriginP, ""},
		{"tui/input", true, false, sessionlog.OriginB, ""},
		{"compact/start", true, false, sessionlog.OriginLegacy, "compaction/start"},
		{"compact/prune", true, false, sessionlog.OriginLegacy, "compaction/prune"},
		{"steering/message", true, true, sessionlog.OriginLegacy, "user/message"},
		{"mode/set", false, false, sessionlog.OriginUnknown, ""},
		{"request/header-delta", false, false, sessionlog.OriginUnknown, ""},
		{"text-chunks", false, false, sessionlog.OriginUnknown, ""},
		{"session", false, false, sessionlog.OriginUnknown, ""},
		{"", false, false, sessionlog.OriginUnknown, ""},
	}
	for _, tt := range tests {
		ti, ok := sessionlog.LookupType(tt.name)
		if ok != tt.ok || ti.Surface != tt.surface || ti.Origin != tt.origin || ti.Canonical != tt.canonical || (ok && ti.Name != tt.name) {
			t.Errorf("LookupType(%q) = %+v, %v", tt.name, ti, ok)
		}
		if ti.Known() != tt.ok {
			t.Errorf("%q: Known() = %v", tt.name, ti.Known())
		}
	}
}

func TestCheckType(t *testing.T) {
	tests := []struct {
		name    string
		check   sessionlog.TypeCheck
		origin  sessionlog.Origin
		wantErr string
	}{
		{"known log-only", sessionlog.TypeCheck{Type: "command/run", Seq: 4}, sessionlog.OriginShared, ""},
		{"known surface with op", sessionlog.TypeCheck{Type: "user/message", Seq: 4, HasSurfaceOp: true}, sessionlog.OriginShared, ""},
		{"known B type", sessionlog.TypeCheck{Type: "tui/input", Seq: 4}, sessionlog.OriginB, ""},
		{"legacy compact", sessionlog.TypeCheck{Type: "compact/summary", Seq: 4}, sessionlog.OriginLegacy, ""},
		{"unknown refused", sessionlog.TypeCheck{Type: "agent/new-thing", Seq: 7},
			0, `event type "agent/new-thing" is unknown to this harness and not marked ignorable (seq 7); --allow-unknown reads it as log-only`},
		{"unknown ignorable", sessionlog.TypeCheck{Type: "agent/new-thing", Seq: 7, Ignorable: true}, sessionlog.OriginUnknown, ""},
		{"unknown allowed", sessionlog.TypeCheck{Type: "agent/new-thing", Seq: 7, AllowUnknown: true}, sessionlog.OriginUnknown, ""},
		{"unknown surfaceOp allowed", sessionlog.TypeCheck{Type: "agent/new-thing", Seq: 9, HasSurfaceOp: true, AllowUnknown: true},
			0, `event type "agent/new-thing" is unknown to this harness and carries a surfaceOp (seq 9); it would change the model surface, so not even --allow-unknown reads it`},
		{"unknown surfaceOp ignorable", sessionlog.TypeCheck{Type: "x/y", Seq: 0, HasSurfaceOp: true, Ignorable: true},
			0, `event type "x/y" is unknown to this harness and carries a surfaceOp (seq 0); it would change the model surface, so not even --allow-unknown reads it`},
		{"quotes escaped", sessionlog.TypeCheck{Type: "a\"b\x1b", Seq: 1},
			0, `event type "a\"b\x1b" is unknown to this harness and not marked ignorable (seq 1); --allow-unknown reads it as log-only`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ti, err := sessionlog.CheckType(tt.check)
			if tt.wantErr != "" {
				var ue *sessionlog.UnknownTypeError
				if !errors.As(err, &ue) || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %s", err, tt.wantErr)
				}
				if ue.SurfaceOp != tt.check.HasSurfaceOp || ue.Seq != tt.check.Seq || ue.Type != tt.check.Type {
					t.Errorf("error fields %+v", ue)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ti.Origin != tt.origin || ti.Name != tt.check.Type || (ti.Origin == sessionlog.OriginUnknown && ti.Surface) {
				t.Errorf("got %+v", ti)
			}
		})
	}
}

// BenchmarkLookupType looks up the types of a streamed step, an unknown
// one among them.
func BenchmarkLookupType(b *testing.B) {
	names := []string{"assistant/chunk", "assistant/chunk", "tool/result", "step/start", "user/message", "x/unknown"}
	for b.Loop() {
		for _, n := range names {
			sessionlog.LookupType(n)
		}
	}
}
