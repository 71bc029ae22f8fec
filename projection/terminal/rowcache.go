package terminal

import (
	"reflect"
	"sync"

	"github.com/dshtest/dshtest/projection"
)

// RowCache shares rendered rows between models that show the same session,
// so that a second model (a live terminal checked against a replayed one)
// renders only the items in which it differs from the first. Pass one
// RowCache to each model's Config. It is safe for concurrent use.
//
// An item's rows are a function of the item's value and the settings, so a
// model reuses rows another model rendered for an item with the same ID,
// the same settings and an equal value (reflect.DeepEqual, the item's
// revision aside). Only rows rendered from a replayed transcript are
// shared: its items are never modified afterwards, where a live
// projector's are edited in place as events arrive.
type RowCache struct {
	mu   sync.Mutex
	rows map[rowKey]sharedRows
}

// NewRowCache returns an empty RowCache.
func NewRowCache() *RowCache {
	return &RowCache{rows: map[rowKey]sharedRows{}}
}

// rowKey is an item's ID and everything else its rows depend on.
type rowKey struct {
	id   projection.ItemID
	s    Settings // Now is zero unless the item's text depends on the clock
	cont bool
}

type sharedRows struct {
	item *projection.Item // in a replayed transcript: never modified
	rows []string
}

func newRowKey(it *projection.Item, s Settings, key cacheKey) rowKey {
	s.Now = key.now
	return rowKey{id: it.ID, s: s, cont: key.cont}
}

// get returns the rows rendered for an item equal to it under k.
func (c *RowCache) get(k rowKey, it *projection.Item) ([]string, bool) {
	c.mu.Lock()
	e, ok := c.rows[k]
	c.mu.Unlock()
	if !ok || !sameItem(e.item, it) {
		return nil, false
	}
	return e.rows, true
}

// put records rows rendered for it, an item of a replayed transcript.
func (c *RowCache) put(k rowKey, it *projection.Item, rows []string) {
	c.mu.Lock()
	c.rows[k] = sharedRows{item: it, rows: rows}
	c.mu.Unlock()
}

// sameItem reports whether two items have equal values, their revisions
// (which count edits in one projector) aside.
func sameItem(a, b *projection.Item) bool {
	if a == b {
		return true
	}
	x, y := *a, *b
	x.Rev, y.Rev = 0, 0
	return reflect.DeepEqual(x, y)
}
