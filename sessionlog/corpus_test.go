package sessionlog_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/header"
	"github.com/dshtest/dshtest/sessionlog/recovery"
	"github.com/dshtest/dshtest/sessionlog/upgrade"
)

// sharedDir returns ../shared/<sub> relative to the repository root (the
// directory holding go.mod), skipping the test when it is absent.
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", sub)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is absent (the project's shared spec and corpus sit at ../shared next to the repository): %v", p, err)
	}
	return p
}

// corpusEntry is one row of upstream-logs.tsv.
type corpusEntry struct {
	file, expect, class, note string
}

func readCorpus(t *testing.T) (dir string, entries []corpusEntry) {
	t.Helper()
	root := sharedDir(t, "corpus")
	raw, err := os.ReadFile(filepath.Join(root, "upstream-logs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("upstream-logs.tsv:%d: %d columns", i+1, len(f))
		}
		entries = append(entries, corpusEntry{f[0], f[1], f[2], f[3]})
	}
	return filepath.Join(root, "upstream-logs"), entries
}

// expandPacked expands a packed chunk row (containers.md §5) into its
// assistant/chunk events; other lines come back as they are. The container
// layer owns this for real; the test needs it only to feed whole events.
func expandPacked(line []byte) ([][]byte, error) {
	var row struct {
		Type  string `json:"type"`
		Seq0  *int64 `json:"seq0"`
		Time0 *int64 `json:"time0"`
		Data  struct {
			Turn, Step, Index json.RawMessage
			ID                json.RawMessage `json:"id"`
			Name              json.RawMessage `json:"name"`
			Dt                []int64         `json:"dt"`
			Texts             []string        `json:"texts"`
			Args              []string        `json:"args"`
		} `json:"data"`
	}
	if !bytes.Contains(line[:min(len(line), 40)], []byte("-chunks\"")) {
		return [][]byte{line}, nil
	}
	if err := json.Unmarshal(line, &row); err != nil || row.Seq0 == nil {
		return [][]byte{line}, nil
	}
	members := row.Data.Texts
	if row.Type == "tool-call-chunks" {
		members = row.Data.Args
	}
	if len(row.Data.Dt) != len(members)-1 {
		return nil, fmt.Errorf("malformed %s storage row", row.Type)
	}
	var out [][]byte
	tm := *row.Time0
	for k, text := range members {
		if k > 0 {
			tm += row.Data.Dt[k-1]
		}
		q, _ := json.Marshal(text)
		var chunk string
		switch row.Type {
		case "text-chunks", "reasoning-chunks":
			kind := strings.TrimSuffix(row.Type, "-chunks") + "-delta"
			chunk = fmt.Sprintf(`{"type":%q,"index":%s,"text":%s}`, kind, row.Data.Index, q)
		default:
			name := ""
			if row.Data.Name != nil {
				name = `,"name":` + string(row.Data.Name)
			}
			chunk = fmt.Sprintf(`{"type":"tool-call-delta","index":%s,"id":%s%s,"argumentsDelta":%s}`, row.Data.Index, row.Data.ID, name, q)
		}
		out = append(out, fmt.Appendf(nil, `{"type":"assistant/chunk","seq":%d,"time":%d,"data":{"turn":%s,"step":%s,"chunk":%s}}`,
			*row.Seq0+int64(k), tm, row.Data.Turn, row.Data.Step, chunk))
	}
	return out, nil
}

