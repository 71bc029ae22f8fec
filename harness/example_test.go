package harness_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshtest/dshtest/harness"
)

// ExampleRun runs a one-scenario suite: a scenario that tells a story with
// the verbs and pins the transcript with transcript and cmp (a snapshot
// would pin the screen in fixtures/). In a package's tests the call is
// harness.Run(t, harness.ConfigFromEnv("../scenarios", "../fixtures")) in
// a TestScenarios function; here it runs under testing.RunTests.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "harness-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	scenarios, fixtures := filepath.Join(dir, "scenarios"), filepath.Join(dir, "fixtures")
	_ = os.MkdirAll(fixtures, 0o755)
	_ = os.MkdirAll(scenarios, 0o755)
	_ = os.WriteFile(filepath.Join(scenarios, "hello.txtar"), []byte(`# A prompt and its answer.
turn 1
step 1
user 'Hello'
assistant 'Hi there.'
step-end
transcript
cmp stdout want.txt
-- want.txt --
prompt 2 You "Hello"
step 3 1/1 settled reasoning="" text="Hi there."
footer 3 1/1 completed
`), 0o644)

	// The nested run reports as the enclosing go test would: keep it quiet
	// even under -v, so that only the example's own line is printed.
	if v := flag.Lookup("test.v"); v != nil {
		old := v.Value.String()
		_ = v.Value.Set("false")
		defer func() { _ = v.Value.Set(old) }()
	}
	var recorded []string
	all := func(pat, name string) (bool, error) { return true, nil } // whatever -test.run says
	ok := testing.RunTests(all, []testing.InternalTest{{
		Name: "TestScenarios",
		F: func(t *testing.T) {
			s := harness.Run(t, harness.Config{ScenarioDir: scenarios, FixtureDir: fixtures})
			t.Cleanup(func() { recorded = s.Recorded() })
		},
	}})
	fmt.Println("passed:", ok, "fixtures recorded:", len(recorded))
	// Output: passed: true fixtures recorded: 0
}
