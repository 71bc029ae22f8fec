// Command dshtest runs, records and reviews the transcript scenarios of this
// repository, and reproduces a user's session log against the transcript
// invariants. Run "dshtest help" for the commands.
package main

import (
	"os"
	"runtime"

	"github.com/dshtest/dshtest/cmd/dshtest/internal/cli"
)

func main() {
	if !cli.HeapProfileAsked(os.Getenv) {
		// The heap profile's samples cost repro of a long log megabytes
		// of its budget (1.5 MiB on a 22 MB log) and some time, and only
		// a heap profile asked for reads them. Set before the first
		// allocation worth sampling.
		runtime.MemProfileRate = 0
	}
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}
