package transcript_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// TestApplyDecodedIsApply: a replay, a live projector and the windows of
// history pages fed one Decoder's decodings project what each projects
// decoding every event itself, after every event (the projector's Change
// included), on every example log and generated shape; and the shared
// decodings are left as they were (the projector copies what it edits).
func TestApplyDecodedIsApply(t *testing.T) {
	logs := map[string][]sessionlog.Event{}
	for _, name := range trLogFiles(t) {
		logs[name] = trLoad(t, name)
	}
	for _, shape := range sessiongen.Shapes() {
		if cfg, ok := shape.Config(3000); ok {
			logs[string(shape)] = sessiongen.Generate(11, cfg)
		}
	}
	for name, events := range logs {
		for _, eager := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/eager=%v", name, eager), func(t *testing.T) {
				opts := transcript.Options{EagerSteps: eager, Texts: transcript.NewTexts()}
				dec, again := transcript.NewDecoder(opts), transcript.NewDecoder(opts)
				replay, shared := transcript.NewReplay(opts), transcript.NewReplay(opts)
				live, sharedLive := transcript.NewProjector(opts), transcript.NewProjector(opts)
				var windows []transcript.Window
				for start := 0; start < len(events); start += 1 + len(events)/7 {
					windows = append(windows, transcript.Window{Start: start, End: min(len(events), start+len(events)/3+1)})
				}
				pages, sharedPages := transcript.NewWindows(windows, opts), transcript.NewWindows(windows, opts)
				got, want := map[int]transcript.Transcript{}, map[int]transcript.Transcript{}
				// decoded are the decodings shared; fresh the same, shared with
				// nothing: no projection may change one, then or later.
				decoded, fresh := make([]transcript.Decoded, len(events)), make([]transcript.Decoded, len(events))
				for i := range events {
					e := &events[i]
					d := &decoded[i]
					dec.Decode(e, d)
					again.Decode(e, &fresh[i])
					replay.Apply(e)
					shared.ApplyDecoded(e, d)
					c, sc := live.Apply(e), sharedLive.ApplyDecoded(e, d)
					pages.Apply(e, func(k int, t transcript.Transcript) bool { want[k] = t; return true })
					sharedPages.ApplyDecoded(e, d, func(k int, t transcript.Transcript) bool { got[k] = t; return true })
					if !reflect.DeepEqual(c, sc) {
						t.Fatalf("event %d (seq %d): Apply changed %+v, ApplyDecoded %+v", i, e.Seq, c, sc)
					}
					if i%61 != 0 && i != len(events)-1 {
						continue
					}
					if a, b := live.Transcript(), sharedLive.Transcript(); !reflect.DeepEqual(a, b) {
						t.Fatalf("event %d (seq %d): the live projector fed decodings parts from Apply's", i, e.Seq)
					}
				}
				for i := range decoded {
					if !reflect.DeepEqual(decoded[i], fresh[i]) {
						t.Fatalf("event %d (seq %d): applying its decoding changed it", i, events[i].Seq)
					}
				}
				pages.End(func(k int, t transcript.Transcript) bool { want[k] = t; return true })
				sharedPages.End(func(k int, t transcript.Transcript) bool { got[k] = t; return true })
				if a, b := replay.Transcript(), shared.Transcript(); !reflect.DeepEqual(a, b) {
					t.Fatal("the replay fed decodings parts from Apply's")
				}
				if !reflect.DeepEqual(want, got) || len(got) != len(windows) {
					t.Fatalf("the windows fed decodings part from Apply's (%d and %d of %d windows)", len(want), len(got), len(windows))
				}
			})
		}
	}
}
