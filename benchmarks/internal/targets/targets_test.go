package targets

import "testing"

func TestRSSBudget(t *testing.T) {
	for _, tt := range []struct {
		command string
		raw     int64
		want    int64
		ok      bool
	}{
		{"repro", 100 << 20, 300 << 20, true},
		{"repro", 10 << 20, MinRSS, true},
		{"check", 100 << 20, 200 << 20, true},
		{"history", 32 << 20, MinRSS, true},
		{"render", 33 << 20, 66 << 20, true},
		{"view", 100 << 20, 0, false},
		{"decode", 100 << 20, 0, false},
	} {
		got, ok := RSSBudget(tt.command, tt.raw)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RSSBudget(%q, %d) = %d, %v; want %d, %v", tt.command, tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}
