package words

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "event", "0 events"},
		{1, "event", "1 event"},
		{2, "pending screen", "2 pending screens"},
		{-1, "line", "-1 lines"},
	} {
		if got := Plural(c.n, c.noun); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
