// Package fastjson holds the hot-path JSON scanners of the projections: raw
// object splitting for the codec's envelope and the surface's rewrite rule
// (SplitObject, Lookup, DecodeString, …), and one-pass readers of the
// payloads a projection decodes most (DecodeChunkData, ScanToolResult,
// ScanAssistant, ScanUser), and the envelope walkers of the reader's
// per-event rules (Members, Each, Find, Type, …: envelope.go), which the
// load-time upgrades, the header rules and crash recovery use to leave a
// current-shape line untouched.
//
// Each reader is an exact stand-in for encoding/json on the shapes it takes
// and declines everything else (ok == false), which its caller then decodes
// with encoding/json. The differential tests and fuzz targets beside each
// scanner (and transcript's scan_test.go for the payload readers) hold them
// to that. A scanner stays only while a benchmark shows it at least 1.5×
// faster than encoding/json on its operation.
package fastjson
