package reader

// What the external tests read of Upgrades.

const UpgradesMax = upgradesMax

func (u *Upgrades) Kept() int           { return len(u.lines) }
func (u *Upgrades) Usable() bool        { return u.usable() }
func (u *Upgrades) Add(n int, b []byte) { u.add(n, b) }
