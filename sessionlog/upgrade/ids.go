package upgrade

import (
	"bytes"
	"slices"
)

// idTable maps a seq to the id of the surface message at it, the last one
// set winning. A log's seqs ascend, so the table keeps them in order, the
// ids side by side in one buffer, and finds one by binary search: a map of
// a small copy per message was a third of the upgrade's time on a long
// log. From the first seq that does not ascend on, seqs are kept in a map,
// which a lookup reads first.
type idTable struct {
	seqs []int64
	ends []int  // the id of seqs[i] is buf[ends[i-1]:ends[i]]
	buf  []byte // the ids, one after another
	late map[int64][]byte
}

// set records id (copied) as the id at seq.
func (t *idTable) set(seq int64, id []byte) {
	if n := len(t.seqs); t.late == nil && (n == 0 || seq > t.seqs[n-1]) {
		t.buf = append(t.buf, id...)
		t.seqs = append(t.seqs, seq)
		t.ends = append(t.ends, len(t.buf))
		return
	}
	if t.late == nil {
		t.late = map[int64][]byte{}
	}
	t.late[seq] = bytes.Clone(id)
}

// get returns the id at seq, nil when there is none. It must not be
// modified.
func (t *idTable) get(seq int64) []byte {
	if id, ok := t.late[seq]; ok {
		return id
	}
	i, found := slices.BinarySearch(t.seqs, seq)
	if !found {
		return nil
	}
	start := 0
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.buf[start:t.ends[i]:t.ends[i]]
}
