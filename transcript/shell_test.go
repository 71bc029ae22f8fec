package transcript_test

import (
	"testing"

	"github.com/dshtest/dshtest/transcript"
)

// TestShellCardsAndInbox projects testdata/user-shell.jsonl: an inbox
// splice never renders (its prompt shows once, as the user/message with the
// same id), the runtime context is a context card, a Shell card settles in
// place from its result, a result with no start renders nothing, and a start
// without a result stays unsettled (interrupted).
func TestShellCardsAndInbox(t *testing.T) {
	tr := transcript.Project(trLoad(t, "user-shell.jsonl"), transcript.Options{})
	prompts, shells := 0, map[string]*transcript.ShellCard{}
	var contexts []string
	for _, it := range tr.Items {
		switch it.Kind {
		case transcript.KindPrompt:
			prompts++
			if it.ID.Seq != 4 {
				t.Errorf("prompt at seq %d, want the user/message at 4", it.ID.Seq)
			}
		case transcript.KindContext:
			contexts = append(contexts, it.Context.Label)
		case transcript.KindShell:
			shells[it.Shell.ID] = it.Shell
		}
	}
	if prompts != 1 {
		t.Errorf("%d prompts, want 1", prompts)
	}
	if len(contexts) != 1 || contexts[0] != "@deepseek-ai/dsh-system-prompt" {
		t.Errorf("context cards %q", contexts)
	}
	if len(shells) != 2 {
		t.Fatalf("%d shell cards, want 2: %+v", len(shells), shells)
	}
	if r := shells["sh-1"].Result; r == nil || r.Failed() || r.Stdout.Text != "a\nb\n" {
		t.Errorf("sh-1 result %+v", r)
	}
	if shells["sh-2"].Result != nil {
		t.Errorf("sh-2 settled without a result")
	}
}
