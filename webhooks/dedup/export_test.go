package dedup

import "time"

// NewMemoryClock exposes the memory store with an injected clock to the
// external tests.
func NewMemoryClock(maxEntries int, now func() time.Time) Store {
	return newMemory(maxEntries, now)
}

// MemoryLen reports how many claims a memory store holds.
func MemoryLen(s Store) int {
	m := s.(*memoryStore)
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}
