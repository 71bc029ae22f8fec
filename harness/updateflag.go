package harness

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// go test's -update flag belongs to whichever golden-file package the test
// binary links: goldie/v2 and teatest's golden both define it on the
// command line, and a binary that defined it twice would panic at start.
// So the harness never defines it; it looks it up at run time.

// updateFlag reports whether the test binary defines -update and whether
// it is set.
func updateFlag() (set, defined bool) {
	f := flag.Lookup("update")
	if f == nil {
		return false, false
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if b, ok := g.Get().(bool); ok {
			return b, true
		}
	}
	b, _ := strconv.ParseBool(f.Value.String())
	return b, true
}

// updateHint says how to re-record from go test.
func updateHint() string {
	if _, defined := updateFlag(); defined {
		return "to re-record: go test -update (or GOLDIE_UPDATE=1 go test)"
	}
	return "to re-record: GOLDIE_UPDATE=1 go test"
}

// noUpdateFlag is what a test binary without an -update flag adds to its
// usage when it was given one: go test ./... -update fails there with
// "flag provided but not defined: -update" before any test runs.
const noUpdateFlag = "dshtest harness: this test binary defines no -update flag (goldie's or teatest's golden package would); re-record with GOLDIE_UPDATE=1 go test"

func init() {
	// Said from the usage, which the flag package prints after refusing
	// an undefined flag: by then every package has defined its flags.
	usage := flag.Usage
	flag.Usage = func() {
		if _, defined := updateFlag(); !defined && askedForUpdate(os.Args[1:]) {
			fmt.Fprintln(flag.CommandLine.Output(), noUpdateFlag)
		}
		usage()
	}
}

// askedForUpdate reports whether args pass an -update flag (-update,
// --update, -update=V) before a "--".
func askedForUpdate(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			continue // a flag's value
		}
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); name == "update" {
			return true
		}
	}
	return false
}
