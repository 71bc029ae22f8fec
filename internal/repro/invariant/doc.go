// Package invariant is the registry of the transcript invariants (All,
// Lookup): live ≡ replay, no lost message, one marker per checkpoint, no
// checkpoint payload, and history pages. A Checker renders a log on both of
// the terminal's paths at a set of sizes and checks them, reading the log
// twice and keeping none of its events (Read), or given them (New);
// dshtest repro reports its verdicts, and the property tests run it over
// generated sessions. The package also holds the one oracle of the texts a transcript
// must show (ExpectedTexts), the live ≡ replay comparison of a terminal's
// output (Comparable) and the bisection for the first event on which the two
// paths part (FirstDivergence), which the harness's snapshot uses.
//
// A new invariant is added to the registry in invariant.go, with its check.
package invariant
