package upgrade

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
)

// TestUpgrade checks each rule of containers.md §7 on one event, with a
// fresh Upgrader for session "sid".
func TestUpgrade(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" = unchanged
		wantErr        string
	}{
		// Pre-identity messages.
		{"user pre-identity",
			`{"type":"user/message","seq":2,"time":5,"data":{"content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}`,
			`{"type":"user/message","seq":2,"time":5,"data":{"content":[{"type":"text","text":"hi"}],"source":{"kind":"user"},"id":"legacy-message:sid:2","role":"user"},"surfaceOp":"append"}`, ""},
		{"user pre-identity keeps other keys",
			`{"type":"user/message","seq":3,"time":5,"data":{"source":{"kind":"plugin","plugin":"p"},"extra":1,"content":[]},"surfaceOp":"append"}`,
			`{"type":"user/message","seq":3,"time":5,"data":{"source":{"kind":"plugin","plugin":"p"},"extra":1,"content":[],"id":"legacy-message:sid:3","role":"user"},"surfaceOp":"append"}`, ""},
		{"user current", `{"type":"user/message","seq":2,"time":5,"data":{"id":"m","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`, "", ""},
		{"user with role but no id is left to validation", `{"type":"user/message","seq":2,"time":5,"data":{"role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`, "", ""},
		{"user without source is left to validation", `{"type":"user/message","seq":2,"time":5,"data":{"content":[]},"surfaceOp":"append"}`, "", ""},
		{"user data not a record", `{"type":"user/message","seq":2,"time":5,"data":[1],"surfaceOp":"append"}`, "", ""},
		{"assistant pre-identity",
			`{"type":"assistant/message","seq":9,"time":7,"data":{"turn":1,"step":1,"content":[{"type":"text","text":"ok"}],"provenance":{"provider":"deepseek","model":"v4","replayState":{"a":1}},"usage":{"inputTokens":1,"outputTokens":2}},"surfaceOp":"append","sourceEventSeqs":[5,6]}`,
			`{"type":"assistant/message","seq":9,"time":7,"data":{"turn":1,"step":1,"usage":{"inputTokens":1,"outputTokens":2},"message":{"id":"legacy-message:sid:9","role":"assistant","content":[{"type":"text","text":"ok"}],"source":{"provider":"deepseek","model":"v4","replayState":{"a":1},"kind":"model"}}},"surfaceOp":"append","sourceEventSeqs":[5,6]}`, ""},
		{"assistant provenance with kind keeps its place",
			`{"type":"assistant/message","seq":1,"time":0,"data":{"turn":1,"step":1,"content":[],"provenance":{"kind":"x","provider":"p","model":"m"}},"surfaceOp":"append"}`,
			`{"type":"assistant/message","seq":1,"time":0,"data":{"turn":1,"step":1,"message":{"id":"legacy-message:sid:1","role":"assistant","content":[],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}`, ""},
		{"assistant provenance not a record",
			`{"type":"assistant/message","seq":1,"time":0,"data":{"turn":1,"step":1,"content":[],"provenance":null},"surfaceOp":"append"}`,
			`{"type":"assistant/message","seq":1,"time":0,"data":{"turn":1,"step":1,"message":{"id":"legacy-message:sid:1","role":"assistant","content":[],"source":{"kind":"model"}}},"surfaceOp":"append"}`, ""},
		{"assistant current", `{"type":"assistant/message","seq":9,"time":7,"data":{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":[],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}`, "", ""},
		{"assistant without provenance is left to validation", `{"type":"assistant/message","seq":9,"time":7,"data":{"turn":1,"step":1,"content":[]},"surfaceOp":"append"}`, "", ""},
		{"tool result pre-identity",
			`{"type":"tool/result","seq":11,"time":8,"data":{"turn":1,"step":1,"callId":"call-1","content":[{"type":"text","text":"out"}],"isError":false,"meta":{"exitCode":0}},"surfaceOp":"append","sourceEventSeqs":[10]}`,
			`{"type":"tool/result","seq":11,"time":8,"data":{"turn":1,"step":1,"meta":{"exitCode":0},"message":{"id":"legacy-message:sid:11","role":"user","content":[{"type":"tool-result","toolCallId":"call-1","content":[{"type":"text","text":"out"}],"isError":false}],"source":{"kind":"tool","callId":"call-1"}}},"surfaceOp":"append","sourceEventSeqs":[10]}`, ""},
		{"tool result with error",
			`{"type":"tool/result","seq":4,"time":8,"data":{"turn":1,"step":1,"callId":"c","content":[],"isError":true,"error":{"name":"E","code":"X"}},"surfaceOp":"append"}`,
			`{"type":"tool/result","seq":4,"time":8,"data":{"turn":1,"step":1,"error":{"name":"E","code":"X"},"message":{"id":"legacy-message:sid:4","role":"user","content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":true}],"source":{"kind":"tool","callId":"c"}}},"surfaceOp":"append"}`, ""},
		{"tool result replace of an unknown target has no id",
			`{"type":"tool/result","seq":12,"time":8,"data":{"turn":1,"step":1,"callId":"c","content":[],"isError":false},"surfaceOp":{"op":"replace","start":4,"end":4},"sourceEventSeqs":[4]}`,
			`{"type":"tool/result","seq":12,"time":8,"data":{"turn":1,"step":1,"message":{"role":"user","content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}],"source":{"kind":"tool","callId":"c"}}},"surfaceOp":{"op":"replace","start":4,"end":4},"sourceEventSeqs":[4]}`, ""},
		{"tool result replace with a non-numeric start mints an id",
			`{"type":"tool/result","seq":12,"time":8,"data":{"turn":1,"step":1,"callId":"c","content":[],"isError":false},"surfaceOp":{"op":"replace","start":"4","end":4}}`,
			`{"type":"tool/result","seq":12,"time":8,"data":{"turn":1,"step":1,"message":{"id":"legacy-message:sid:12","role":"user","content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}],"source":{"kind":"tool","callId":"c"}}},"surfaceOp":{"op":"replace","start":"4","end":4}}`, ""},
		{"tool result current", `{"type":"tool/result","seq":11,"time":8,"data":{"turn":1,"step":1,"message":{"id":"r","role":"user","content":[],"source":{"kind":"tool","callId":"c"}}},"surfaceOp":"append"}`, "", ""},
		{"tool result without isError is left to validation", `{"type":"tool/result","seq":11,"time":8,"data":{"turn":1,"step":1,"callId":"c","content":[]},"surfaceOp":"append"}`, "", ""},

		// Pre-react-loop steering/message.
		{"steering wrapped",
			`{"type":"steering/message","seq":6,"time":3,"data":{"turn":1,"message":{"id":"m6","role":"user","content":[],"source":{"kind":"user"}}},"surfaceOp":"append"}`,
			`{"type":"user/message","seq":6,"time":3,"data":{"id":"m6","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`, ""},
		{"steering wrapped pre-identity also gets an id",
			`{"type":"steering/message","seq":6,"time":3,"data":{"turn":1,"message":{"content":[],"source":{"kind":"user"}}},"surfaceOp":"append"}`,
			`{"type":"user/message","seq":6,"time":3,"data":{"content":[],"source":{"kind":"user"},"id":"legacy-message:sid:6","role":"user"},"surfaceOp":"append"}`, ""},
		{"steering pre-identity",
			`{"type":"steering/message","seq":7,"time":3,"data":{"turn":2,"content":[{"type":"text","text":"wait"}],"source":{"kind":"user"}},"surfaceOp":"append"}`,
			`{"type":"user/message","seq":7,"time":3,"data":{"content":[{"type":"text","text":"wait"}],"source":{"kind":"user"},"id":"legacy-message:sid:7","role":"user"},"surfaceOp":"append"}`, ""},
		{"steering malformed: extra key", `{"type":"steering/message","seq":7,"time":3,"data":{"turn":2,"content":[],"source":{},"x":1},"surfaceOp":"append"}`, "",
			`session "sid" contains malformed pre-react-loop steering/message at seq 7`},
		{"steering malformed: turn not an integer", `{"type":"steering/message","seq":8,"time":3,"data":{"turn":1.5,"message":{}}}`, "",
			`session "sid" contains malformed pre-react-loop steering/message at seq 8`},
		{"steering malformed: data not a record", `{"type":"steering/message","seq":8,"time":3,"data":"x"}`, "",
			`session "sid" contains malformed pre-react-loop steering/message at seq 8`},

		// Pre-react-loop turn/start.
		{"turn/start trigger", `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1,"trigger":{"kind":"message","source":{"kind":"user"}}}}`,
			`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`, ""},
		{"turn/start trigger retry", `{"type":"turn/start","seq":0,"time":1,"data":{"trigger":{"kind":"retry"},"turn":3}}`,
			`{"type":"turn/start","seq":0,"time":1,"data":{"turn":3}}`, ""},
		{"turn/start current", `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`, "", ""},
		{"turn/start current with extra keys is left to validation", `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1,"x":2}}`, "", ""},
		{"turn/start turn 0", `{"type":"turn/start","seq":0,"time":1,"data":{"turn":0,"trigger":{"kind":"message"}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/start at seq 0`},
		{"turn/start empty kind", `{"type":"turn/start","seq":4,"time":1,"data":{"turn":1,"trigger":{"kind":""}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/start at seq 4`},
		{"turn/start extra key", `{"type":"turn/start","seq":4,"time":1,"data":{"turn":1,"trigger":{"kind":"retry"},"x":1}}`, "",
			`session "sid" contains malformed pre-react-loop turn/start at seq 4`},

		// turn/end reasons.
		{"turn/end aborted", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"aborted"}}}`,
			`{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"aborted","reason":{"kind":"legacy"}}}}`, ""},
		{"turn/end disposed", `{"type":"turn/end","seq":5,"time":1,"data":{"reason":{"kind":"disposed"},"turn":1}}`,
			`{"type":"turn/end","seq":5,"time":1,"data":{"reason":{"kind":"aborted","reason":{"kind":"disposed"}},"turn":1}}`, ""},
		{"turn/end error failure", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","step":2,"failure":{"message":"boom","code":"E_HTTP","status":500,"requestId":"r"}}}}`,
			`{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","error":{"message":"boom","code":"E_HTTP","status":500,"requestId":"r"}}}}`, ""},
		{"turn/end error message and code", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","step":0,"message":"boom","code":"X"}}}`,
			`{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","error":{"message":"boom","code":"X"}}}}`, ""},
		{"turn/end error message only", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","step":1,"message":"boom"}}}`,
			`{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","error":{"message":"boom","code":"UNKNOWN"}}}}`, ""},
		{"turn/end current error", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","error":{"message":"snapshot disk full","code":"UNKNOWN"}}}}`, "", ""},
		{"turn/end current aborted", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"aborted","reason":{"kind":"user"}}}}`, "", ""},
		{"turn/end completed", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"completed"}}}`, "", ""},
		{"turn/end interrupted", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"interrupted"}}}`, "", ""},
		{"turn/end unknown kind passes", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"new","x":1}}}`, "", ""},
		{"turn/end completed with extra", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"completed","x":1}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/end at seq 5`},
		{"turn/end authored error (not-genuine fixture)", `{"type":"turn/end","seq":1,"time":17,"data":{"error":"model exploded"}}`, "",
			`session "sid" contains malformed pre-react-loop turn/end at seq 1`},
		{"turn/end extra data key", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"step":1,"reason":{"kind":"completed"}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/end at seq 5`},
		{"turn/end error without step", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","message":"m"}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/end at seq 5`},
		{"turn/end error failure with null status", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","step":1,"failure":{"message":"m","code":"c","status":null}}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/end at seq 5`},
		{"turn/end error code not a string", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"error","step":1,"message":"m","code":3}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/end at seq 5`},
		{"turn/end aborted with extra", `{"type":"turn/end","seq":5,"time":1,"data":{"turn":1,"reason":{"kind":"aborted","why":"x"}}}`, "",
			`session "sid" contains malformed pre-react-loop turn/end at seq 5`},
		{"turn/end data not a record", `{"type":"turn/end","seq":5,"time":1,"data":null}`, "", ""},

		// Refusals.
		{"request/header-delta", `{"type":"request/header-delta","seq":3,"time":1,"data":{}}`, "",
			`session "sid" contains unsupported legacy request/header-delta event at seq 3`},
		{"mode/set", `{"type":"mode/set","seq":4,"time":1,"data":{"mode":"plan"}}`, "",
			`session "sid" contains unsupported legacy mode/set event at seq 4`},
		{"request/header fallback", `{"type":"request/header","seq":5,"time":1,"data":{"header":{"config":{"provider":"p","model":"m"}},"reason":"fallback"}}`, "",
			`session "sid" contains unsupported legacy request/header reason "fallback" at seq 5`},
		{"request/header fallback escaped", `{"type":"request/header","seq":5,"time":1,"data":{"header":{},"reason":"fall\u0062ack"}}`, "",
			`session "sid" contains unsupported legacy request/header reason "fallback" at seq 5`},
		{"request/header initial", `{"type":"request/header","seq":5,"time":1,"data":{"header":{"config":{"provider":"p","model":"m"},"tools":"{{tools}}"},"reason":"initial"}}`, "", ""},

		// Everything else is untouched.
		{"chunk", `{"type":"assistant/chunk","seq":3,"time":1,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"x"}}}`, "", ""},
		{"packed row", `{"type":"text-chunks","seq0":3,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[0,0],"texts":["a","b","c"]}}`, "", ""},
		{"unknown type", `{"type":"x/y","seq":3,"time":1,"data":{"content":[],"provenance":{}}}`, "", ""},
		{"type not first", `{"seq":2,"type":"user/message","time":5,"data":{"content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`,
			`{"seq":2,"type":"user/message","time":5,"data":{"content":[],"source":{"kind":"user"},"id":"legacy-message:sid:2","role":"user"},"surfaceOp":"append"}`, ""},
		{"invalid JSON is the decoder's", `{"type":"user/message","seq":2,"data":{"content":[],"source":{}}`, "", ""},
		{"not an object", `[1]`, "", ""},
		{"white space kept outside rewritten members", `{"type":"turn/start", "seq": 0, "time":1, "data":{"turn":1,"trigger":{"kind":"retry"}}}`,
			`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := New("sid")
			out, changed, err := u.Upgrade([]byte(tt.in))
			if tt.wantErr != "" {
				var ue *sessionlog.Error
				if !errors.As(err, &ue) || ue.Reason != tt.wantErr || ue.Layer != sessionlog.LayerUpgrade || err.Error() != tt.wantErr {
					t.Fatalf("err = %v\nwant upgrade: %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "" {
				want = tt.in
			}
			if changed != (tt.want != "") || string(out) != want {
				t.Fatalf("changed %v\ngot  %s\nwant %s", changed, out, want)
			}
			if changed && u.Upgraded() != 1 || !changed && u.Upgraded() != 0 {
				t.Errorf("Upgraded() = %d", u.Upgraded())
			}
			if changed {
				if again, ch, err := New("sid").Upgrade(out); err != nil || ch {
					t.Errorf("upgrading the output again: changed %v, err %v: %s", ch, err, again)
				}
			}
		})
	}
}

// TestLegacyReplaceInheritsID runs a log in order: a legacy replacement
// tool/result takes the id of the message it replaces, whether that message
// was itself upgraded or stored current.
func TestLegacyReplaceInheritsID(t *testing.T) {
	lines := []string{
		`{"type":"tool/result","seq":4,"time":1,"data":{"turn":1,"step":1,"callId":"c","content":[{"type":"text","text":"long"}],"isError":false},"surfaceOp":"append","sourceEventSeqs":[3]}`,
		`{"type":"tool/result","seq":5,"time":1,"data":{"turn":1,"step":1,"message":{"id":"cur-5","role":"user","content":[],"source":{"kind":"tool","callId":"d"}}},"surfaceOp":"append"}`,
		`{"type":"tool/result","seq":6,"time":2,"data":{"turn":2,"step":1,"callId":"c","content":[{"type":"text","text":"short"}],"isError":false},"surfaceOp":{"op":"replace","start":4,"end":4},"sourceEventSeqs":[4]}`,
		`{"type":"tool/result","seq":7,"time":2,"data":{"turn":2,"step":1,"callId":"d","content":[],"isError":false},"surfaceOp":{"op":"replace","start":5,"end":5},"sourceEventSeqs":[5]}`,
		`{"type":"tool/result","seq":8,"time":2,"data":{"turn":2,"step":1,"callId":"c","content":[],"isError":false},"surfaceOp":{"op":"replace","start":6,"end":6},"sourceEventSeqs":[6]}`,
		`{"type":"user/message","seq":9,"time":2,"data":{"id":"u-9","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`,
		`{"type":"tool/result","seq":10,"time":2,"data":{"turn":2,"step":1,"callId":"c","content":[],"isError":false},"surfaceOp":{"op":"replace","start":9.0,"end":9}}`,
	}
	wantIDs := []string{"legacy-message:S:4", "cur-5", "legacy-message:S:4", "cur-5", "legacy-message:S:4", "u-9", "u-9"}
	u := New("S")
	for i, l := range lines {
		out, _, err := u.Upgrade([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		var ev struct {
			Data struct {
				ID      string `json:"id"`
				Message struct {
					ID string `json:"id"`
				} `json:"message"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &ev); err != nil {
			t.Fatalf("%d: %v: %s", i, err, out)
		}
		id := ev.Data.Message.ID + ev.Data.ID
		if id != wantIDs[i] {
			t.Errorf("line %d: id %q, want %q", i, id, wantIDs[i])
		}
	}
	if u.Upgraded() != 5 {
		t.Errorf("Upgraded() = %d, want 5", u.Upgraded())
	}
}

// TestSessionIDQuoted: an id that needs JSON escaping is escaped in the
// minted id and in the refusal text's quotes.
func TestSessionIDQuoted(t *testing.T) {
	u := New(`a"b<c>`)
	out, _, err := u.Upgrade([]byte(`{"type":"user/message","seq":1,"time":0,"data":{"content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"id":"legacy-message:a\"b<c>:1"`)) {
		t.Errorf("got %s", out)
	}
	_, _, err = u.Upgrade([]byte(`{"type":"mode/set","seq":2,"time":0,"data":{}}`))
	if err == nil || !strings.Contains(err.Error(), `session "a\"b<c>" contains`) {
		t.Errorf("err = %v", err)
	}
}

// BenchmarkUpgradeCurrent measures the cost on current-shape events, which
// must stay a scan, not a decode.
func BenchmarkUpgradeCurrent(b *testing.B) {
	lines := [][]byte{
		[]byte(`{"type":"assistant/chunk","seq":3,"time":1,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"` + strings.Repeat("x", 200) + `"}}}`),
		[]byte(`{"type":"user/message","seq":2,"time":5,"data":{"role":"user","content":[{"type":"text","text":"` + strings.Repeat("y", 2000) + `"}],"source":{"kind":"user"},"id":"m"},"surfaceOp":"append"}`),
		[]byte(`{"type":"tool/result","seq":11,"time":8,"data":{"turn":1,"step":1,"message":{"id":"r","role":"user","content":[{"type":"tool-result","toolCallId":"c","content":[{"type":"text","text":"` + strings.Repeat("z", 2000) + `"}]}],"source":{"kind":"tool","callId":"c"}}},"surfaceOp":"append"}`),
	}
	u := New("s")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, changed, err := u.Upgrade(lines[i%len(lines)]); changed || err != nil {
			b.Fatal(changed, err)
		}
	}
}

// TestRefusalQuotesOddSeq: a seq that is not a number reaches the refusal
// quoted, never raw.
func TestRefusalQuotesOddSeq(t *testing.T) {
	_, _, err := New("s").Upgrade([]byte(`{"type":"mode/set","seq":"\u001b[2J","time":0,"data":{}}`))
	if err == nil || err.Error() != `session "s" contains unsupported legacy mode/set event at seq "\x1b[2J"` {
		t.Fatalf("err = %v", err)
	}
}

// BenchmarkUpgradeTurns measures the slow path on the pre-react-loop turn
// events a long log holds thousands of, and the id a message records.
func BenchmarkUpgradeTurns(b *testing.B) {
	lines := [][]byte{
		[]byte(`{"type":"turn/start","seq":2,"time":1,"data":{"turn":1,"trigger":{"kind":"message","source":{"kind":"user"}}}}`),
		[]byte(`{"type":"user/message","seq":3,"time":5,"data":{"role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"},"id":"m"},"surfaceOp":"append"}`),
		[]byte(`{"type":"turn/end","seq":4,"time":9,"data":{"turn":1,"reason":{"kind":"aborted"}}}`),
	}
	b.ReportAllocs()
	for b.Loop() {
		u := New("s")
		for _, l := range lines {
			if _, _, err := u.Upgrade(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}
