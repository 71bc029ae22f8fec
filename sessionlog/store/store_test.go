package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dshtest/dshtest/internal/testkit/containertest"
	"github.com/dshtest/dshtest/internal/testkit/logforms"
	"github.com/dshtest/dshtest/sessionlog/container"
)

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name, flag string
		env        map[string]string
		home, want string
		err        bool
	}{
		{"flag wins", "/s", map[string]string{"DSH_HOME": "/h"}, "/home/u", "/s", false},
		{"flag with tilde", "~/x", nil, "/home/u", "/home/u/x", false},
		{"DSH_HOME", "", map[string]string{"DSH_HOME": "/h"}, "/home/u", "/h/sessions", false},
		{"DSH_HOME with tilde", "", map[string]string{"DSH_HOME": "~/dsh"}, "/home/u", "/home/u/dsh/sessions", false},
		{"blank DSH_HOME is unset", "", map[string]string{"DSH_HOME": "  "}, "/home/u", "/home/u/.dsh/sessions", false},
		{"home", "", nil, "/home/u", "/home/u/.dsh/sessions", false},
		{"nothing", "", nil, "", "", true},
	}
	for _, c := range cases {
		got, err := Dir(c.flag, env(c.env), c.home)
		if (err != nil) != c.err || got != filepath.FromSlash(c.want) {
			t.Errorf("%s: %q %v, want %q", c.name, got, err, c.want)
		}
	}
}