// currentShape checks a message event against log.md §8.3 (the shape upstream
// validates after the upgrades): it returns the first rule broken, or "".
func currentShape(line []byte) string {
	var ev struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(line, &ev); err != nil {
		return "not JSON"
	}
	var data map[string]json.RawMessage
	if json.Unmarshal(ev.Data, &data) != nil {
		return "data is not an object"
	}
	msgRaw := ev.Data
	if ev.Type != "user/message" {
		msgRaw = data["message"]
	}
	var msg struct {
		ID      *string                      `json:"id"`
		Role    string                       `json:"role"`
		Content []map[string]json.RawMessage `json:"content"`
		Source  map[string]json.RawMessage   `json:"source"`
	}
	if json.Unmarshal(msgRaw, &msg) != nil || msg.ID == nil || *msg.ID == "" {
		return "lacks an identified message"
	}
	wantRole := "user"
	if ev.Type == "assistant/message" {
		wantRole = "assistant"
	}
	if msg.Role != wantRole {
		return fmt.Sprintf("message must have role %q", wantRole)
	}
	str := func(m map[string]json.RawMessage, k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	if msg.Source == nil || str(msg.Source, "kind") == "" {
		return "message has invalid source"
	}
	if msg.Content == nil {
		return "message has invalid content"
	}
	switch ev.Type {
	case "assistant/message":
		if str(msg.Source, "kind") != "model" || str(msg.Source, "provider") == "" || str(msg.Source, "model") == "" {
			return "message must have model source"
		}
	case "tool/result":
		if str(msg.Source, "kind") != "tool" || str(msg.Source, "callId") == "" {
			return "message must have tool source"
		}
		if len(msg.Content) != 1 || str(msg.Content[0], "type") != "tool-result" || !bytes.HasPrefix(msg.Content[0]["content"], []byte("[")) {
			return "message must contain one tool-result block"
		}
		if str(msg.Content[0], "toolCallId") != str(msg.Source, "callId") {
			return "message has mismatched tool call ids"
		}
	}
	return ""
}

// readResult is what the reader's rules made of one corpus file.
type readResult struct {
	header   header.Header
	events   int
	upgraded int
	closers  []recovery.Closer
	types    map[string]int
	err      error // the first refusal, with its line
	shapeErr string
	seqs     []int64
	lines    [][]byte // the upgraded events
}

// readLog runs the header, upgrade, vocabulary and recovery rules over one
// file's lines. skipHeader feeds the events even when the header is refused,
// to find which later rule a refused file would also meet.
func readLog(path string, skipHeader bool) readResult {
	res := readResult{types: map[string]int{}}
	f, err := os.Open(path)
	if err != nil {
		res.err = err
		return res
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	base := filepath.Base(path)
	var up *upgrade.Upgrader
	var rec recovery.Recoverer
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if n == 1 {
			h, err := header.Parse(line)
			if err != nil && !skipHeader {
				res.err = fmt.Errorf("%s:%d: %w", base, n, err)
				return res
			}
			res.header = h
			up = upgrade.New(h.ID)
			continue
		}
		lines, err := expandPacked(line)
		if err != nil {
			res.err = fmt.Errorf("%s:%d: %w", base, n, err)
			return res
		}
		for _, ev := range lines {
			out, changed, err := up.Upgrade(ev)
			if err != nil {
				res.err = fmt.Errorf("%s:%d: %w", base, n, err)
				return res
			}
			_ = changed
			var env struct {
				Type       string          `json:"type"`
				Seq        int64           `json:"seq"`
				Ignorable  bool            `json:"ignorable"`
				SurfaceOp  json.RawMessage `json:"surfaceOp"`
				HasSurface bool            `json:"-"`
			}
			if err := json.Unmarshal(out, &env); err != nil {
				res.err = fmt.Errorf("%s:%d: %w", base, n, err)
				return res
			}
			if _, err := sessionlog.CheckType(sessionlog.TypeCheck{Type: env.Type, Seq: env.Seq, Ignorable: env.Ignorable, HasSurfaceOp: env.SurfaceOp != nil}); err != nil {
				res.err = fmt.Errorf("%s:%d: %w", base, n, err)
				return res
			}
			res.types[env.Type]++
			res.seqs = append(res.seqs, env.Seq)
			switch env.Type {
			case "user/message", "assistant/message", "tool/result":
				if why := currentShape(out); why != "" && res.shapeErr == "" {
					res.shapeErr = fmt.Sprintf("%s:%d: seq %d %s: %s", base, n, env.Seq, env.Type, why)
				}
			}
			rec.Feed(out)
			res.lines = append(res.lines, bytes.Clone(out))
			res.events++
		}
	}
	if err := sc.Err(); err != nil {
		res.err = err
		return res
	}
	if up != nil {
		res.upgraded = up.Upgraded()
	}
	res.closers, res.err = rec.Closers()
	return res
}

// TestCorpus runs the header, upgrade, vocabulary and recovery rules over
// every file of upstream-logs.tsv: each accept file reads with no refusal
// and every message comes out in the current shape; each not-genuine refuse
// file is refused by the header rule; the seq-gap file passes these rules
// and is left to the container's torn-tail rule.
func TestCorpus(t *testing.T) {
	dir, entries := readCorpus(t)
	var accepted, refused, upgradedFiles, upgradedEvents, headerOnly, noDepth, recovered, placeholderIDs, relCWD int
	for _, e := range entries {
		path := filepath.Join(dir, e.file)
		res := readLog(path, false)
		switch {
		case e.expect == "accept":
			if res.err != nil {
				t.Errorf("%s: accept file refused: %v", e.file, res.err)
				continue
			}
			if res.shapeErr != "" {
				t.Errorf("%s: not in the current shape after the upgrades: %s", e.file, res.shapeErr)
			}
			for i, s := range res.seqs {
				if s != int64(i) {
					t.Errorf("%s: seq %d at index %d", e.file, s, i)
					break
				}
			}
			accepted++
			if res.upgraded > 0 {
				upgradedFiles++
				upgradedEvents += res.upgraded
			}
			if strings.Contains(e.note, "older message shapes") && res.upgraded == 0 {
				t.Errorf("%s: the tsv lists older shapes (%s) but nothing was upgraded", e.file, e.note)
			}
			if !strings.Contains(e.note, "older message shapes") && res.upgraded > 0 {
				t.Errorf("%s: %d events upgraded, but the tsv lists no older shape", e.file, res.upgraded)
			}
			if res.events == 0 {
				headerOnly++
			}
			if !res.header.HasDelegationDepth {
				noDepth++
			}
			if res.header.PlaceholderID() {
				placeholderIDs++
			}
			if res.header.HasCWD && !res.header.AbsoluteCWD() {
				relCWD++
			}
			if len(res.closers) > 0 {
				recovered++
				t.Logf("%s: ends inside a turn; %d synthetic closers from seq %d", e.file, len(res.closers), res.closers[0].Seq)
			}
		case e.class == "not-genuine":
			var he *sessionlog.Error
			if !errors.As(res.err, &he) || he.Layer != sessionlog.LayerHeader {
				t.Errorf("%s: not-genuine file not refused by the header rule: %v", e.file, res.err)
				continue
			}
			refused++
			later := readLog(path, true)
			t.Logf("%s: refused: %v; past the header: %v", e.file, res.err, describe(later))
		case e.class == "seq-gap":
			if res.err != nil {
				t.Errorf("%s: these rules should pass the seq-gap file (the container refuses it): %v", e.file, res.err)
				continue
			}
			gap := ""
			for i, s := range res.seqs {
				if s != int64(i) {
					gap = fmt.Sprintf("event %d has seq %d", i+1, s)
					break
				}
			}
			if gap == "" {
				t.Errorf("%s: no seq gap found", e.file)
			}
			refused++
			t.Logf("%s: passes header/upgrade/vocabulary (%d upgraded); refused by the container's torn-tail rule: %s", e.file, res.upgraded, gap)
		default:
			t.Errorf("%s: unexpected verdict %s/%s", e.file, e.expect, e.class)
		}
	}
	t.Logf("accept %d (upgraded %d events in %d files; header-only %d; no delegationDepth %d; placeholder ids %d; non-absolute cwd %d; ending inside a turn %d); refuse %d",
		accepted, upgradedEvents, upgradedFiles, headerOnly, noDepth, placeholderIDs, relCWD, recovered, refused)
	if accepted != 156 || refused != 13 {
		t.Errorf("counts: accept %d, refuse %d; the tsv has 156 and 13", accepted, refused)
	}
}

// describe says what the rules made of a refused file once its header is
// passed over.
func describe(r readResult) string {
	switch {
	case r.err != nil:
		return r.err.Error()
	case r.shapeErr != "":
		return "message shape: " + r.shapeErr
	}
	for i, s := range r.seqs {
		if s != int64(i) {
			return fmt.Sprintf("seq gap: event %d has seq %d (container rule)", i+1, s)
		}
	}
	return fmt.Sprintf("nothing more from these rules (%d events, %d closers)", r.events, len(r.closers))
}

// TestCorpusTypesKnown checks every event type the corpus uses against the
// vocabulary.
func TestCorpusTypesKnown(t *testing.T) {
	dir, entries := readCorpus(t)
	seen := map[string]bool{}
	for _, e := range entries {
		res := readLog(filepath.Join(dir, e.file), true)
		for typ := range res.types {
			seen[typ] = true
		}
	}
	for typ := range seen {
		if _, ok := sessionlog.LookupType(typ); !ok {
			t.Errorf("corpus type %q is not in the vocabulary", typ)
		}
	}
	if len(seen) < 39 { // 39 event types in the corpus (vocabulary.md §2 counts the two mirrors)
		t.Errorf("only %d types seen in the corpus", len(seen))
	}
}

// TestCorpusRecoveryCuts cuts every accepted corpus log after each event
// that leaves a turn open, as a crash would, and checks the closers on real
// shapes: seqs continue the log, times repeat the last event's, the
// interrupted tool results are well-formed current tool results, and once
// the closers are fed the turn is closed.
func TestCorpusRecoveryCuts(t *testing.T) {
	dir, entries := readCorpus(t)
	var cuts, unknown, notStarted, steps int
	for _, e := range entries {
		if e.expect != "accept" {
			continue
		}
		res := readLog(filepath.Join(dir, e.file), false)
		if res.err != nil {
			t.Fatalf("%s: %v", e.file, res.err)
		}
		var rec recovery.Recoverer
		for i, line := range res.lines {
			rec.Feed(line)
			if !rec.Open() {
				continue
			}
			closers, err := rec.Closers()
			if err != nil {
				t.Fatalf("%s: cut after seq %d: %v", e.file, res.seqs[i], err)
			}
			cuts++
			var last struct{ Time json.RawMessage }
			_ = json.Unmarshal(line, &last)
			for k, c := range closers {
				var ev struct {
					Type string
					Seq  int64
					Time json.RawMessage
				}
				if err := json.Unmarshal(c.Line, &ev); err != nil || ev.Seq != res.seqs[i]+1+int64(k) || string(ev.Time) != string(last.Time) || !c.Synthetic {
					t.Fatalf("%s: cut after seq %d: closer %d %s", e.file, res.seqs[i], k, c.Line)
				}
				switch c.Kind {
				case recovery.ToolOutcomeUnknown, recovery.ToolNotStarted:
					if why := currentShape(c.Line); why != "" {
						t.Fatalf("%s: closer %s: %s", e.file, c.Line, why)
					}
					if c.Kind == recovery.ToolOutcomeUnknown {
						unknown++
					} else {
						notStarted++
					}
				case recovery.StepEnd:
					steps++
				}
			}
			if closers[len(closers)-1].Kind != recovery.TurnEnd {
				t.Fatalf("%s: the last closer is %v", e.file, closers[len(closers)-1].Kind)
			}
			if i%7 == 0 { // a sample: replay the prefix and its closers afresh
				var again recovery.Recoverer
				for _, l := range res.lines[:i+1] {
					again.Feed(l)
				}
				for _, c := range closers {
					again.Feed(c.Line)
				}
				if again.Open() {
					t.Fatalf("%s: cut after seq %d: still open after the closers", e.file, res.seqs[i])
				}
			}
		}
		if rec.Open() {
			t.Errorf("%s: an accepted log ends inside a turn", e.file)
		}
	}
	t.Logf("%d cuts inside a turn: %d outcome-unknown and %d not-started tool results, %d step/ends", cuts, unknown, notStarted, steps)
	if cuts == 0 || unknown == 0 || notStarted == 0 {
		t.Error("the cuts did not reach every closer kind")
	}
}

// BenchmarkCorpusUpgrade runs the upgrader over every event of the accepted
// corpus logs, packed rows expanded: the mix a real log has.
func BenchmarkCorpusUpgrade(b *testing.B) {
	root := sharedDir(b, "corpus")
	raw, err := os.ReadFile(filepath.Join(root, "upstream-logs.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	var size int64
	for _, row := range strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] {
		f := strings.Split(row, "\t")
		if f[1] != "accept" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, "upstream-logs", f[0]))
		if err != nil {
			b.Fatal(err)
		}
		for i, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			if i == 0 {
				continue
			}
			ev, _ := expandPacked(l)
			for _, e := range ev {
				lines = append(lines, e)
				size += int64(len(e))
			}
		}
	}
	b.SetBytes(size)
	for b.Loop() {
		u := upgrade.New("s")
		for _, l := range lines {
			if _, _, err := u.Upgrade(l); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/event")
}
