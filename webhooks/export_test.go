package webhooks

import "time"

// NewMemoryDedupClock exposes the memory store with an injected clock to the
// external tests.
func NewMemoryDedupClock(maxEntries int, now func() time.Time) DedupStore {
	return newMemoryDedup(maxEntries, now)
}

// MemoryDedupLen reports how many claims a memory store holds.
func MemoryDedupLen(s DedupStore) int {
	m := s.(*memoryDedup)
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}
