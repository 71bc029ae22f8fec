// Package corpusgolden pins the rendered document of every accepted log of
// upstream's corpus (testdata/corpus at the repository root) with golden
// files, one for each log at widths 100 and 60 with tool cards collapsed
// and expanded, so that any change to the renderer shows in review as a
// diff over real sessions. The documents are what dshtest render --format
// fixture prints; the goldens are compared by goldie (github.com/sebdah/
// goldie/v2) with a line diff, and rewritten with GOLDIE_UPDATE=1 or
// -update (docs/fixtures.md).
//
// The package holds only its test. Its test binary must not link teatest,
// whose golden package defines the same global -update flag as goldie.
package corpusgolden
