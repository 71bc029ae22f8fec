package logbuild

import (
	"fmt"
	"strconv"
)

// The provider every written message, retry and summary claims, and the
// models the writers choose from.
const (
	DefaultProvider = "deepseek-official"
	DefaultModel    = "deepseek-v4-flash"
	ProModel        = "deepseek-v4-pro"
)

// Id schemes. The harness derives its ids from the seq an event is
// appended at, so a scenario's ids are stable under edits elsewhere; the
// generator numbers them and salts them with seeded bits, as upstream's
// random ids would be.

// SeqID is the harness's id of the message appended at seq: prefix-seq.
func SeqID(prefix string, seq int64) string { return prefix + "-" + strconv.FormatInt(seq, 10) }

// SeqCallID is the harness's id of the k-th (1-based) tool call of the
// assistant message appended at seq.
func SeqCallID(seq int64, k int) string { return fmt.Sprintf("call-%d-%d", seq, k) }

// SeqCompactionID is the harness's id of its n-th compaction.
func SeqCompactionID(n int) string { return fmt.Sprintf("cmp-%d", n) }

// GenMessageID is the generator's id of its n-th message, salted with the
// low 16 bits of salt.
func GenMessageID(n int, salt uint32) string { return fmt.Sprintf("msg-%d-%04x", n, salt&0xffff) }

// GenCallID is the generator's id of its n-th tool call, salted with the
// low 24 bits of salt.
func GenCallID(n int, salt uint32) string { return fmt.Sprintf("call_%d_%06x", n, salt&0xffffff) }

// GenCommandID is the generator's sourceCommandId of its n-th command.
func GenCommandID(n int) string { return fmt.Sprintf("cmd-%d", n) }

// UUID formats 128 random bits as a version-4 UUID.
func UUID(a, b uint64) string {
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff,
		0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
}
