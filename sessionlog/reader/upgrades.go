package reader

// Upgrades are the lines of a log its load-time upgrades changed (package
// upgrade), by line number, as they read once upgraded: what one read
// records (Stream.RecordUpgrades) for a later read of the same unchanged
// log to take (Options.Upgraded) instead of upgrading every line again.
// repro reads a log twice, and on a log of the current shape the upgrades
// are a scan of every message for the few older events.
//
// Past upgradesMax bytes of changed lines none is kept, and a later read
// upgrades as the first did: most lines of a log of the older shapes
// change, and keeping them would hold the log.
type Upgrades struct {
	lines    map[int][]byte
	size     int
	over     bool
	complete bool // the recording read reached the log's end
}

// upgradesMax is the most bytes of changed lines Upgrades keeps.
const upgradesMax = 2 << 20

// Complete says the read that recorded u read the whole log without a
// refusal: u then holds every line it changed, unless it outgrew
// upgradesMax.
func (u *Upgrades) Complete() { u.complete = true }

// usable reports whether a read may take u instead of upgrading.
func (u *Upgrades) usable() bool { return u != nil && u.complete && !u.over }

// add records line n, upgraded to b (which the upgrade made: it is kept,
// not copied).
func (u *Upgrades) add(n int, b []byte) {
	if u.over {
		return
	}
	if u.size += len(b); u.size > upgradesMax {
		u.over, u.lines = true, nil
		return
	}
	if u.lines == nil {
		u.lines = map[int][]byte{}
	}
	u.lines[n] = b
}

// RecordUpgrades has the read record the lines its upgrades change into u
// (Upgrades): call it before the first Next.
func (s *Stream) RecordUpgrades(u *Upgrades) { s.record = u }

// upgrade returns line n (data) upgraded, and whether that changed it:
// taken from the earlier read's Upgrades when the options give them, else
// upgraded (and recorded, when asked).
func (s *Stream) upgrade(data []byte, n int) ([]byte, bool, error) {
	if u := s.opts.Upgraded; u.usable() {
		if b, ok := u.lines[n]; ok {
			s.retaken++
			return b, true, nil
		}
		return data, false, nil
	}
	out, changed, err := s.up.Upgrade(data)
	if changed && s.record != nil {
		s.record.add(n, out)
	}
	return out, changed, err
}
