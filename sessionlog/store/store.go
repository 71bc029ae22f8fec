// Package store finds and lists the sessions of upstream's session store
// (containers.md §4): <root>/--<projectKey(cwd)>--/<encodeSegment(id)>/
// session.jsonl[.zstd], _no-cwd/ for a session without a cwd, and the older
// <root>/cwd-<sha256(cwd)[:12]>/<encodeSegment(id)>.jsonl[.zstd]. It finds a
// session's file (Find), which package load opens and reads, and lists a
// store, or a SQLite database through the registered SQLite reader (List).
package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
)

// Dir resolves the store root: flag (--store DIR) when given, else
// $DSH_HOME/sessions when DSH_HOME is not blank, else <home>/.dsh/sessions,
// as upstream's dshHomePath('sessions') does. A leading ~ or ~/ is expanded
// against home. getenv and home are parameters so that callers (and tests)
// pin the environment.
func Dir(flag string, getenv func(string) string, home string) (string, error) {
	expand := func(p string) string {
		if p == "~" {
			return home
		}
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			return filepath.Join(home, rest)
		}
		return p
	}
	if flag != "" {
		return filepath.Clean(expand(flag)), nil
	}
	if getenv != nil {
		if h := getenv("DSH_HOME"); strings.TrimSpace(h) != "" {
			return filepath.Join(expand(h), "sessions"), nil
		}
	}
	if home == "" {
		return "", fmt.Errorf("store: no session store: pass --store DIR, or set DSH_HOME or HOME")
	}
	return filepath.Join(home, ".dsh", "sessions"), nil
}

func isSafeUnit(u uint16) bool {
	return u != '~' && (u >= 'A' && u <= 'Z' || u >= 'a' && u <= 'z' || u >= '0' && u <= '9' || u == '.' || u == '_' || u == '-')
}

func appendEscape(b []byte, u uint16) []byte {
	const hex = "0123456789ABCDEF"
	return append(b, '~', hex[u>>12], hex[u>>8&0xF], hex[u>>4&0xF], hex[u&0xF])
}

// EncodeSegment is upstream's encodeSegment: a session id as one safe path
// segment. Safe UTF-16 code units ([A-Za-z0-9._-]) stay literal, every other
// unit (and ~) becomes ~XXXX in uppercase hex; "." and ".." are escaped
// whole. The empty id is an error.
func EncodeSegment(id string) (string, error) {
	switch id {
	case "":
		return "", fmt.Errorf("container: cannot encode an empty path segment")
	case ".":
		return "~002E", nil
	case "..":
		return "~002E~002E", nil
	}
	var b []byte
	for _, u := range utf16.Encode([]rune(id)) {
		if isSafeUnit(u) {
			b = append(b, byte(u))
		} else {
			b = appendEscape(b, u)
		}
	}
	return string(b), nil
}

// DecodeSegment inverts EncodeSegment; ok is false for a name it cannot
// have produced.
func DecodeSegment(seg string) (string, bool) {
	var units []uint16
	for i := 0; i < len(seg); {
		c := seg[i]
		if c == '~' {
			if i+5 > len(seg) {
				return "", false
			}
			v, err := strconv.ParseUint(seg[i+1:i+5], 16, 16)
			if err != nil || strings.ToUpper(seg[i+1:i+5]) != seg[i+1:i+5] {
				return "", false
			}
			units = append(units, uint16(v))
			i += 5
			continue
		}
		if !isSafeUnit(uint16(c)) {
			return "", false
		}
		units = append(units, uint16(c))
		i++
	}
	return string(utf16.Decode(units)), true
}

