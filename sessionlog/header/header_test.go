package header

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dshtest/dshtest/sessionlog"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		want    Header
		wantErr string
	}{
		{"current", `{"type":"session","version":0,"id":"s-1","createdAt":1784630399995,"cwd":"/workspace/project","delegationDepth":0}` + "\n",
			Header{ID: "s-1", CreatedAt: 1784630399995, CWD: "/workspace/project", HasCWD: true, HasDelegationDepth: true}, ""},
		{"subagent", `{"type":"session","version":0,"id":"c","createdAt":5,"cwd":"/w","parentSession":"p","seedLength":3,"origin":"subagent","delegationDepth":1,"agentPreset":"review"}`,
			Header{ID: "c", CreatedAt: 5, CWD: "/w", HasCWD: true, ParentSession: "p", SeedLength: 3, HasSeedLength: true, Origin: "subagent", DelegationDepth: 1, HasDelegationDepth: true, AgentPreset: "review"}, ""},
		{"no delegationDepth (web recorder)", `{"type":"session","version":0,"id":"w","createdAt":0,"cwd":"{{cwd}}/workspace"}`,
			Header{ID: "w", CWD: "{{cwd}}/workspace", HasCWD: true}, ""},
		{"placeholders", `{"type":"session","version":0,"id":"{{sessionId}}","createdAt":0,"cwd":"{{cwd}}","delegationDepth":0}`,
			Header{ID: "{{sessionId}}", CWD: "{{cwd}}", HasCWD: true, HasDelegationDepth: true}, ""},
		{"relative cwd", `{"type":"session","version":0,"id":"r","createdAt":0,"cwd":"work/dir","delegationDepth":0}`,
			Header{ID: "r", CWD: "work/dir", HasCWD: true, HasDelegationDepth: true}, ""},
		{"no cwd", `{"type":"session","version":0,"id":"n","createdAt":1,"delegationDepth":0}`,
			Header{ID: "n", CreatedAt: 1, HasDelegationDepth: true}, ""},
		{"ephemeral", `{"type":"session","version":0,"id":"e","createdAt":1,"ephemeral":true}`,
			Header{ID: "e", CreatedAt: 1, Ephemeral: true}, ""},
		{"CRLF", `{"type":"session","version":0,"id":"c","createdAt":1}` + "\r\n", Header{ID: "c", CreatedAt: 1}, ""},
		{"key order free", `{"id":"k","createdAt":2,"version":0,"type":"session"}`, Header{ID: "k", CreatedAt: 2}, ""},
		{"retired fields", `{"type":"session","version":0,"id":"old","createdAt":1,"delegationDepth":1,"sandboxMode":"read-only","approvalPolicy":"never"}`,
			Header{ID: "old", CreatedAt: 1, DelegationDepth: 1, HasDelegationDepth: true, Warnings: []string{
				"session header uses retired policy baseline fields (sandboxMode, approvalPolicy), which upstream refuses; read without them"}}, ""},
		{"retired one field", `{"type":"session","version":0,"id":"old","createdAt":1,"approvalPolicy":"ask"}`,
			Header{ID: "old", CreatedAt: 1, Warnings: []string{
				"session header uses retired policy baseline fields (approvalPolicy), which upstream refuses; read without them"}}, ""},

		{"newer version", `{"type":"session","version":1,"id":"s-1","createdAt":1,"delegationDepth":0}`, Header{},
			`session "s-1" uses log format v1, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it`},
		{"newer version, new shape", `{"type":"session","version":3,"id":"s-1"}`, Header{},
			`session "s-1" uses log format v3, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it`},
		{"older version", `{"type":"session","version":-1,"id":"s-1","createdAt":1}`, Header{},
			`session "s-1" uses log format v-1, older than the supported v0, and this build ships no upgrade path for it`},
		{"fractional version", `{"type":"session","version":0.5,"id":"s","createdAt":1}`, Header{},
			`session "s" uses log format v0.5, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it`},
		{"version 1.0 is 1", `{"type":"session","version":1.0,"id":"s"}`, Header{},
			`session "s" uses log format v1, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it`},
		{"numeric id in refusal", `{"type":"session","version":2,"id":7}`, Header{},
			`session "7" uses log format v2, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it`},
		{"missing version", `{"type":"session","id":"44444444-3333-4222-8111-000000000000","createdAt":17,"cwd":"/rec/authored-cwd","delegationDepth":0}`, Header{},
			`corrupt session log: first line is not a session header: it has no "version" (every harness since 2026-06-15 writes "version":0)`},
		{"string version", `{"type":"session","version":"0","id":"s","createdAt":1}`, Header{},
			`corrupt session log: first line is not a session header: "version" is not a number`},
		{"empty", "\n", Header{}, "empty or header-less session log"},
		{"not JSON", `{"type":"session",`, Header{}, "corrupt session log: header line is not valid JSON"},
		{"not an object", `[1,2]`, Header{}, "corrupt session log: first line is not a session header: the line is not a JSON object"},
		{"event line", `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`, Header{},
			`corrupt session log: first line is not a session header: "type" is not "session"`},
		{"id not string", `{"type":"session","version":0,"id":5,"createdAt":1}`, Header{},
			`corrupt session log: first line is not a session header: "id" is not a string`},
		{"no createdAt", `{"type":"session","version":0,"id":"s"}`, Header{},
			`corrupt session log: first line is not a session header: it has no "createdAt"`},
		{"negative createdAt", `{"type":"session","version":0,"id":"s","createdAt":-1}`, Header{},
			`corrupt session log: first line is not a session header: "createdAt" is not a non-negative safe integer`},
		{"-0 createdAt", `{"type":"session","version":0,"id":"s","createdAt":-0}`, Header{},
			`corrupt session log: first line is not a session header: "createdAt" is not a non-negative safe integer`},
		{"unsafe createdAt", `{"type":"session","version":0,"id":"s","createdAt":9007199254740992}`, Header{},
			`corrupt session log: first line is not a session header: "createdAt" is not a non-negative safe integer`},
		{"fractional depth", `{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0.5}`, Header{},
			`corrupt session log: first line is not a session header: "delegationDepth" is not a non-negative safe integer`},
		{"bad origin", `{"type":"session","version":0,"id":"s","createdAt":1,"origin":"fork"}`, Header{},
			`corrupt session log: first line is not a session header: "origin" is not "subagent"`},
		{"bad agentPreset", `{"type":"session","version":0,"id":"s","createdAt":1,"agentPreset":1}`, Header{},
			`corrupt session log: first line is not a session header: "agentPreset" is not a string`},
		{"bad cwd", `{"type":"session","version":0,"id":"s","createdAt":1,"cwd":null}`, Header{}, "session header cwd must be a string"},
		{"bad parent", `{"type":"session","version":0,"id":"s","createdAt":1,"parentSession":1}`, Header{}, "session header parentSession must be a string"},
		{"bad seedLength", `{"type":"session","version":0,"id":"s","createdAt":1,"seedLength":-2}`, Header{}, "session header seedLength must be a non-negative safe integer"},
		{"bad ephemeral", `{"type":"session","version":0,"id":"s","createdAt":1,"ephemeral":false}`, Header{}, "session header ephemeral must be true when present"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.line))
			if tt.wantErr != "" {
				var he *sessionlog.Error
				if !errors.As(err, &he) || he.Reason != tt.wantErr || he.Layer != sessionlog.LayerHeader || err.Error() != tt.wantErr {
					t.Fatalf("err = %v\nwant header: %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			if string(g) != string(w) {
				t.Errorf("got  %s\nwant %s", g, w)
			}
		})
	}
}

