package cli

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// TestHeldInputChanged: a log replaced (by rename or in place), grown or
// touched between repro's two reads is refused as bad input, one line,
// before the second read; an unchanged one is read again.
func TestHeldInputChanged(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "sessionlog", "testdata", "example-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
	}{
		{"unchanged", nil},
		{"replaced by rename", func(t *testing.T, path string) {
			tmp := path + ".new"
			must(t, os.WriteFile(tmp, src, 0o644))
			must(t, os.Rename(tmp, path))
		}},
		{"rewritten in place", func(t *testing.T, path string) {
			must(t, os.WriteFile(path, src[:len(src)/2], 0o644))
		}},
		{"appended to", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			must(t, err)
			_, err = f.Write([]byte("\n"))
			must(t, err)
			must(t, f.Close())
		}},
		{"touched", func(t *testing.T, path string) {
			later := time.Now().Add(time.Hour)
			must(t, os.Chtimes(path, later, later))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			must(t, os.WriteFile(path, src, 0o644))
			h := holdInput(path)
			if h == nil {
				t.Fatal("holdInput: nil")
			}
			defer h.Close()
			if tc.change != nil {
				tc.change(t, path)
			}
			n := 0
			err := h.each(func() error {
				s, err := reader.Open(path, reader.Options{})
				if err != nil {
					return err
				}
				defer s.Close()
				for s.Next() {
					n++
				}
				return s.Err()
			})
			if tc.change == nil {
				if err != nil || n != 41 {
					t.Fatalf("each: %d events, %v; want 41, nil", n, err)
				}
				return
			}
			var ie *sessionlog.Error
			if !errors.As(err, &ie) || changedInput(err) == nil || n != 0 {
				t.Fatalf("each after a change: %d events, %v; want the changed-input error and none", n, err)
			}
			if want := path + ": " + errChanged; err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReproInput: repro holds the file it reads, LOG or the store's file
// of --session (so that it reads a user's session twice rather than keep
// its events), and holds nothing it cannot read again as it was.
func TestReproInput(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	session := filepath.Join(store, "--home-u-proj--", "s-one", "session.jsonl")
	must(t, os.MkdirAll(filepath.Dir(session), 0o755))
	must(t, os.WriteFile(session, []byte("{}\n"), 0o644))
	a := &app{}
	for _, tc := range []struct {
		name string
		args []string
		f    logFlags
		want string // the file held, "" for none
	}{
		{"a file", []string{session}, logFlags{}, session},
		{"a session directory", []string{filepath.Dir(session)}, logFlags{}, session},
		{"a store's session", nil, logFlags{session: "s-one", store: store}, session},
		{"no such session", nil, logFlags{session: "s-two", store: store}, ""},
		{"a pipe", []string{"/dev/stdin"}, logFlags{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := a.reproInput(tc.args, &tc.f)
			defer h.Close()
			got := ""
			if h != nil {
				got = h.path
			}
			if got != tc.want {
				t.Errorf("held %q, want %q", got, tc.want)
			}
		})
	}
}
