package cards

import (
	"strings"
	"testing"
)

// TestExitMarker pins the bash result's final marker line (presenters.md
// §2.1): only the last line, after a newline; digits only for an exit code.
func TestExitMarker(t *testing.T) {
	for _, tc := range []struct {
		in, body string
		code     int
		signal   string
	}{
		{"ok\n", "ok\n", 0, ""},
		{"out\n[exit code: 127]", "out", 127, ""},
		{"[exit code: 2]", "[exit code: 2]", 0, ""},
		{"out\n[exit code: -1]", "out\n[exit code: -1]", 0, ""},
		{"out\n[exit code: 2]\n", "out\n[exit code: 2]\n", 0, ""},
		{"p\n[timed out after 5ms]\n[killed by signal: SIGTERM]", "p\n[timed out after 5ms]", 0, "SIGTERM"},
		{"p\n[killed by signal: ]", "p\n[killed by signal: ]", 0, ""},
	} {
		body, code, sig := exitMarker(tc.in)
		if body != tc.body || code != tc.code || sig != tc.signal {
			t.Errorf("exitMarker(%q) = %q %d %q, want %q %d %q", tc.in, body, code, sig, tc.body, tc.code, tc.signal)
		}
	}
}

// TestJSJSON pins the JavaScript re-serialisation of raw input (§1.9).
func TestJSJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"b":1.50,"10":"x","2":true,"a":[1e2,1e21,0.0000001],"h":"<&>"}`: "{\n  \"2\": true,\n  \"10\": \"x\",\n  \"b\": 1.5,\n  \"a\": [\n    100,\n    1e+21,\n    1e-7\n  ],\n  \"h\": \"<&>\"\n}",
		`{}`: "{}", `[]`: "[]", `"s"`: `"s"`, `{"a":{}}`: "{\n  \"a\": {}\n}",
		`{"k":1,"j":[[],[2]],"k":3}`: "{\n  \"k\": 3,\n  \"j\": [\n    [],\n    [\n      2\n    ]\n  ]\n}",
	} {
		if got := jsJSON(in); got != want {
			t.Errorf("jsJSON(%s) =\n%s\nwant\n%s", in, got, want)
		}
	}
}

// TestJSJSONNesting: indentation stops growing past maxJSNest levels, so
// that arguments nested thousands deep print a line per token, each at
// most that indented, not megabytes of spaces (copied once per level).
func TestJSJSONNesting(t *testing.T) {
	for _, depth := range []int{maxJSNest, maxJSNest + 1, 3000} {
		in := `{"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}"
		out := jsJSON(in)
		lines := strings.Split(out, "\n")
		if len(lines) != 2*depth+1 {
			t.Fatalf("depth %d: %d lines, want %d", depth, len(lines), 2*depth+1)
		}
		widest := 0
		for _, l := range lines {
			widest = max(widest, len(l)-len(strings.TrimLeft(l, " ")))
		}
		if want := 2 * min(depth, maxJSNest); widest != want {
			t.Errorf("depth %d: indented at most %d, want %d", depth, widest, want)
		}
	}
}
