package targets

import (
	"testing"
	"time"
)

func TestRSSBudget(t *testing.T) {
	for _, tt := range []struct {
		command string
		raw     int64
		want    int64
		ok      bool
	}{
		{"repro", 100 << 20, 200 << 20, true},
		{"repro", 10 << 20, MinRSS, true},
		{"check", 100 << 20, 200 << 20, true},
		{"history", 32 << 20, MinRSS, true},
		{"render", 33 << 20, 66 << 20, true},
		{"view", 100 << 20, 200 << 20, true},
		{"view keys", 100 << 20, 0, false},
		{"decode", 100 << 20, 0, false},
	} {
		got, ok := RSSBudget(tt.command, tt.raw)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RSSBudget(%q, %d) = %d, %v; want %d, %v", tt.command, tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

func TestReproWall(t *testing.T) {
	for _, tt := range []struct {
		shape string
		size  int
		want  time.Duration
		ok    bool
	}{
		{"dense", 100000, 2 * time.Second, true},
		{"small", 100000, time.Second, true},
		{"small", 10000, 0, false},
		{"tiny", 100000, 0, false},
	} {
		got, ok := ReproWall(tt.shape, tt.size)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ReproWall(%q, %d) = %v, %v; want %v, %v", tt.shape, tt.size, got, ok, tt.want, tt.ok)
		}
	}
}
