package upgrade

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// legacyByDecode is the reference for the fast check: upstream's conditions
// for a legacy message, on a full encoding/json decode.
func legacyByDecode(typ string, data map[string]json.RawMessage) bool {
	has := func(k string) bool { _, ok := data[k]; return ok }
	switch typ {
	case "user/message":
		return !has("id") && !has("role") && !has("message") && has("content") && has("source")
	case "assistant/message":
		return !has("message") && has("content") && has("provenance")
	case "tool/result":
		return !has("message") && has("callId") && has("content") && has("isError")
	}
	return false
}

// FuzzUpgrade: Upgrade never panics; refusals are *Error; an unchanged line
// comes back as it went in; a changed line was valid JSON, is valid JSON,
// keeps its seq and time, and is left alone by a second pass; and on
// messages the fast check agrees with a full decode.
func FuzzUpgrade(f *testing.F) {
	for _, s := range []string{
		`{"type":"user/message","seq":2,"time":5,"data":{"content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}`,
		`{"type":"user/message","seq":2,"time":5,"data":{"id":"m","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`,
		`{"type":"assistant/message","seq":9,"time":7,"data":{"turn":1,"step":1,"content":[],"provenance":{"provider":"p","model":"m"}},"surfaceOp":"append"}`,
		`{"type":"tool/result","seq":11,"time":8,"data":{"turn":1,"step":1,"callId":"c","content":[],"isError":false},"surfaceOp":{"op":"replace","start":4,"end":4}}`,
		`{"type":"steering/message","seq":7,"time":3,"data":{"turn":2,"content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`,
		`{"type":"steering/message","seq":6,"time":3,"data":{"turn":1,"message":{"content":[],"source":{}}}}`,
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1,"trigger":{"kind":"message"}}}`,
		`{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","step":2,"failure":{"message":"boom","code":"E"}}}}`,
		`{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","step":1,"message":"boom"}}}`,
		`{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"aborted"}}}`,
		`{"type":"request/header","seq":5,"time":1,"data":{"reason":"fallback"}}`,
		`{"type":"mode/set","seq":4,"time":1,"data":{}}`,
		`{"type":"assistant/chunk","seq":3,"time":1,"data":{}}`,
		`{"seq":2,"type":"user/message","data":{"content":1,"source":2,"content":3}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		u := New("s")
		in := bytes.Clone(line)
		out, changed, err := u.Upgrade(line)
		if !bytes.Equal(line, in) {
			t.Fatal("Upgrade wrote to its input")
		}
		if err != nil {
			var ue *sessionlog.Error
			if !errors.As(err, &ue) || !json.Valid(line) {
				t.Fatalf("err %v (%T) on %s", err, err, line)
			}
			return
		}
		if !changed {
			if !bytes.Equal(out, line) {
				t.Fatalf("unchanged but different: %s", out)
			}
		} else {
			if !json.Valid(line) || !json.Valid(out) {
				t.Fatalf("changed %s into %s", line, out)
			}
			var a, b map[string]json.RawMessage
			_ = json.Unmarshal(line, &a)
			_ = json.Unmarshal(out, &b)
			if !bytes.Equal(a["seq"], b["seq"]) || !bytes.Equal(a["time"], b["time"]) {
				t.Fatalf("seq or time changed: %s → %s", line, out)
			}
			if again, ch, err := New("s").Upgrade(out); ch || err != nil {
				t.Fatalf("second pass changed %v err %v: %s → %s", ch, err, out, again)
			}
		}

		// The fast check against a decode, on lines without repeated
		// top-level keys (where the first "type" and "data" are the last).
		members, ok := fastjson.Members(line)
		n := 0
		fastjson.Each(line, func(string, []byte) bool { n++; return true })
		var env map[string]json.RawMessage // exact keys: a struct would match them case-blind
		if !ok || n != len(members) || !json.Valid(line) || json.Unmarshal(line, &env) != nil {
			return
		}
		var typ string
		if json.Unmarshal(env["type"], &typ) != nil {
			return
		}
		if _, safe := fastjson.SafeInt(env["seq"]); !safe {
			return
		}
		var data map[string]json.RawMessage
		if json.Unmarshal(env["data"], &data) != nil || data == nil {
			return
		}
		if want := legacyByDecode(typ, data); want != changed {
			switch typ {
			case "user/message", "assistant/message", "tool/result":
				t.Fatalf("fast check: changed %v, a decode says legacy %v: %s", changed, want, line)
			}
		}
	})
}