// ProjectKey is upstream's projectKey: the project directory name for a cwd.
// Each run of /, \ or : becomes one -, unsafe units are ~XXXX, leading - are
// stripped, an empty slug is "root", the slug is cut to 251 units.
func ProjectKey(cwd string) (string, error) {
	if cwd == "" {
		return "", fmt.Errorf("container: cannot encode an empty project path")
	}
	var b []byte
	run := false
	for _, u := range utf16.Encode([]rune(cwd)) {
		switch {
		case u == '/' || u == '\\' || u == ':':
			if !run {
				b = append(b, '-')
			}
			run = true
		case isSafeUnit(u):
			b = append(b, byte(u))
			run = false
		default:
			b = appendEscape(b, u)
			run = false
		}
	}
	slug := strings.TrimLeft(string(b), "-")
	if slug == "" {
		slug = "root"
	}
	if len(slug) > 251 {
		slug = slug[:251]
	}
	return "--" + slug + "--", nil
}

// SessionPath is where upstream's JSONL backend puts a session's log:
// root/projectKey(cwd) (or _no-cwd)/encodeSegment(id)/session.jsonl[.zstd].
func SessionPath(root, cwd, id string, zstdForm bool) (string, error) {
	project := "_no-cwd"
	if cwd != "" {
		k, err := ProjectKey(cwd)
		if err != nil {
			return "", err
		}
		project = k
	}
	seg, err := EncodeSegment(id)
	if err != nil {
		return "", err
	}
	name := "session.jsonl"
	if zstdForm {
		name += ".zstd"
	}
	return filepath.Join(root, project, seg, name), nil
}

// Find finds a session's log under a store root by id, in the
// current layout (a session directory, returned as such) or the older
// cwd-<sha12>/<id>.jsonl[.zstd] one (a file). Several matches are refused,
// as upstream refuses a duplicate id; so is a flat <id>.jsonl[.zstd] file
// in a project directory of the current layout, and a log whose header's
// id and cwd put it elsewhere (upstream's stored-identity check).
func Find(store, id string) (string, error) {
	seg, err := EncodeSegment(id)
	if err != nil {
		return "", refuse(sessionlog.Pos{Path: store, Seq: -1}, "an empty session id", nil)
	}
	entries, err := os.ReadDir(store)
	if err != nil {
		return "", refuse(sessionlog.Pos{Path: store, Seq: -1}, "cannot read the session store: "+sessionlog.OSText(err), err)
	}
	var found []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		project := filepath.Join(store, e.Name())
		dir := filepath.Join(project, seg)
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			found = append(found, dir) // Open says what is wrong with it, if anything
		}
		for _, suffix := range []string{".jsonl", ".jsonl.zstd"} {
			p := filepath.Join(project, seg+suffix)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				found = append(found, p)
			}
		}
	}
	switch len(found) {
	case 0:
		return "", refuse(sessionlog.Pos{Path: store, Seq: -1}, fmt.Sprintf("no session %q in the store (looked for PROJECT/%s/session.jsonl[.zstd] and PROJECT/%s.jsonl[.zstd]; a log elsewhere is read as LOG)", id, seg, seg), nil)
	case 1:
	default:
		return "", refuse(sessionlog.Pos{Path: store, Seq: -1}, fmt.Sprintf("session id %q appears in several places: %s", id, strings.Join(found, ", ")), nil)
	}
	file := found[0]
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		if file, err = container.SessionFile(file); err != nil {
			return found[0], nil // Open says what is wrong with it
		}
	} else if !isOlderProject(filepath.Base(filepath.Dir(file))) {
		return "", refuse(sessionlog.Pos{Path: file, Seq: -1}, flatLayout, nil)
	}
	line, _, err := container.ReadHeaderLine(file)
	if err != nil {
		return found[0], nil // Open says what is wrong with it
	}
	if problem := misplaced(store, file, line, id); problem != "" {
		return "", refuse(sessionlog.Pos{Path: file, Seq: -1}, problem, nil)
	}
	return found[0], nil
}

