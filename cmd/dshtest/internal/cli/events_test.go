package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog/store"
)

// eventsLog is a log that exercises what the reader does besides decoding:
// a header, an older-shape user message (upgraded, with an id minted from
// the session id), a packed chunk row (expanded), a text holding an ESC, a
// C1 control and a BiDi override (escaped in the output), and an open turn
// at the end (closed by the synthetic closers).
const eventsLog = `{"type":"session","version":0,"id":"s-ev","createdAt":1784630400000,"cwd":"/home/u/proj","delegationDepth":0}
{"type":"turn/start","seq":0,"time":1784630400000,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1784630400000,"data":{"turn":1,"step":1}}
{"type":"user/message","seq":2,"time":1784630400000,"data":{"content":[{"type":"text","text":"Hello \u001b[31mred\u001b[0m` + "\u009b\u202e" + `"}],"source":{"kind":"user"}},"surfaceOp":"append"}
{"type":"text-chunks","seq0":3,"time0":1784630400500,"data":{"turn":1,"step":1,"index":0,"dt":[1,2],"texts":["H","i","."]}}
{"type":"assistant/message","seq":6,"time":1784630401000,"data":{"turn":1,"step":1,"message":{"id":"a1","role":"assistant","content":[{"type":"text","text":"Hi."}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}
{"type":"step/end","seq":7,"time":1784630401000,"data":{"turn":1,"step":1}}
{"type":"turn/end","seq":8,"time":1784630401000,"data":{"turn":1,"reason":{"kind":"completed"}}}
{"type":"turn/start","seq":9,"time":1784630402000,"data":{"turn":2}}
{"type":"step/start","seq":10,"time":1784630402000,"data":{"turn":2,"step":1}}
{"type":"user/message","seq":11,"time":1784630402000,"data":{"id":"u2","role":"user","content":[{"type":"text","text":"Second prompt"}],"source":{"kind":"user"}},"surfaceOp":"append"}
`

// TestEventsForms writes one log in every form the reader takes and checks
// that dshtest events prints the same events from each: decoded, upgraded,
// expanded and recovered, every string escaped.
func TestEventsForms(t *testing.T) {
	dir := t.TempDir()
	raw := []byte(eventsLog)
	lines := logforms.SplitLines(raw)
	rawPath := logforms.WriteFile(t, dir, "s.jsonl", raw)
	zst := logforms.Zstd(lines, 3)
	zstPath := logforms.WriteFile(t, dir, "s.jsonl.zstd", zst)
	sessDir := filepath.Join(dir, "sessdir")
	logforms.WriteFile(t, sessDir, "session.jsonl.zstd", zst)
	zipPath := filepath.Join(dir, "dsh-session-s-ev.zip")
	logforms.WriteZip(t, zipPath, raw, "child-1")
	storeDir := filepath.Join(dir, "store")
	p, err := store.SessionPath(storeDir, "/home/u/proj", "s-ev", true)
	if err != nil {
		t.Fatal(err)
	}
	logforms.WriteFile(t, filepath.Dir(p), filepath.Base(p), zst)
	dbPath := filepath.Join(dir, "sessions.db")
	logforms.WriteDB(t, dbPath, lines)

	forms := []struct {
		name string
		args []string
	}{
		{"raw", []string{rawPath}},
		{"zstd", []string{zstPath}},
		{"directory", []string{sessDir}},
		{"zip", []string{zipPath}},
		{"zip subagent", []string{zipPath, "--subagent", "child-1"}},
		{"store", []string{"--session", "s-ev", "--store", storeDir}},
		{"sqlite", []string{dbPath, "--session", "s-ev"}},
	}
	for _, recover := range []bool{true, false} {
		var want string
		for _, f := range forms {
			args := append([]string{"events"}, f.args...)
			if !recover {
				args = append(args, "--no-recover")
			}
			code, out, stderr := run(args...)
			if code != ExitOK || stderr != "" {
				t.Fatalf("%s: dshtest %s: exit %d, stderr %q", f.name, strings.Join(args, " "), code, stderr)
			}
			if want == "" {
				want = out
				checkEventsOutput(t, out, recover)
				continue
			}
			if out != want {
				t.Errorf("%s: dshtest %s differs from the raw log's:\n%s", f.name, strings.Join(args, " "),
					udiff.Unified("raw", f.name, want, out))
			}
		}
	}
}

