package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog/store"
)

// TestHistoryOlderNamesTheLog: the command history prints for the next
// older page reads the same log as the page it follows, in every form: a
// database's session and an export's subagent are named with the path,
// and so are the flags that change the events (--no-recover); a session
// found in the store is named by its path. Run as printed, it prints the
// page before.
func TestHistoryOlderNamesTheLog(t *testing.T) {
	dir := t.TempDir()
	raw := []byte(eventsLog)
	lines := logforms.SplitLines(raw)
	rawPath := logforms.WriteFile(t, dir, "s.jsonl", raw)
	zipPath := filepath.Join(dir, "dsh-session-s-ev.zip")
	logforms.WriteZip(t, zipPath, raw, "child-1")
	dbPath := filepath.Join(dir, "sessions.db")
	logforms.WriteDB(t, dbPath, lines)
	storeDir := filepath.Join(dir, "store")
	p, err := store.SessionPath(storeDir, "/home/u/proj", "s-ev", true)
	if err != nil {
		t.Fatal(err)
	}
	logforms.WriteFile(t, filepath.Dir(p), filepath.Base(p), logforms.Zstd(lines, 3))
	for _, tc := range []struct {
		name string
		args []string
		want string // the older command's flags after the path
	}{
		{"raw", []string{rawPath}, ""},
		{"raw, not recovered", []string{rawPath, "--no-recover"}, " --no-recover"},
		{"zip subagent", []string{zipPath, "--subagent", "child-1"}, " --subagent child-1"},
		{"sqlite", []string{dbPath, "--session", "s-ev"}, " --session s-ev"},
		{"store", []string{"--session", "s-ev", "--store", storeDir}, ""},
		{"store, not recovered", []string{"--session", "s-ev", "--store", storeDir, "--no-recover", "--allow-unknown"}, " --allow-unknown --no-recover"},
		{"a flag given false", []string{rawPath, "--no-recover=false"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"history"}, tc.args...), "--max", "1")
			code, out, stderr := run(args...)
			if code != ExitOK || stderr != "" {
				t.Fatalf("dshtest %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
			}
			rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			older, ok := strings.CutPrefix(rows[len(rows)-1], "older: dshtest ")
			if !ok {
				t.Fatalf("no older page named:\n%s", out)
			}
			fields := strings.Fields(older)
			if got := " " + strings.Join(fields[2:len(fields)-4], " "); strings.TrimSpace(got) != strings.TrimSpace(tc.want) {
				t.Errorf("older: %s\nflags %q, want %q", older, got, tc.want)
			}
			code, again, stderr := run(fields...)
			if code != ExitOK || stderr != "" || !strings.HasPrefix(again, "page seqs ") {
				t.Fatalf("dshtest %s: exit %d, stderr %q\n%s", older, code, stderr, again)
			}
			if again == out {
				t.Errorf("dshtest %s printed the same page again", older)
			}
		})
	}
}

// TestHistoryPageOutgrowsWhatItHolds: a page of one step of more chunks
// than history holds (heldMin) is printed as the log is read again,
// its events not held: every event of the page, in order, the counted
// messages, and the same JSON as a page held, one event a member.
func TestHistoryPageOutgrowsWhatItHolds(t *testing.T) {
	n := int(heldMin/128) + 1000 // members, each held as more than 128 bytes
	row := `{"type":"text-chunks","seq0":3,"time0":1784630400000,"data":{"turn":1,"step":1,"index":0,"dt":[` +
		strings.TrimSuffix(strings.Repeat("0,", n-1), ",") + `],"texts":[` + strings.TrimSuffix(strings.Repeat(`"x",`, n), ",") + "]}}\n"
	log := `{"type":"session","version":0,"id":"s-h","createdAt":1784630400000,"cwd":"/p","delegationDepth":0}
{"type":"turn/start","seq":0,"time":1784630400000,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1784630400000,"data":{"turn":1,"step":1}}
{"type":"user/message","seq":2,"time":1784630400000,"data":{"content":[{"type":"text","text":"go"}],"source":{"kind":"user"}},"surfaceOp":"append"}
` + row + fmt.Sprintf(`{"type":"assistant/message","seq":%d,"time":1784630400000,"data":{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":[{"type":"text","text":"%s"}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append","sourceEventSeqs":[3]}
{"type":"step/end","seq":%d,"time":1784630400000,"data":{"turn":1,"step":1}}
{"type":"turn/end","seq":%d,"time":1784630400000,"data":{"turn":1,"reason":{"kind":"completed"}}}
`, n+3, strings.Repeat("x", 8), n+4, n+5)
	path := logforms.WriteFile(t, t.TempDir(), "big.jsonl", []byte(log))
	code, out, stderr := run("history", path, "--max", "2")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if want := fmt.Sprintf("page seqs 2–%d (%d events), hasMore true; counted 2: %d, 2", n+5, n+4, n+3); lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if len(lines) != n+6 || !strings.HasPrefix(strings.TrimSpace(lines[n+2]), fmt.Sprintf("%d assistant/message", n+3)) ||
		!strings.HasPrefix(lines[n+5], "older: dshtest history ") {
		t.Errorf("%d lines, line %d %q", len(lines), n+2, lines[min(n+2, len(lines)-1)])
	}
	code, out, stderr = run("history", path, "--max", "1", "--json")
	var page struct {
		From, To int64
		Counted  []int64
		Events   []json.RawMessage
	}
	if code != ExitOK || stderr != "" || json.Unmarshal([]byte(out), &page) != nil {
		t.Fatalf("--json: exit %d, stderr %q, %.200s", code, stderr, out)
	}
	if page.From != 3 || page.To != int64(n+5) || len(page.Events) != n+3 || !slices.Equal(page.Counted, []int64{int64(n + 3)}) {
		t.Errorf("--json: page %d–%d, %d events, counted %v", page.From, page.To, len(page.Events), page.Counted)
	}
}
