package cli

import (
	"path/filepath"
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
