package sessionlog

import "testing"

func TestRefusal(t *testing.T) {
	for _, tt := range []struct {
		line int
		seq  int64
		want string
	}{
		{0, -1, "f.jsonl: bad"},
		{3, -1, "f.jsonl:3: bad"},
		{0, 7, "f.jsonl: bad (seq 7)"},
		{3, 0, "f.jsonl:3: bad (seq 0)"},
	} {
		if got := Refusal("f.jsonl", tt.line, tt.seq, "bad"); got != tt.want {
			t.Errorf("Refusal(line %d, seq %d) = %q, want %q", tt.line, tt.seq, got, tt.want)
		}
	}
}
