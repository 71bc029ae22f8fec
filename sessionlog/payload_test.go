package sessionlog

import (
	"strings"
	"testing"
)

// TestContentText: the one-block fast path says what the general join
// says, for every kind of block, and a join of several is in order.
func TestContentText(t *testing.T) {
	nested := []ContentBlock{{Type: "text", Text: "a"}, {Type: "image"}}
	for _, tt := range []struct {
		blocks []ContentBlock
		want   string
	}{
		{nil, ""},
		{[]ContentBlock{{Type: "text", Text: "hi"}}, "hi"},
		{[]ContentBlock{{Type: "reasoning", Text: "think"}}, "think"},
		{[]ContentBlock{{Type: "tool-call", Name: "bash", Arguments: `{"c":1}`}}, `bash({"c":1})`},
		{[]ContentBlock{{Type: "tool-result", Content: nested}}, "a[image]"},
		{[]ContentBlock{{Type: "tool-result", Content: []ContentBlock{{Type: "text", Text: "only"}}}}, "only"},
		{[]ContentBlock{{Type: "image"}}, "[image]"},
		{[]ContentBlock{{Type: "text", Text: "x"}, {Type: "tool-result", Content: nested}, {Type: "file"}}, "xa[image][file]"},
	} {
		var b strings.Builder
		appendContentText(&b, tt.blocks)
		if got := ContentText(tt.blocks); got != tt.want || got != b.String() {
			t.Errorf("ContentText(%+v) = %q, the join %q, want %q", tt.blocks, got, b.String(), tt.want)
		}
	}
}
