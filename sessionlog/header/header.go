// Package header parses and checks the session header, the first line of
// upstream's JSONL container: {"type":"session","version":0,"id":…,…}.
//
// The rules are upstream's (spec containers.md §1), relaxed where genuine
// recordings break them: a missing delegationDepth (the web e2e recorder
// writes the in-memory header), a non-absolute or placeholder cwd and a
// placeholder id (snapshot normalizers) are accepted, and the retired policy
// baseline fields are accepted with a warning. A missing or non-zero version
// is refused, as upstream refuses it: nothing else in the log can be trusted
// to mean what this reader thinks.
package header

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// FormatVersion is the only log format version upstream (and this reader)
// reads: SESSION_FORMAT_VERSION.
const FormatVersion = 0

// Header is a parsed session header. Optional fields upstream omits are
// zero here, with a Has… flag where zero is a real value.
type Header struct {
	ID      string
	Version int64
	// CreatedAt is the creation time in Unix epoch milliseconds, as stored
	// (snapshot normalizers set it to 0).
	CreatedAt int64
	// CWD is the working directory. It may be absent (HasCWD false),
	// relative or a placeholder such as "{{cwd}}/workspace".
	CWD           string
	HasCWD        bool
	ParentSession string
	SeedLength    int64
	HasSeedLength bool
	// Origin is "subagent" or empty.
	Origin string
	// DelegationDepth is 0 for a top-level session. HasDelegationDepth is
	// false for headers written before 2026-07-20 or by the web recorder.
	DelegationDepth    int64
	HasDelegationDepth bool
	AgentPreset        string
	Ephemeral          bool
	// Warnings are accepted departures from upstream's reader, for the
	// caller to show; the package never prints.
	Warnings []string
}

// Created returns CreatedAt as a time in UTC.
func (h Header) Created() time.Time { return time.UnixMilli(h.CreatedAt).UTC() }

// placeholder matches the tokens upstream's snapshot normalizers write:
// {{sessionId}}, {{cwd}}, {{parent}}, {{child-1}} ….
var placeholder = regexp.MustCompile(`\{\{[^{}]*\}\}`)

// PlaceholderID reports whether the id holds a normalizer token, so it is
// not the id the session had (and several files may share it).
func (h Header) PlaceholderID() bool { return placeholder.MatchString(h.ID) }

// PlaceholderCWD reports whether the cwd holds a normalizer token.
func (h Header) PlaceholderCWD() bool { return placeholder.MatchString(h.CWD) }

// AbsoluteCWD reports whether the cwd is an absolute path (POSIX or
// Windows), as upstream's session preparation requires.
func (h Header) AbsoluteCWD() bool {
	c := h.CWD
	if path.IsAbs(c) || strings.HasPrefix(c, `\\`) {
		return true
	}
	return len(c) >= 3 && c[1] == ':' && (c[2] == '\\' || c[2] == '/') &&
		(c[0]|0x20 >= 'a' && c[0]|0x20 <= 'z')
}

// refuse is a refused header: a *sessionlog.Error of
// sessionlog.LayerHeader whose Reason is upstream's wording where upstream
// has one. It names no position: the reader, which knows the file, places
// it.
func refuse(reason string) *sessionlog.Error {
	return sessionlog.Refuse(sessionlog.LayerHeader, sessionlog.NoPos, reason, nil)
}

// The refusal texts, upstream's own where it has them (format.ts, coordinator.ts).
const (
	textEmpty    = "empty or header-less session log"
	textNotJSON  = "corrupt session log: header line is not valid JSON"
	textNotShape = "corrupt session log: first line is not a session header"
	textRetired  = "session header uses retired policy baseline fields"
)

// VersionRefusal is upstream's direction-aware refusal for a format version
// other than v0 (sessionFormatVersionRefusal). version is JavaScript's
// rendering of the stored number.
func VersionRefusal(id, version string, newer bool) string {
	if newer {
		return fmt.Sprintf("session %q uses log format v%s, but this harness reads only v%d: the log was written by a newer harness — upgrade the harness to open it", id, version, FormatVersion)
	}
	return fmt.Sprintf("session %q uses log format v%s, older than the supported v%d, and this build ships no upgrade path for it", id, version, FormatVersion)
}

// Second is the refusal of a header line after the first: upstream's writer
// writes exactly one, so a second one means two logs were concatenated or
// the file was spliced. line is the second header's line number.
func Second(line int) *sessionlog.Error {
	return refuse(fmt.Sprintf("a second session header at line %d", line))
}

// IsHeader reports whether line is meant as a session header: a JSON
// object whose "type" is "session" and which has no "seq". An event line
// never is one, so a reader can tell a header from an event, and a second
// header from a corrupt event, before Parse says whether it is acceptable.
func IsHeader(line []byte) bool {
	line = bytes.TrimRight(line, "\r\n")
	typ, ok := fastjson.Type(line)
	if !ok || typ != "session" {
		return false
	}
	_, hasSeq := fastjson.Find(line, "seq")
	return !hasSeq
}

