package container

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/ground/longline"
	"github.com/dshtest/dshtest/internal/testkit/logforms"
)

// FuzzRead feeds random bytes and mutations of valid raw and Zstandard logs
// to the content-detecting reader. It must never panic or loop; a log it
// accepts starts with its header at line 1 and yields lines in order; a raw
// log's lines are a prefix of the file's lines; refusals are one line.
func FuzzRead(f *testing.F) {
	text := jsonl(cat([]string{hdr}, turn(0), []string{
		`{"type":"text-chunks","seq0":4,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1,-1],"texts":["a","b","c"]}}`,
		`{"type":"tool-call-chunks","seq0":7,"time0":5,"data":{"turn":1,"step":1,"index":0,"id":"c","name":"bash","dt":[0],"args":["{","}"]}}`,
	}, turn(9))...)
	lines := linesOf(text)
	f.Add([]byte(text))
	f.Add([]byte(text[:len(text)-7]))
	f.Add([]byte(jsonl(hdr)))
	f.Add([]byte(strings.Replace(text, `"seq":2`, `"seq":3`, 1)))
	z := writeZstdLog(f, lines, 3)
	f.Add(z)
	f.Add(z[:len(z)-3])
	f.Add(z[:len(z)*3/4])
	f.Add(append(append([]byte(nil), z...), z...))
	f.Add([]byte("\x50\x2a\x4d\x18\x04\x00\x00\x00abcd"))
	zp := filepath.Join(f.TempDir(), "x.zip")
	writeZip(f, zp, []byte(text), "sub")
	if b, err := os.ReadFile(zp); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lg, err := OpenReader(bytes.NewReader(data), "fuzz", Options{MaxLine: 1 << 20})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("refusal is not one line: %q", err)
			}
			return
		}
		defer lg.Close()
		var raw [][]byte
		if lg.Form() == FormJSONL {
			raw = splitLines(data)
		}
		n, prev := 0, 0
		for lg.Next() {
			l := lg.Line()
			n++
			if n > 1<<22 {
				t.Fatal("too many lines: a loop?")
			}
			if l.Pos.Line <= prev || (n == 1 && l.Pos.Line != 1) {
				t.Fatalf("line %d at position %d after %d", n, l.Pos.Line, prev)
			}
			prev = l.Pos.Line
			checkMembers(t, l)
			if raw != nil && (l.Pos.Line > len(raw) || !bytes.Equal(raw[l.Pos.Line-1], l.Data)) {
				t.Fatalf("line %d is not the file's line", l.Pos.Line)
			}
		}
		if err := lg.Err(); err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("refusal is not one line: %q", err)
			}
			return
		}
		if n == 0 {
			t.Fatal("accepted a log without a header")
		}
		for _, w := range lg.Warnings() {
			if strings.Contains(w.String(), "\n") {
				t.Fatalf("warning is not one line: %q", w)
			}
		}
	})
}

// checkMembers: a line's Members, when the container split it, are its
// top-level members as fastjson.SplitObject splits it.
func checkMembers(t *testing.T, l Line) {
	t.Helper()
	if l.Members == nil {
		return
	}
	want, ok := fastjson.SplitObject(l.Data)
	if !ok || len(want) != len(l.Members) {
		t.Fatalf("line %d %q: members %v, SplitObject %d (ok %v)", l.Pos.Line, l.Data, l.Members, len(want), ok)
	}
	for i, sp := range l.Members {
		if sp.Key != want[i].Key || !bytes.Equal(l.Data[sp.Start:sp.End], want[i].Val) {
			t.Fatalf("line %d %q: member %d is %q %q, SplitObject's %q %q", l.Pos.Line, l.Data, i, sp.Key, l.Data[sp.Start:sp.End], want[i].Key, want[i].Val)
		}
	}
}

// TestLineMembers: every corpus log's lines that the container split are
// split as fastjson.SplitObject splits them, and the usual line is split.
func TestLineMembers(t *testing.T) {
	split, lines := 0, 0
	for _, c := range readCorpus(t) {
		lg, err := Open(filepath.Join(corpusDir, "upstream-logs", c.file), Options{})
		if err != nil {
			continue
		}
		for lg.Next() {
			l := lg.Line()
			checkMembers(t, l)
			lines++
			if l.Members != nil {
				split++
			}
		}
		lg.Close()
	}
	if lines == 0 || split < lines*9/10 {
		t.Errorf("%d of %d corpus lines split by the container; want nine in ten at least", split, lines)
	}
}

// TestLineOwned: a line of longline.OwnFrom bytes or more is given away
// (Line.Owned), a new allocation no later line writes over; a shorter one
// is not, a line of 3 MiB included, raw or compressed.
func TestLineOwned(t *testing.T) {
	long := `{"type":"session/title","seq":1,"time":1,"data":{"title":"` + strings.Repeat("y", longline.OwnFrom) + `"}}`
	text := `{"type":"session","version":0,"id":"o1","createdAt":1,"cwd":"/w"}` + "\n" +
		`{"type":"session/title","seq":0,"time":1,"data":{"title":"` + strings.Repeat("s", 3<<20) + `"}}` + "\n" + long + "\n" +
		`{"type":"session/title","seq":2,"time":1,"data":{"title":"` + strings.Repeat("z", longline.OwnFrom) + `"}}` + "\n"
	for _, form := range []string{"raw", "zstd"} {
		data := []byte(text)
		if form == "zstd" {
			data = logforms.Zstd(logforms.SplitLines(data), 2)
		}
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		lg, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var owned []bool
		var kept []byte
		for lg.Next() {
			l := lg.Line()
			owned = append(owned, l.Owned)
			if l.Owned && kept == nil {
				kept = l.Data
			}
		}
		if err := lg.Err(); err != nil {
			t.Fatal(err)
		}
		lg.Close()
		if want := []bool{false, false, true, true}; !slices.Equal(owned, want) {
			t.Errorf("%s: owned %v, want %v", form, owned, want)
		}
		if string(kept) != long {
			t.Errorf("%s: the first owned line changed after it was read", form)
		}
	}
}
