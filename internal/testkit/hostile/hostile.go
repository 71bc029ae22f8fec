// Package hostile makes hostile session logs and checks outputs against the
// byte rule: no byte of a log reaches a terminal, a JSON output
// or a written file raw. Tests of every output path use it.
package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/dshtest/dshtest/terminal/display"
)

// Payload is what a hostile log carries in every string: an OSC title, a
// CSI screen clear, C1 CSI/OSC/ST, a BiDi override and isolates, the BiDi
// marks, a BOM, the line and paragraph separators, tag characters, DEL and
// C0 controls.
const Payload = "\x1b]0;PWNED\x07\x1b[2J\u009b31m\u009d8;;x\u009c\u202eevil\u202c\u2066\u2069\u061c\u200e\u200f\ufeff\u2028\u2029\U000e0041\U000e007f\x7f\x01\t\r"

// enumKeys hold values a reader matches exactly; the payload there would
// make the log invalid rather than hostile.
var enumKeys = map[string]bool{"type": true, "role": true, "kind": true, "surfaceOp": true,
	"blockType": true, "trigger": true, "status": true, "op": true}

// Log returns the JSONL log in with Payload appended to every string of
// every event's data that is not an enumeration (ids consistently, so the
// log stays valid), a session header line whose id carries it, and a last
// ignorable event whose type carries it.
func Log(in []byte) ([]byte, error) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"type": "session", "version": 0, "id": "session-" + Payload, "createdAt": 0, "delegationDepth": 0}); err != nil {
		return nil, err
	}
	var seq, last int64
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var ev map[string]any
		if err := d.Decode(&ev); err != nil {
			return nil, fmt.Errorf("hostile: %w", err)
		}
		if ev["type"] == "session" {
			continue
		}
		ev["data"] = value("data", ev["data"])
		if n, ok := ev["seq"].(json.Number); ok {
			s, _ := n.Int64()
			seq = s + 1
		}
		if n, ok := ev["time"].(json.Number); ok {
			last, _ = n.Int64()
		}
		if err := enc.Encode(ev); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	err := enc.Encode(map[string]any{"type": "x" + Payload, "seq": seq, "time": last, "ignorable": true,
		"data": map[string]any{"note": Payload}})
	return out.Bytes(), err
}

func value(key string, v any) any {
	switch v := v.(type) {
	case string:
		if enumKeys[key] {
			return v
		}
		return v + Payload
	case map[string]any:
		for k, x := range v {
			v[k] = value(k, x)
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = value(key, x)
		}
		return v
	}
	return v
}

var sgrRE = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// StripSGR removes SGR sequences: the renderer's own styling.
func StripSGR(s string) string { return sgrRE.ReplaceAllString(s, "") }

// Check applies the byte rule to an output: it must be valid UTF-8 and
// hold no byte of C0 but LF, no DEL, no C1 and no character that
// display.Reorders. The error names the line and the character.
func Check(text string) error {
	if !utf8.ValidString(text) {
		i := 0
		for i < len(text) {
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("invalid UTF-8 at byte %d", i)
	}
	line := 1
	for i, r := range text {
		switch {
		case r == '\n':
			line++
		case display.Unsafe(r):
			return fmt.Errorf("line %d: %U reaches the output: %q", line, r, lineAt(text, i))
		}
	}
	return nil
}

func lineAt(s string, i int) string {
	a := bytes.LastIndexByte([]byte(s[:i]), '\n') + 1
	b := bytes.IndexByte([]byte(s[i:]), '\n')
	if b < 0 {
		return s[a:]
	}
	return s[a : i+b]
}

// Text returns a random text of fewer than max of pieces, chosen by rng:
// the inputs of tests that hold a text function to a simpler oracle.
func Text(rng *rand.Rand, pieces []string, max int) string {
	var b strings.Builder
	for range rng.IntN(max) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}