// Parse parses and checks one header line (its trailing "\n" or "\r\n" is
// ignored). An empty line is upstream's header-less log.
func Parse(line []byte) (Header, error) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r")) // JSON.parse tolerates a trailing \r
	if len(bytes.TrimSpace(line)) == 0 {
		return Header{}, refuse(textEmpty)
	}
	if !json.Valid(line) {
		return Header{}, refuse(textNotJSON)
	}
	members, ok := fastjson.Members(line)
	if !ok { // valid JSON that is not an object
		return Header{}, shape("the line is not a JSON object")
	}
	get := func(k string) ([]byte, bool) { return fastjson.Get(members, k) }
	str := func(k string) (string, bool, bool) { // value, present, is a string
		v, present := get(k)
		if !present {
			return "", false, false
		}
		s, isStr := fastjson.String(v)
		return s, true, isStr
	}

	// refuseForeignFormatVersion runs first: a newer format need not pass
	// today's shape checks, and its user must read "upgrade", not "corrupt".
	id, _, idIsString := str("id")
	if v, present := get("version"); present {
		if f, isNum := fastjson.Number(v); isNum && f != FormatVersion {
			shown := id
			if !idIsString {
				shown = fastjson.JSText(get("id"))
			}
			return Header{}, refuse(VersionRefusal(shown, fastjson.FormatNumber(v), f > FormatVersion))
		}
	}

	var h Header
	if t, _, _ := str("type"); t != "session" {
		return Header{}, shape(`"type" is not "session"`)
	}
	v, present := get("version")
	if !present {
		return Header{}, shape(`it has no "version" (every harness since 2026-06-15 writes "version":0)`)
	}
	if _, isNum := fastjson.Number(v); !isNum {
		return Header{}, shape(`"version" is not a number`)
	}
	h.Version = FormatVersion
	if !idIsString {
		return Header{}, shape(`"id" is not a string`)
	}
	h.ID = id
	createdAt, present := get("createdAt")
	if !present {
		return Header{}, shape(`it has no "createdAt"`)
	}
	if h.CreatedAt, ok = nonNegative(createdAt); !ok {
		return Header{}, shape(`"createdAt" is not a non-negative safe integer`)
	}
	if d, present := get("delegationDepth"); present {
		if h.DelegationDepth, ok = nonNegative(d); !ok {
			return Header{}, shape(`"delegationDepth" is not a non-negative safe integer`)
		}
		h.HasDelegationDepth = true
	}
	if o, present, isStr := str("origin"); present {
		if !isStr || o != "subagent" {
			return Header{}, shape(`"origin" is not "subagent"`)
		}
		h.Origin = o
	}
	if a, present, isStr := str("agentPreset"); present {
		if !isStr {
			return Header{}, shape(`"agentPreset" is not a string`)
		}
		h.AgentPreset = a
	}

	// validateSessionHeader's rules, except the absolute cwd.
	if c, present, isStr := str("cwd"); present {
		if !isStr {
			return Header{}, refuse("session header cwd must be a string")
		}
		h.CWD, h.HasCWD = c, true
	}
	if p, present, isStr := str("parentSession"); present {
		if !isStr {
			return Header{}, refuse("session header parentSession must be a string")
		}
		h.ParentSession = p
	}
	if s, present := get("seedLength"); present {
		if h.SeedLength, ok = nonNegative(s); !ok {
			return Header{}, refuse("session header seedLength must be a non-negative safe integer")
		}
		h.HasSeedLength = true
	}
	if e, present := get("ephemeral"); present {
		if string(e) != "true" {
			return Header{}, refuse("session header ephemeral must be true when present")
		}
		h.Ephemeral = true
	}

	// fromHeaderLine refuses these; only pre-merge builds of upstream PR #623
	// wrote them, and nothing in the events depends on them.
	var retired []string
	for _, k := range []string{"sandboxMode", "approvalPolicy"} {
		if _, present := get(k); present {
			retired = append(retired, k)
		}
	}
	if len(retired) > 0 {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%s (%s), which upstream refuses; read without them", textRetired, strings.Join(retired, ", ")))
	}
	return h, nil
}

// shape is upstream's shape-gate refusal with the reason it failed.
func shape(why string) *sessionlog.Error {
	return refuse(textNotShape + ": " + why)
}

// nonNegative is upstream's "non-negative safe integer and not -0".
func nonNegative(raw []byte) (int64, bool) {
	n, ok := fastjson.SafeInt(raw)
	if !ok || n < 0 {
		return 0, false
	}
	if f, _ := fastjson.Number(raw); math.Signbit(f) {
		return 0, false
	}
	return n, true
}
