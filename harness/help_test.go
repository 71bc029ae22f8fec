package harness_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/internal/helpgen"
)

// TestHelpGenerated fails when help_gen.go no longer matches the verb doc
// comments.
func TestHelpGenerated(t *testing.T) {
	want, err := helpgen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(helpgen.Output)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go generate ./harness", helpgen.Output)
	}
}

// TestHelpListsEveryVerb checks that every verb's help opens with its
// syntax and has an example, and that help prints them all.
func TestHelpListsEveryVerb(t *testing.T) {
	verbs := harness.Verbs()
	if len(verbs) < 30 {
		t.Fatalf("only %d verbs: %v", len(verbs), verbs)
	}
	all := harness.Help()
	for _, v := range verbs {
		h, ok := harness.VerbHelp(v)
		if !ok {
			t.Fatalf("no help for %q", v)
		}
		if !strings.HasPrefix(h, v+" ") && !strings.HasPrefix(h, v+"\n") {
			t.Errorf("help for %q does not open with its syntax:\n%s", v, h)
		}
		if !strings.Contains(h, "\n    Example:\n") {
			t.Errorf("help for %q has no example", v)
		}
		if !strings.Contains(all, h) {
			t.Errorf("help does not include %q", v)
		}
	}
}