// TestEncoding checks the examples of containers.md §4.
func TestEncoding(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a/b", "a~002Fb"}, {"x~y", "x~007Ey"}, {".", "~002E"}, {"..", "~002E~002E"},
		{"main-session-3f2a.b_c", "main-session-3f2a.b_c"}, {"{{sessionId}}", "~007B~007BsessionId~007D~007D"},
		{"é😀", "~00E9~D83D~DE00"},
	} {
		got, err := EncodeSegment(c.in)
		if err != nil || got != c.want {
			t.Errorf("EncodeSegment(%q) = %q %v, want %q", c.in, got, err, c.want)
		}
		if back, ok := DecodeSegment(got); !ok || back != c.in {
			t.Errorf("DecodeSegment(%q) = %q %v", got, back, ok)
		}
	}
	if _, err := EncodeSegment(""); err == nil {
		t.Error("the empty id encodes")
	}
	for _, c := range []struct{ in, want string }{
		{"/home/alice/src/my app", "--home-alice-src-my~0020app--"}, {`C:\Users\bob\proj`, "--C-Users-bob-proj--"},
		{"/", "--root--"}, {"//a::b", "--a-b--"}, {"/" + strings.Repeat("x", 300), "--" + strings.Repeat("x", 251) + "--"},
	} {
		if got, _ := ProjectKey(c.in); got != c.want {
			t.Errorf("ProjectKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStoreFindAndList(t *testing.T) {
	store := t.TempDir()
	mk := func(id, cwd string, created string, zstdForm bool) string {
		h := strings.NewReplacer(`"s1"`, `"`+id+`"`, `"/w"`, `"`+cwd+`"`, "1700000000000", created).Replace(logforms.Header)
		text := logforms.JSONL(logforms.Cat([]string{h}, logforms.Turn(0))...)
		p, err := SessionPath(store, cwd, id, zstdForm)
		if err != nil {
			t.Fatal(err)
		}
		b := []byte(text)
		if zstdForm {
			b = logforms.WriteZstd(t, logforms.SplitLines([]byte(text)), 50)
		}
		logforms.WriteFile(t, filepath.Dir(p), filepath.Base(p), b)
		return p
	}
	mk("old", "/a", "1600000000000", true)
	mk("new", "/b c", "1800000000000", false)
	mk("main-session-1/x", "/a", "1700000000000", true)
	logforms.WriteFile(t, filepath.Join(store, "cwd-0123456789ab"), "legacy.jsonl.zstd",
		logforms.WriteZstd(t, logforms.SplitLines([]byte(logforms.JSONL(strings.Replace(logforms.Header, `"s1"`, `"legacy"`, 1)))), 50))
	logforms.WriteFile(t, filepath.Join(store, "cwd-0123456789ab"), "liar.jsonl", []byte(logforms.JSONL(logforms.Header)))

	p, err := Find(store, "main-session-1/x")
	if err != nil || !strings.HasSuffix(p, filepath.FromSlash("--a--/main-session-1~002Fx")) {
		t.Fatalf("FindSession: %q %v", p, err)
	}
	lg, err := openSession(store, "main-session-1/x")
	containertest.Check(t, "open", lg, err, containertest.Want{Lines: 5})
	lg, err = openSession(store, "legacy")
	containertest.Check(t, "legacy layout", lg, err, containertest.Want{Lines: 1})
	lg, err = openSession(store, "liar")
	containertest.Check(t, "identity", lg, err, containertest.Want{Err: `stored session identity mismatch: requested "liar", header contains "s1"`, ErrLine: 1})
	_, err = openSession(store, "absent")
	containertest.Check(t, "absent", nil, err, containertest.Want{Err: `no session "absent" in the store`})
	both := mk("both", "/a", "1", false)
	logforms.WriteFile(t, filepath.Dir(both), "session.jsonl.zstd", logforms.WriteZstd(t, logforms.SplitLines([]byte(logforms.JSONL(logforms.Header))), 5))
	_, err = openSession(store, "both")
	containertest.Check(t, "both encodings", nil, err, containertest.Want{Err: "holds both"})
	os.RemoveAll(filepath.Dir(both))
	mk("new", "/elsewhere", "1", false)
	_, err = Find(store, "new")
	containertest.Check(t, "duplicate", nil, err, containertest.Want{Err: `session id "new" appears in several places`})

	list, err := List(store)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range list {
		ids = append(ids, s.ID+"|"+string(s.Form)+"|"+s.Problem)
	}
	// The session directories hold both encodings (TestListMixedEncodings).
	mixed := "the store holds sessions of both encodings (2 jsonl, 2 jsonl.zstd); upstream opens a root of one encoding and refuses the other"
	wantIDs := []string{
		"new|jsonl|duplicate session id in the store",
		"legacy|jsonl.zstd|",
		"main-session-1/x|jsonl.zstd|" + mixed,
		"s1|jsonl|stored session identity mismatch: the path names \"liar\", the header \"s1\"",
		"old|jsonl.zstd|" + mixed,
		"new|jsonl|duplicate session id in the store",
	}
	if strings.Join(ids, "\n") != strings.Join(wantIDs, "\n") {
		t.Fatalf("listing:\n%s\nwant:\n%s", strings.Join(ids, "\n"), strings.Join(wantIDs, "\n"))
	}
	if list[2].Cwd != "/a" || list[2].Created != "2023-11-14T22:13:20.000Z" || list[2].Size == 0 {
		t.Fatalf("entry %+v", list[2])
	}
	b, _ := json.Marshal(list[2])
	if !strings.Contains(string(b), `"id":"main-session-1/x","cwd":"/a","createdAt":1700000000000,"created":"2023-11-14T22:13:20.000Z"`) {
		t.Fatalf("json %s", b)
	}
}

func TestListShowsProblems(t *testing.T) {
	store := t.TempDir()
	dir := filepath.Join(store, "--a--", "x~002Fy")
	logforms.WriteFile(t, dir, "session.jsonl", []byte(logforms.JSONL(logforms.Header)))
	logforms.WriteFile(t, dir, "session.jsonl.zstd", []byte("junk"))
	logforms.WriteFile(t, filepath.Join(store, "--a--", "bad"), "session.jsonl", []byte("{oops\n"))
	list, err := listStore(store)
	if err != nil || len(list) != 2 {
		t.Fatalf("%+v %v", list, err)
	}
	if list[0].ID != "bad" || !strings.Contains(list[0].Problem, "header line is not valid JSON") ||
		list[1].ID != "x/y" || !strings.Contains(list[1].Problem, "holds both") {
		t.Fatalf("%+v", list)
	}
}

// openSession opens a store's session as a read of --session does: found
// by id, and its header held to it.
func openSession(root, id string) (*container.Log, error) {
	p, err := Find(root, id)
	if err != nil {
		return nil, err
	}
	return container.Open(p, container.Options{ID: id})
}

// TestListNeverOpensSpecialFiles: a FIFO named as a session log is listed
// with its problem, never opened (opening it would block the listing).
func TestListNeverOpensSpecialFiles(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "--w--")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	logforms.WriteFile(t, project, "s1.jsonl", []byte(logforms.JSONL(logforms.Header)))
	if err := syscall.Mkfifo(filepath.Join(project, "fifo.jsonl"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	done := make(chan []Session, 1)
	go func() {
		list, err := List(root)
		if err != nil {
			t.Error(err)
		}
		done <- list
	}()
	select {
	case list := <-done:
		if len(list) != 2 {
			t.Fatalf("listed %+v", list)
		}
		for _, s := range list {
			if s.ID == "fifo" && s.Problem != "not a regular file" {
				t.Fatalf("the FIFO's entry %+v", s)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the listing blocked on the FIFO")
	}
}

// TestListRefusesASpecialFile: a FIFO given as the database to list is
// refused, never opened (the open would block until a writer came).
func TestListRefusesASpecialFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := List(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("List of a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the listing blocked on the FIFO")
	}
}

// TestStoredIdentity: as upstream's listing and lookup do, a store's log
// must sit where its header's id and cwd put it (assertStoredIdentity),
// and a flat ID.jsonl[.zstd] file in a project directory of the current
// layout is refused; the older layout's flat files in cwd-HASH and
// _no-cwd are read. A refused lookup names the file and the reason; the
// listing shows it as the entry's problem.
func TestStoredIdentity(t *testing.T) {
	header := func(id, cwd string) []byte {
		h := `{"type":"session","version":0,"id":"` + id + `","createdAt":1,"delegationDepth":0`
		if cwd != "" {
			h += `,"cwd":"` + cwd + `"`
		}
		return []byte(h + "}\n")
	}
	for _, tc := range []struct {
		name, id, cwd string
		at            []string // the file's path under the store
		problem       string   // "" for a log found and listed without one
	}{
		{"in place", "s1", "/home/u/p", []string{"--home-u-p--", "s1", "session.jsonl"}, ""},
		{"in place, no cwd", "s1", "", []string{"_no-cwd", "s1", "session.jsonl.zstd"}, ""},
		{"another project", "s1", "/home/u/p", []string{"--home-u-q--", "s1", "session.jsonl"},
			`header id "s1" and cwd identify "STORE/--home-u-p--/s1/session.jsonl"`},
		{"no cwd in a project", "s1", "", []string{"--home-u-p--", "s1", "session.jsonl"},
			`header id "s1" and cwd identify "STORE/_no-cwd/s1/session.jsonl"`},
		{"flat in a project", "s1", "/home/u/p", []string{"--home-u-p--", "s1.jsonl"}, "unsupported flat-file layout"},
		{"older layout", "s1", "/home/u/p", []string{"cwd-0123456789ab", "s1.jsonl"}, ""},
		{"older layout, no cwd", "s1", "", []string{"_no-cwd", "s1.jsonl.zstd"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := t.TempDir()
			path := filepath.Join(append([]string{store}, tc.at...)...)
			text := header(tc.id, tc.cwd)
			if strings.HasSuffix(path, ".zstd") {
				text = logforms.ZstdFrame(t, text)
			}
			logforms.WriteFile(t, filepath.Dir(path), filepath.Base(path), text)
			want := strings.ReplaceAll(tc.problem, "STORE", store)
			_, err := Find(store, tc.id)
			switch {
			case want == "" && err != nil:
				t.Errorf("Find: %v", err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path)):
				t.Errorf("Find: %v; want a refusal of %s: %s", err, path, want)
			}
			list, err := listStore(store)
			if err != nil || len(list) != 1 {
				t.Fatalf("listStore: %+v %v", list, err)
			}
			if got := list[0].Problem; want == "" && got != "" || !strings.Contains(got, want) {
				t.Errorf("listed with problem %q, want %q", got, want)
			}
		})
	}
}

// TestListMixedEncodings: a store holding sessions of both encodings lists
// each with the problem upstream refuses such a root for; one encoding
// alone lists none.
func TestListMixedEncodings(t *testing.T) {
	store := t.TempDir()
	write := func(id string, zstd bool) {
		p, err := SessionPath(store, "/home/u/p", id, zstd)
		if err != nil {
			t.Fatal(err)
		}
		text := []byte(`{"type":"session","version":0,"id":"` + id + `","createdAt":1,"cwd":"/home/u/p","delegationDepth":0}` + "\n")
		if zstd {
			text = logforms.ZstdFrame(t, text)
		}
		logforms.WriteFile(t, filepath.Dir(p), filepath.Base(p), text)
	}
	write("a", false)
	write("b", false)
	list, err := listStore(store)
	if err != nil || len(list) != 2 || list[0].Problem != "" || list[1].Problem != "" {
		t.Fatalf("one encoding: %+v %v", list, err)
	}
	write("c", true)
	list, err = listStore(store)
	if err != nil || len(list) != 3 {
		t.Fatalf("%+v %v", list, err)
	}
	for _, s := range list {
		if !strings.Contains(s.Problem, "both encodings (2 jsonl, 1 jsonl.zstd)") {
			t.Errorf("%s listed with problem %q", s.ID, s.Problem)
		}
	}
}

// TestStoredIdentityRequested: a session directory named for one id whose
// header holds another is refused on lookup in the words of upstream's
// load (containers.md §1.5), not as misplaced.
func TestStoredIdentityRequested(t *testing.T) {
	store := t.TempDir()
	p, err := SessionPath(store, "/home/u/p", "asked", false)
	if err != nil {
		t.Fatal(err)
	}
	logforms.WriteFile(t, filepath.Dir(p), filepath.Base(p),
		[]byte(`{"type":"session","version":0,"id":"other","createdAt":1,"cwd":"/home/u/p","delegationDepth":0}`+"\n"))
	lg, err := openSession(store, "asked")
	containertest.Check(t, "open", lg, err, containertest.Want{Err: `stored session identity mismatch: requested "asked", header contains "other"`, ErrLine: 1})
}

// TestListMixedEncodingsHealthyOnly: a broken file (an empty
// session.jsonl.zstd, a zip where session.jsonl belongs) is listed with its
// own problem and does not make a store of one encoding look mixed.
func TestListMixedEncodingsHealthyOnly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		zstd   bool
		broken []byte
	}{
		{"zstd store, an empty zstd file", true, nil},
		{"jsonl store, a zip as session.jsonl", false, []byte("PK\x03\x04junk")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := t.TempDir()
			for _, id := range []string{"a", "b", "broken"} {
				p, err := SessionPath(store, "/home/u/p", id, tc.zstd)
				if err != nil {
					t.Fatal(err)
				}
				text := []byte(`{"type":"session","version":0,"id":"` + id + `","createdAt":1,"cwd":"/home/u/p","delegationDepth":0}` + "\n")
				if tc.zstd {
					text = logforms.ZstdFrame(t, text)
				}
				if id == "broken" {
					text = tc.broken
				}
				logforms.WriteFile(t, filepath.Dir(p), filepath.Base(p), text)
			}
			list, err := listStore(store)
			if err != nil || len(list) != 3 {
				t.Fatalf("%+v %v", list, err)
			}
			for _, s := range list {
				if (s.ID == "broken") == (s.Problem == "") || strings.Contains(s.Problem, "both encodings") {
					t.Errorf("%s listed with problem %q", s.ID, s.Problem)
				}
			}
		})
	}
}
