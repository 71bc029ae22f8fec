package surface_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
)

// TestFolderIsLoad: a Folder fed a log one event at a time reaches Load's
// verdict (the same error, a check failure winning over an earlier fold
// failure) and folds the same surface, on generated logs and on logs
// broken at one or two places, whether or not it trusts the JSON's syntax;
// a verdict Folder reaches the same verdict, and a count Folder the same
// verdict, nodes, generation and message count. "bad prune" rewrites more than
// a tool result's content (a long result's, where the generator prunes
// one), which a verdict Folder judges on the payload it kept.
func TestFolderIsLoad(t *testing.T) {
	badEnvelope := func(e *sessionlog.Event) { e.Data = json.RawMessage(`{"n":1e400}`) }
	badReplace := func(e *sessionlog.Event) { e.SurfaceOp = sessionlog.ReplaceOp(1<<40, 1<<40) }
	for seed := int64(1); seed <= 12; seed++ {
		log := sessiongen.GenerateN(seed, 400)
		for _, tc := range []struct {
			name  string
			spoil func([]sessionlog.Event)
		}{
			{"valid", func([]sessionlog.Event) {}},
			{"bad envelope", func(l []sessionlog.Event) { badEnvelope(&l[len(l)/2]) }},
			{"bad replace", func(l []sessionlog.Event) { badReplace(firstSurface(l, len(l)/3)) }},
			{"fold then check", func(l []sessionlog.Event) { badReplace(firstSurface(l, len(l)/3)); badEnvelope(&l[len(l)*2/3]) }},
			{"check then fold", func(l []sessionlog.Event) { badEnvelope(&l[len(l)/3]); badReplace(firstSurface(l, len(l)*2/3)) }},
			{"bad prune", func(l []sessionlog.Event) { badPrune(l) }},
		} {
			t.Run(fmt.Sprintf("seed %d %s", seed, tc.name), func(t *testing.T) {
				events := append([]sessionlog.Event(nil), log...)
				tc.spoil(events)
				s, want := surface.Load(events, nil)
				f := surface.NewFolder(seed%2 == 0)
				v, c := surface.NewVerdictFolder(), surface.NewCountFolder()
				if seed%3 == 0 {
					f.TrustSyntax() // every spoil above is valid JSON
					v.TrustSyntax()
					c.TrustSyntax()
				}
				for i := range events {
					f.Add(&events[i])
					v.Add(&events[i])
					c.Add(&events[i])
				}
				if got := c.Err(); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("count Folder: %v\nLoad:   %v", got, want)
				}
				if got := f.Err(); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("Folder: %v\nLoad:   %v", got, want)
				}
				if got := v.Err(); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("verdict Folder: %v\nLoad:   %v", got, want)
				}
				if v.Surface() != nil {
					t.Fatal("a verdict Folder has a Surface")
				}
				if want != nil {
					return
				}
				if a, b := fmt.Sprint(f.Surface().Nodes()), fmt.Sprint(s.Surface().Nodes()); a != b {
					t.Fatalf("nodes %s, want %s", a, b)
				}
				if a, b := len(f.Surface().DeriveMessages()), len(s.Surface().DeriveMessages()); a != b {
					t.Fatalf("%d messages, want %d", a, b)
				}
				cs := c.Surface()
				if a, b := fmt.Sprint(cs.Nodes(), cs.Generation(), cs.MessageCount()), fmt.Sprint(s.Surface().Nodes(), s.Surface().Generation(), len(s.Surface().DeriveMessages())); a != b {
					t.Fatalf("count Folder: nodes, generation, messages %s, want %s", a, b)
				}
				if n := f.Surface().MessageCount(); n != len(s.Surface().DeriveMessages()) {
					t.Fatalf("MessageCount %d, want %d", n, len(s.Surface().DeriveMessages()))
				}
			})
		}
	}
}

// badPrune changes the call id of the last tool/result replacement, if
// the log has one.
func badPrune(l []sessionlog.Event) {
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].Type == sessionlog.TypeToolResult && sessionlog.IsReplacementSurfaceEvent(&l[i]) {
			l[i].Data = json.RawMessage(strings.Replace(string(l[i].Data), `"toolCallId":"`, `"toolCallId":"x`, 1))
			return
		}
	}
}

// firstSurface returns the first event from index i on that joins the
// surface.
func firstSurface(l []sessionlog.Event, i int) *sessionlog.Event {
	for ; i < len(l); i++ {
		if l[i].SurfaceOp != nil {
			return &l[i]
		}
	}
	return &l[len(l)-1]
}