// Session is one entry of a listing, ready for JSON.
type Session struct {
	ID string `json:"id"`
	// Cwd is the header's cwd, when it has one.
	Cwd string `json:"cwd,omitempty"`
	// CreatedAt is the header's createdAt, milliseconds since the epoch.
	CreatedAt int64 `json:"createdAt"`
	// Created is CreatedAt in RFC 3339, UTC.
	Created string `json:"created"`
	// Size is the log's size in bytes on disk; for SQLite, the bytes of its
	// rows' data column.
	Size int64 `json:"size"`
	// Form is jsonl, jsonl.zstd or sqlite.
	Form          container.Form `json:"form"`
	ParentSession string         `json:"parentSession,omitempty"`
	Subagent      bool           `json:"subagent,omitempty"`
	// Path is what a read takes to read the session (for SQLite, with the
	// session ID).
	Path string `json:"path"`
	// Problem says why the entry's header could not be read, or that its id
	// is duplicated; the other fields are then what the layout tells.
	Problem string `json:"problem,omitempty"`
	// zstd: the entry is a session directory of the current layout
	// holding session.jsonl.zstd; dir: one holding either; read: its
	// header line was read.
	dir, zstd, read bool
}

// headerFields are the header keys a listing shows.
type headerFields struct {
	ID            string      `json:"id"`
	CreatedAt     json.Number `json:"createdAt"`
	Cwd           string      `json:"cwd"`
	ParentSession string      `json:"parentSession"`
	Origin        string      `json:"origin"`
}

func (s *Session) setCreated(ms int64) {
	s.CreatedAt = ms
	s.Created = time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// List lists the sessions of a store directory or of a SQLite database
// (through the registered SQLite reader, container.RegisterSQLite), newest
// first.
func List(path string) ([]Session, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot open: "+sessionlog.OSText(err), err)
	}
	if fi.IsDir() {
		return listStore(path)
	}
	if !fi.Mode().IsRegular() {
		// A pipe or a device would block the open, or be read away: a
		// database is a file.
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "not a regular file: a SQLite session database is a file", nil)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "cannot open: "+sessionlog.OSText(err), err)
	}
	var magic [16]byte
	n, _ := f.ReadAt(magic[:], 0)
	f.Close()
	if !bytes.HasPrefix(magic[:n], []byte(container.SQLiteMagic)) {
		return nil, refuse(sessionlog.Pos{Path: path, Seq: -1}, "neither a session store directory nor a SQLite session database", nil)
	}
	db, err := container.ListSQLite(path)
	if err != nil {
		return nil, err
	}
	var out []Session
	for _, d := range db {
		s := Session{ID: d.ID, Size: d.Size, Form: container.FormSQLite, Path: path}
		s.setCreated(0)
		fillFromHeader(&s, d.Header)
		out = append(out, s)
	}
	sortSessions(out)
	return out, nil
}

