package suitedir_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadAsInput: an output, new or not and however its folder is
// spelled, is refused where the suite would read it: a .txtar in
// scenarios/, any file but a dot file in fixtures/. Elsewhere, and beside
// the folders, it is not.
func TestReadAsInput(t *testing.T) {
	d := folder(t, map[string]string{"alpha": "snapshot one\n"})
	if err := os.Symlink(d.Fixtures(), filepath.Join(d.Root, "fix-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(d.Fixtures(), "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string // relative to the folder
		want string // "" for not an input
	}{
		{"scenarios/yy.txtar", "a scenario of scenarios/"},
		{"scenarios/alpha.txtar", "a scenario of scenarios/"},
		{"scenarios/.hidden.txtar", "a scenario of scenarios/"},
		{"scenarios/../scenarios/./yy.txtar", "a scenario of scenarios/"},
		{"scenarios/junit.xml", ""},
		{"fixtures/yy.screen", "a file of fixtures/"},
		{"fixtures/yy.screen.new", "a file of fixtures/"},
		{"fixtures/report.html", "a file of fixtures/"},
		{"fix-link/report.html", "a file of fixtures/"},
		{"fixtures/.report.html", ""},
		{"fixtures/sub/report.html", ""},
		{"yy.txtar", ""},
		{"report.html", ""},
		{"nodir/yy.txtar", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			path := ""
			if tt.path != "" {
				path = d.Root + string(filepath.Separator) + filepath.FromSlash(tt.path) // uncleaned
			}
			got, ok := d.ReadAsInput(path)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("ReadAsInput(%s) = %q, %v; want %q", tt.path, got, ok, tt.want)
			}
		})
	}
}
