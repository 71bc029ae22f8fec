package load

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// SessionID names a session: its header's id, else its file's name
// without the extension.
func SessionID(header json.RawMessage, path string) string {
	if header != nil {
		var h struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(header, &h) == nil && h.ID != "" {
			return h.ID
		}
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}