// checkEventsOutput checks the raw log's events output: 12 events (the
// packed row is three), 14 with the closers, the old user message
// upgraded, no raw control or BiDi character.
func checkEventsOutput(t *testing.T, out string, recovered bool) {
	t.Helper()
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	n := 12
	if recovered {
		n = 14
	}
	if len(got) != n {
		t.Fatalf("%d events, want %d:\n%s", len(got), n, out)
	}
	if !strings.HasPrefix(got[0], `{"type":"turn/start","seq":0,`) {
		t.Errorf("first line %s: want the first event (no header)", got[0])
	}
	for _, want := range []string{
		`"id":"legacy-message:s-ev:2"`, // the upgrade's minted id
		`{"type":"assistant/chunk","seq":5,`,
		`Hello \u001b[31mred\u001b[0m\u009b\u202e`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if recovered && !strings.HasPrefix(got[n-1], `{"type":"turn/end","seq":13,`) {
		t.Errorf("last line %s: want the synthetic turn/end", got[n-1])
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == utf8.RuneError || r == 0x202e {
			t.Fatalf("output holds the raw character %U:\n%s", r, out)
		}
	}
}

// TestEventsReadBack checks that what events prints is read back as the
// same events, and that --header keeps the header line.
func TestEventsReadBack(t *testing.T) {
	dir := t.TempDir()
	src := logforms.WriteFile(t, dir, "s.jsonl", []byte(eventsLog))
	_, first, _ := run("events", src)
	again := logforms.WriteFile(t, dir, "again.jsonl", []byte(first))
	if code, second, stderr := run("events", again); code != ExitOK || second != first {
		t.Errorf("events of events' output: exit %d, stderr %q, diff:\n%s", code, stderr, udiff.Unified("first", "second", first, second))
	}
	code, withHeader, _ := run("events", src, "--header")
	head, rest, _ := strings.Cut(withHeader, "\n")
	if code != ExitOK || head != `{"type":"session","version":0,"id":"s-ev","createdAt":1784630400000,"cwd":"/home/u/proj","delegationDepth":0}` || rest != first {
		t.Errorf("--header: exit %d, first line %s; the rest equal: %t", code, head, rest == first)
	}
	// A log that is refused prints nothing on stdout.
	bad := logforms.WriteFile(t, dir, "bad.jsonl", bytes.Replace([]byte(eventsLog), []byte(`"seq":7,`), []byte(`"seq":70,`), 1))
	if code, out, stderr := run("events", bad); code != ExitUsage || out != "" || !oneLineRefusal.MatchString(stderr) {
		t.Errorf("a refused log: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestEventsOutgrowsWhatItHolds: a packed row prints at about 20 times its
// bytes. Past what events holds (heldMin) the output is given up and
// the events read again: the output is the same, a refusal later in the
// log still prints nothing, and --header still comes first.
func TestEventsOutgrowsWhatItHolds(t *testing.T) {
	n := heldMin/100 + 1000 // members, each printed as more than 100 bytes
	texts := make([]string, n)
	for i := range texts {
		texts[i] = `"x"`
	}
	row := `{"type":"text-chunks","seq0":2,"time0":1784630400000,"data":{"turn":1,"step":1,"index":0,"dt":[` +
		strings.TrimSuffix(strings.Repeat("0,", n-1), ",") + `],"texts":[` + strings.Join(texts, ",") + "]}}\n"
	log := `{"type":"session","version":0,"id":"s-big","createdAt":1784630400000,"cwd":"/p","delegationDepth":0}
{"type":"turn/start","seq":0,"time":1784630400000,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1784630400000,"data":{"turn":1,"step":1}}
` + row
	dir := t.TempDir()
	good := logforms.WriteFile(t, dir, "big.jsonl", []byte(log))
	code, out, stderr := run("events", good, "--header", "--no-recover")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if len(out) <= heldMin {
		t.Fatalf("the output is %d bytes: not more than events holds", len(out))
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n+3 || !strings.HasPrefix(lines[0], `{"type":"session"`) ||
		!strings.HasPrefix(lines[n+2], fmt.Sprintf(`{"type":"assistant/chunk","seq":%d,`, n+1)) {
		t.Errorf("%d lines, first %.40s, last %.60s", len(lines), lines[0], lines[len(lines)-1])
	}
	// A seq gap before a turn/end: the committed region is corrupt.
	bad := logforms.WriteFile(t, dir, "bad.jsonl", []byte(log+`{"type":"step/end","seq":5,"time":1784630400000,"data":{"turn":1,"step":1}}
{"type":"turn/end","seq":6,"time":1784630400000,"data":{"turn":1,"reason":{"kind":"completed"}}}
`))
	if code, out, stderr := run("events", bad); code != ExitUsage || out != "" || !strings.Contains(stderr, "seq gap in committed region") {
		t.Errorf("a refusal after the row: exit %d, %d bytes out, stderr %q", code, len(out), stderr)
	}
}
