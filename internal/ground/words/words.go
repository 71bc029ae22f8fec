// Package words spells counts in the messages every layer prints, from a
// reader's torn-tail warning to the CLI's summaries, so that "1 fixture"
// and "2 fixtures" are written one way.
package words

import "strconv"

// Plural formats a count with its noun, adding "s" unless n is 1:
// "1 event", "0 events", "2 events".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
