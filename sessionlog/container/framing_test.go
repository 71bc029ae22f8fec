package container

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/logforms"
)

// TestZstdFraming: the framing a Zstandard log is found in, and how many
// complete frames it has.
func TestZstdFraming(t *testing.T) {
	h := hdr + "\n"
	t1, t2 := jsonl(turn(0)...), jsonl(turn(4)...)
	// testdata/zstd-cli.jsonl.zst is `zstd -q` 1.5.4's output for
	// testdata/zstd-cli.jsonl.
	cli, err := os.ReadFile(filepath.Join("testdata", "zstd-cli.jsonl.zst"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		data    []byte
		framing Framing
		frames  int
		lines   int
	}{
		{"upstream's", zlog(t, h, t1, t2), FramingBatches, 3, 9},
		{"header only", zlog(t, h), FramingBatches, 1, 1},
		{"one frame", zlog(t, h+t1+t2), FramingStream, 1, 9},
		{"a streaming encoder's one frame", logforms.ZstdWhole(t, []byte(h+t1+t2)), FramingStream, 1, 9},
		{"the zstd command's", cli, FramingStream, 1, 9},
		{"two logs' frames concatenated", zlog(t, h+t1, t2), FramingStream, 2, 9},
		{"cut mid-line", zlog(t, h[:7], h[7:]+t1, t2), FramingStream, 3, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, open := range []func() (*Log, error){
				func() (*Log, error) { return Open(writeFile(t, t.TempDir(), "log.zst", c.data), Options{}) },
				func() (*Log, error) { return OpenReader(bytes.NewReader(c.data), "r", Options{}) },
				func() (*Log, error) {
					return OpenReader(struct{ io.Reader }{bytes.NewReader(c.data)}, "pipe", Options{})
				},
			} {
				lg, err := open()
				if err != nil {
					t.Fatal(err)
				}
				framing, frames := lg.Framing()
				lines, _, warns, refusal := read(lg, nil)
				if refusal != nil || len(warns) != 0 {
					t.Fatalf("refusal %v, warnings %v", refusal, warns)
				}
				if framing != c.framing || frames != c.frames || len(lines) != c.lines {
					t.Errorf("%s: framing %q, %d frames, %d lines; want %q, %d, %d", lg.Name(), framing, frames, len(lines), c.framing, c.frames, c.lines)
				}
			}
		})
	}
	t.Run("the zstd command's reads as the raw log does", func(t *testing.T) {
		raw, err := os.ReadFile(filepath.Join("testdata", "zstd-cli.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		want, _, _, _ := read(OpenReader(bytes.NewReader(raw), "r", Options{}))
		got, _, _, _ := read(OpenReader(bytes.NewReader(cli), "r", Options{}))
		if d := cmp.Diff(want, got); d != "" {
			t.Error(d)
		}
	})
	t.Run("other forms have none", func(t *testing.T) {
		lg, err := OpenReader(bytes.NewReader([]byte(h+t1)), "r", Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer lg.Close()
		if f, n := lg.Framing(); f != "" || n != 0 {
			t.Errorf("raw JSONL: framing %q, %d frames", f, n)
		}
	})
}

// FuzzZstdFraming cuts a plaintext into frames at the fuzzer's offsets
// and reads the result. The framing is upstream's exactly when the first
// frame is one newline-terminated line; any other cut reads as the raw
// text does (same lines at the same positions, same refusal, same
// warnings); upstream's framing yields a prefix of the text's lines.
func FuzzZstdFraming(f *testing.F) {
	text := jsonl(cat([]string{hdr}, turn(0), turn(4))...)
	first := len(hdr) + 1
	f.Add([]byte(text), []byte{})
	f.Add([]byte(text), []byte{byte(first)})
	f.Add([]byte(text), []byte{byte(first), 60, 90})
	f.Add([]byte(text), []byte{7, 200})
	f.Add([]byte(text[:len(text)-5]), []byte{byte(first)})
	f.Add([]byte(text[:len(text)-5]), []byte{30})
	f.Add([]byte(jsonl(hdr, ev(0, "turn/start"), "{bad", ev(1, "turn/end"))), []byte{byte(first)})
	f.Add([]byte(jsonl(hdr, ev(0, "turn/start"), "{bad", ev(1, "turn/end"))), []byte{})
	f.Add([]byte(jsonl(ev(0, "turn/start"))), []byte{})
	f.Fuzz(func(t *testing.T, plain, cuts []byte) {
		// Offsets: each cut byte advances by 1–256 bytes from the last.
		var pieces [][]byte
		at := 0
		for _, c := range cuts {
			next := min(at+int(c)+1, len(plain))
			pieces = append(pieces, plain[at:next])
			at = next
		}
		pieces = append(pieces, plain[at:])
		var data []byte
		for _, p := range pieces {
			data = append(data, zstdFrame(t, p)...)
		}
		opts := Options{MaxLine: 1 << 16}
		lg, err := OpenReader(bytes.NewReader(data), "f", opts)
		if err != nil {
			return // a structural refusal: no frame at all cannot happen, but a decoder may refuse
		}
		framing, frames := lg.Framing()
		lines, pos, warns, refusal := read(lg, nil)
		if frames != len(pieces) {
			t.Fatalf("%d frames, made %d", frames, len(pieces))
		}
		p0 := pieces[0]
		upstream := len(p0) > 0 && bytes.IndexByte(p0, '\n') == len(p0)-1 && len(p0) <= opts.MaxLine+2
		if (framing == FramingBatches) != upstream {
			t.Fatalf("framing %q for a first frame of %q", framing, p0)
		}
		rawLines, rawPos, rawWarns, rawRefusal := read(OpenReader(bytes.NewReader(plain), "f", opts))
		if framing == FramingStream {
			if d := cmp.Diff(errText(rawRefusal), errText(refusal)); d != "" {
				t.Fatalf("refusal differs from the raw text's:\n%s", d)
			}
			if d := cmp.Diff(rawLines, lines); d != "" {
				t.Fatalf("lines differ from the raw text's:\n%s", d)
			}
			if d := cmp.Diff(rawPos, pos); d != "" {
				t.Fatalf("positions differ from the raw text's:\n%s", d)
			}
			if d := cmp.Diff(rawWarns, warns); d != "" {
				t.Fatalf("warnings differ from the raw text's:\n%s", d)
			}
			return
		}
		if refusal == nil && len(lines) > len(rawLines) {
			t.Fatalf("%d lines from upstream's framing, %d in the text", len(lines), len(rawLines))
		}
		all := splitLines(plain)
		for i, l := range lines {
			if !bytes.Equal(l, all[pos[i].Line-1]) {
				t.Fatalf("line %d is not the text's line %d", i, pos[i].Line)
			}
		}
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
