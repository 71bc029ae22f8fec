// Command cmd regenerates harness/help_gen.go from the verb doc comments.
// Run it with go generate ./harness.
package main

import (
	"fmt"
	"os"

	"github.com/dshtest/dshtest/harness/internal/helpgen"
)

func main() {
	if err := helpgen.Write("."); err != nil {
		fmt.Fprintln(os.Stderr, "helpgen:", err)
		os.Exit(1)
	}
}