func TestHeaderHelpers(t *testing.T) {
	tests := []struct {
		h                      Header
		placeID, placeCWD, abs bool
	}{
		{Header{ID: "{{sessionId}}", CWD: "{{cwd}}/workspace"}, true, true, false},
		{Header{ID: "{{child-1}}", CWD: "/home/a"}, true, false, true},
		{Header{ID: "main-session-1", CWD: `C:\Users\bob`}, false, false, true},
		{Header{ID: "x", CWD: `\\server\share`}, false, false, true},
		{Header{ID: "x", CWD: "rel"}, false, false, false},
		{Header{ID: "x{y}", CWD: ""}, false, false, false},
	}
	for _, tt := range tests {
		if tt.h.PlaceholderID() != tt.placeID || tt.h.PlaceholderCWD() != tt.placeCWD || tt.h.AbsoluteCWD() != tt.abs {
			t.Errorf("%+v: placeholder id %v cwd %v, absolute %v", tt.h, tt.h.PlaceholderID(), tt.h.PlaceholderCWD(), tt.h.AbsoluteCWD())
		}
	}
	h := Header{CreatedAt: 1784630399995}
	if got := h.Created(); !got.Equal(time.UnixMilli(1784630399995)) || got.Location() != time.UTC {
		t.Errorf("Created() = %v", got)
	}
}

func TestIsHeader(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{`{"type":"session","version":0,"id":"s"}`, true},
		{`{"type":"session","id":"s"}` + "\r\n", true},
		{`{"id":"s","type":"session"}`, true},
		{`{"type":"session","seq":0,"time":1,"data":{}}`, false}, // an event typed "session"
		{`{"type":"turn/start","seq":0}`, false},
		{`not json`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := IsHeader([]byte(tt.line)); got != tt.want {
			t.Errorf("IsHeader(%q) = %v", tt.line, got)
		}
	}
}

func TestSecond(t *testing.T) {
	if err := Second(5); err.Error() != "a second session header at line 5" || err.Layer != sessionlog.LayerHeader {
		t.Errorf("got %v", err)
	}
}

func TestVersionRefusal(t *testing.T) {
	if got := VersionRefusal("a\"b", "2", true); !strings.HasPrefix(got, `session "a\"b" uses log format v2, but`) {
		t.Errorf("got %s", got)
	}
}

// FuzzParse: Parse never panics, accepts only headers whose version is 0,
// and what it accepts round-trips through its own fields.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"type":"session","version":0,"id":"s-1","createdAt":1784630399995,"cwd":"/workspace/project","delegationDepth":0}`,
		`{"type":"session","version":0,"id":"{{sessionId}}","createdAt":0,"cwd":"{{cwd}}"}`,
		`{"type":"session","version":1,"id":"s","createdAt":1}`,
		`{"type":"session","id":"s","createdAt":1,"sandboxMode":"x"}`,
		`{"type":"session","version":0,"id":"s","createdAt":1,"id":"t","version":0}`,
		`{"type":"session","version":0,"id":"\u00e9\ud800","createdAt":1e3}`,
		"", "\n", "[]", "null", `{"type":"session"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		h, err := Parse(line)
		if err != nil {
			var he *sessionlog.Error
			if !errors.As(err, &he) || strings.ContainsAny(he.Reason, "\n") {
				t.Fatalf("error %v (%T)", err, err)
			}
			return
		}
		if h.Version != 0 || h.CreatedAt < 0 || h.DelegationDepth < 0 || h.SeedLength < 0 {
			t.Fatalf("accepted %+v", h)
		}
		var v map[string]any
		if json.Unmarshal(line, &v) != nil {
			t.Fatalf("accepted invalid JSON %q", line)
		}
		if v["version"] != float64(0) || v["id"] != h.ID || v["type"] != "session" {
			t.Fatalf("fields differ: %v vs %+v", v, h)
		}
	})
}
