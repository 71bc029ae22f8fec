package sessiongen

import "testing"

// BenchmarkGenerate measures a default session (about 300 events).
func BenchmarkGenerate(b *testing.B) {
	for i := range b.N {
		Generate(int64(i), Config{})
	}
}

// BenchmarkGenerateN measures a 10,000-event session.
func BenchmarkGenerateN(b *testing.B) {
	for i := range b.N {
		GenerateN(int64(i), 10000)
	}
}