// listStore lists a store directory's sessions, reading only each header.
func listStore(store string) ([]Session, error) {
	projects, err := os.ReadDir(store)
	if err != nil {
		return nil, refuse(sessionlog.Pos{Path: store, Seq: -1}, "cannot read the session store: "+sessionlog.OSText(err), err)
	}
	var out []Session
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		project := filepath.Join(store, p.Name())
		entries, err := os.ReadDir(project)
		if err != nil {
			continue
		}
		for _, e := range entries {
			var file, seg string
			flat := false // a flat file in a project directory of the current layout
			switch {
			case e.IsDir():
				f, err := container.SessionFile(filepath.Join(project, e.Name()))
				if err != nil {
					if both := filepath.Join(project, e.Name(), "session.jsonl"); fileExists(both) {
						s := Session{ID: e.Name(), Path: filepath.Dir(both), Problem: err.Error()}
						if id, ok := DecodeSegment(e.Name()); ok {
							s.ID = id
						}
						s.setCreated(0)
						out = append(out, s)
					}
					continue
				}
				file, seg = f, e.Name()
			case strings.HasSuffix(e.Name(), ".jsonl.zstd"):
				file, seg, flat = filepath.Join(project, e.Name()), strings.TrimSuffix(e.Name(), ".jsonl.zstd"), !isOlderProject(p.Name())
			case strings.HasSuffix(e.Name(), ".jsonl"):
				file, seg, flat = filepath.Join(project, e.Name()), strings.TrimSuffix(e.Name(), ".jsonl"), !isOlderProject(p.Name())
			default:
				continue
			}
			s := Session{Path: file, dir: e.IsDir(), zstd: e.IsDir() && strings.HasSuffix(file, ".zstd")}
			if e.IsDir() {
				s.Path = filepath.Dir(file)
			}
			if id, ok := DecodeSegment(seg); ok {
				s.ID = id
			} else {
				s.ID = seg
			}
			s.setCreated(0)
			// A listing never opens what is not a regular file: a FIFO
			// would block it for good, a device read without end.
			fi, err := os.Stat(file)
			if err != nil || !fi.Mode().IsRegular() {
				s.Problem = "not a regular file"
				if err != nil {
					s.Problem = sessionlog.OSText(err)
				}
				out = append(out, s)
				continue
			}
			s.Size = fi.Size()
			line, form, err := container.ReadHeaderLine(file)
			s.Form = form
			switch {
			case err != nil:
				s.Problem = err.Error()
			default:
				s.read = true
				fillFromHeader(&s, line)
				switch {
				case flat:
					s.Problem = flatLayout
				case s.Problem == "":
					s.Problem = misplaced(store, file, line, "") // the line read once for both
				}
			}
			out = append(out, s)
		}
	}
	seen := map[string]int{}
	for _, s := range out {
		seen[s.ID]++
	}
	for i := range out {
		if seen[out[i].ID] > 1 && out[i].Problem == "" {
			out[i].Problem = "duplicate session id in the store"
		}
	}
	mixedEncodings(out)
	sortSessions(out)
	return out, nil
}

// mixedEncodings marks the session directories of a store that holds both
// encodings (containers.md §3.10): upstream's backend opens a root of one
// encoding, configured, and refuses a root that holds the other. (The
// older layout's flat files are another matter: current builds refuse
// them whole.)
//
// The encoding is the file's name, which is what upstream goes by, and a
// session counts only if its header was read: one broken file does not
// mark the rest.
func mixedEncodings(out []Session) {
	var plain, zstd int
	for _, s := range out {
		switch {
		case !s.dir || !s.read:
		case s.zstd:
			zstd++
		default:
			plain++
		}
	}
	if plain == 0 || zstd == 0 {
		return
	}
	for i := range out {
		if out[i].Problem == "" && out[i].dir {
			out[i].Problem = fmt.Sprintf("the store holds sessions of both encodings (%d jsonl, %d jsonl.zstd); upstream opens a root of one encoding and refuses the other", plain, zstd)
		}
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func fillFromHeader(s *Session, line []byte) {
	var h headerFields
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&h); err != nil {
		s.Problem = "header fields: " + err.Error()
		return
	}
	if h.ID != "" && h.ID != s.ID {
		s.Problem = fmt.Sprintf("stored session identity mismatch: the path names %q, the header %q", s.ID, h.ID)
	}
	if h.ID != "" {
		s.ID = h.ID
	}
	if ms, err := h.CreatedAt.Int64(); err == nil {
		s.setCreated(ms)
	}
	s.Cwd, s.ParentSession, s.Subagent = h.Cwd, h.ParentSession, h.Origin == "subagent"
}

func sortSessions(out []Session) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].CreatedAt != out[j].CreatedAt {
			return out[i].CreatedAt > out[j].CreatedAt
		}
		return out[i].ID < out[j].ID
	})
}

// refuse is the store's refusal at pos.
func refuse(pos sessionlog.Pos, reason string, cause error) *sessionlog.Error {
	return sessionlog.Refuse(sessionlog.LayerInput, pos, reason, cause)
}
