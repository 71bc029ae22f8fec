package suitedir

import "github.com/dshtest/dshtest/harness"

// Index reads the snapshot steps of every scenario of the folder
// (harness.SnapshotIndex).
func (d Dir) Index() (harness.SnapshotIndex, error) {
	return harness.ReadSnapshotIndex(d.Scenarios())
}

// clashes is harness.SnapshotIndex.Clashes naming the folder's files as
// messages do.
func clashes(ix harness.SnapshotIndex, scenarios []string) []string {
	return ix.Clashes(scenarios, scenariosName, fixturesName)
}
