package store

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// This file is upstream's stored-identity check (assertStoredIdentity,
// containers.md §1.5): a log in the store must sit where its header's id
// and cwd put it, so that a session copied or moved by hand into another
// project directory is refused rather than read as the session its path
// names.

// noCwd is the project directory of a session without a cwd, in both
// layouts.
const noCwd = "_no-cwd"

// isOlderProject reports whether a project directory's name is one the
// older layout made, whose sessions are flat <id>.jsonl[.zstd] files.
func isOlderProject(name string) bool {
	if name == noCwd {
		return true
	}
	h, ok := strings.CutPrefix(name, "cwd-")
	if !ok || len(h) != 12 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// flatLayout is the problem of a flat <id>.jsonl[.zstd] file in a project
// directory of the current layout, which no upstream build wrote there and
// current builds refuse.
const flatLayout = "unsupported flat-file layout: upstream reads a session only as PROJECT/ID/session.jsonl[.zstd] (or, in an older store, cwd-HASH/ID.jsonl[.zstd]); move it into a session directory, or read it as LOG"

// misplaced checks the log file at path, found in store (by requested, an
// id, when not ""), against its header line, read by the caller: "" when the header's id and cwd put
// it there, or when its header does not say or holds another id than
// requested (which the reader refuses in its own words), else why not.
func misplaced(store, path string, line []byte, requested string) string {
	var h struct {
		ID  *string `json:"id"`
		Cwd *string `json:"cwd"`
	}
	if json.Unmarshal(line, &h) != nil || h.ID == nil {
		return ""
	}
	if requested != "" && *h.ID != requested {
		return "" // the reader refuses it, in the words of upstream's load (containers.md §1.5)
	}
	cwd := ""
	if h.Cwd != nil {
		cwd = *h.Cwd
	}
	base := filepath.Base(path)
	if base != "session.jsonl" && base != "session.jsonl.zstd" {
		// The older layout: current builds refuse it whole, and how its
		// older builds checked a cwd is not known; its file is found by
		// the id's name, and the reader checks the header's id.
		return ""
	}
	want, err := SessionPath(store, cwd, *h.ID, base == "session.jsonl.zstd")
	if err != nil {
		return fmt.Sprintf("corrupt session log: header id %q cannot name a storage path", *h.ID)
	}
	if samePath(path, want) {
		return ""
	}
	return fmt.Sprintf("corrupt session log: header id %q and cwd identify %q", *h.ID, want)
}

// samePath reports whether two spellings of a path are the same file: a
// case alias on a case-insensitive file system is.
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
