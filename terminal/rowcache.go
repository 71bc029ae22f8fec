package terminal

import (
	"sync"

	"github.com/dshtest/dshtest/transcript"
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
//
// It holds one rendering per item ID, the latest, until a live model takes
// it: a model that reads a document row by row (DocumentRows) keeps none
// of it, and a live model reading its document in step with the replay's
// takes each item's rows as the replay renders them, so the cache holds
// the stretch between the two readers rather than the document.
type RowCache struct {
	mu   sync.Mutex
	rows map[transcript.ItemID]sharedRows
}

// NewRowCache returns an empty RowCache.
func NewRowCache() *RowCache {
	return &RowCache{rows: map[transcript.ItemID]sharedRows{}}
}

// rowKey is everything an item's rows depend on besides its value.
type rowKey struct {
	s    Settings // Now is zero unless the item's text depends on the clock
	cont bool
}

type sharedRows struct {
	key  rowKey
	item *transcript.Item // in a replayed transcript: never modified
	rows []string
}

func newRowKey(s Settings, key cacheKey) rowKey {
	s.Now = key.now
	return rowKey{s: s, cont: key.cont}
}

// get returns the rows rendered under k for an item equal to it; take
// drops them from the cache once found.
func (c *RowCache) get(k rowKey, it *transcript.Item, take bool) ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.rows[it.ID]
	if !ok || e.key != k || !transcript.SameItem(e.item, it) {
		return nil, false
	}
	if take {
		delete(c.rows, it.ID)
	}
	return e.rows, true
}

// put records rows rendered under k for it, an item of a replayed
// transcript.
func (c *RowCache) put(k rowKey, it *transcript.Item, rows []string) {
	c.mu.Lock()
	c.rows[it.ID] = sharedRows{key: k, item: it, rows: rows}
	c.mu.Unlock()
}
