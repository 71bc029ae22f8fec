// Package properties holds dshtest's property tests: invariants of the
// transcript, the terminal renderer, history paging and the codec, checked
// over many generated sessions (internal/testkit/sessiongen) at seeded widths,
// toggles and schemes. It finds the cases that hand-written scenarios miss.
//
// The package has no code outside its tests. Run it with
//
//	go test ./properties                       # 500 sessions
//	DSHTEST_SOAK=10000 go test ./properties    # make soak
//	go test ./properties -seed 123 -prop live-replay -v
//
// A failing session is shrunk with internal/repro/minimize while the same
// property still fails, and written with internal/repro/emit to
// testdata/shrunk/<property>-<seed>.txtar: a scenario for the developer to
// keep (copy it to scenarios/ and record it).
package properties
