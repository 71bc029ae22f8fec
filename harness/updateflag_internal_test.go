package harness

import "testing"

// TestAskedForUpdate: -update in any form the flag package reads, and
// nothing that only looks like it.
func TestAskedForUpdate(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"-update"}, true},
		{[]string{"--update"}, true},
		{[]string{"-test.run", "TestScenarios", "-update=true"}, true},
		{[]string{"-test.v=true", "-test.count=1"}, false},
		{[]string{"-test.run", "update"}, false},
		{[]string{"--", "-update"}, false},
		{[]string{"-updates"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := askedForUpdate(tt.args); got != tt.want {
			t.Errorf("askedForUpdate(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
	// This binary links no golden package: -update is not defined.
	if set, defined := updateFlag(); set || defined {
		t.Errorf("updateFlag() = %v, %v in a binary without the flag", set, defined)
	}
	if h := updateHint(); h != "to re-record: GOLDIE_UPDATE=1 go test" {
		t.Errorf("hint %q", h)
	}
}
