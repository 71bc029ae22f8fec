package logbuild

import (
	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

// TextBlock is a {"type":"text","text":…} content block.
func TextBlock(text string) jsonobj.Object {
	return jsonobj.Object{{"type", "text"}, {"text", text}}
}

// Range is an inclusive {"start":…,"end":…} seq range.
func Range(start, end int64) jsonobj.Object {
	return jsonobj.Object{{"start", start}, {"end", end}}
}
