// Command dshtest runs, records and reviews the transcript scenarios of this
// repository, and reproduces a user's session log against the transcript
// invariants. Run "dshtest help" for the commands.
package main

import (
	"os"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}
