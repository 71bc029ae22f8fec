package invariant

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/terminal/display"
)

// DefaultSizes are the sizes the invariants are checked at when none is
// given: upstream's compaction scenario sizes.
func DefaultSizes() []Size { return []Size{{W: 80, H: 24}, {W: 44, H: 18}, {W: 104, H: 30}} }

// ParseSize parses a size written COLSxROWS (e.g. 80x24), each from 1 to
// 1000.
func ParseSize(s string) (Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		wi, err1 := strconv.Atoi(w)
		hi, err2 := strconv.Atoi(h)
		if err1 == nil && err2 == nil && wi >= 1 && wi <= 1000 && hi >= 1 && hi <= 1000 {
			return Size{W: wi, H: hi}, nil
		}
	}
	return Size{}, fmt.Errorf("%q: want COLSxROWS with COLS and ROWS from 1 to 1000, e.g. 80x24", s)
}

// Line is the verdict as one row, as dshtest repro prints it and the
// scenario verb invariants fails with: "ok  " or "FAIL", the name, the
// detail (escaped, on one line).
func (r Result) Line() string {
	verdict := "ok  "
	if !r.OK {
		verdict = "FAIL"
	}
	return fmt.Sprintf("%s %-16s %s", verdict, r.Name, display.OneLine(r.Detail))
}
