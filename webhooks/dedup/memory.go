package dedup

import (
	"container/heap"
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"
)

// NewMemory returns a Store in memory for at most maxEntries ids
// (DefaultMaxEntries when maxEntries < 1). When it is full, a new claim
// evicts expired ids first, then the oldest claims. It serves one process;
// receivers on several machines need a shared store such as
// webhooks/redisdedup.
//
// Size it for the deliveries expected within the claim ttl (twice the
// verifier's tolerance): an id evicted before its ttl passes can be replayed.
//
// The store also implements Extender and Completer.
func NewMemory(maxEntries int) Store {
	return newMemory(maxEntries, time.Now)
}

func newMemory(maxEntries int, now func() time.Time) *memoryStore {
	if maxEntries < 1 {
		maxEntries = DefaultMaxEntries
	}
	return &memoryStore{
		max:     maxEntries,
		now:     now,
		entries: make(map[string]*claim),
	}
}

var (
	_ Store     = (*memoryStore)(nil)
	_ Extender  = (*memoryStore)(nil)
	_ Completer = (*memoryStore)(nil)
)

// memoryStore keeps its claims in a map, a list in claim order and a heap in
// expiry order.
type memoryStore struct {
	mu      sync.Mutex
	max     int
	now     func() time.Time
	entries map[string]*claim
	order   list.List // of *claim, oldest first
	expiry  expiryHeap
}

type claim struct {
	id      string
	expires time.Time
	elem    *list.Element
	index   int  // in expiry
	done    bool // Complete marked it
}

// Claim implements Store.
func (m *memoryStore) Claim(_ context.Context, id string, ttl time.Duration) (bool, error) {
	if id == "" || ttl <= 0 {
		return false, fmt.Errorf("%w: id %q, ttl %v", ErrInvalidClaim, id, ttl)
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropExpired(now)
	if _, ok := m.entries[id]; ok {
		return false, nil
	}
	m.add(id, now.Add(ttl))
	return true, nil
}

// add records a claim on id, evicting the oldest claims when full.
func (m *memoryStore) add(id string, expires time.Time) {
	for len(m.entries) >= m.max {
		m.remove(m.order.Front().Value.(*claim))
	}
	c := &claim{id: id, expires: expires}
	c.elem = m.order.PushBack(c)
	heap.Push(&m.expiry, c)
	m.entries[id] = c
}

// Extend implements Extender.
func (m *memoryStore) Extend(_ context.Context, id string, ttl time.Duration) error {
	if id == "" || ttl <= 0 {
		return fmt.Errorf("%w: id %q, ttl %v", ErrInvalidClaim, id, ttl)
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropExpired(now)
	if c, ok := m.entries[id]; ok {
		c.expires = now.Add(ttl)
		heap.Fix(&m.expiry, c.index)
		return nil
	}
	m.add(id, now.Add(ttl))
	return nil
}

// Release implements Store.
func (m *memoryStore) Release(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.entries[id]; ok {
		m.remove(c)
	}
	return nil
}

// Complete implements Completer.
func (m *memoryStore) Complete(_ context.Context, id string) error {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropExpired(now)
	if c, ok := m.entries[id]; ok {
		c.done = true
	}
	return nil
}

// Completed implements Completer.
func (m *memoryStore) Completed(_ context.Context, id string) (bool, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropExpired(now)
	c, ok := m.entries[id]
	return ok && c.done, nil
}

// dropExpired removes every claim whose ttl has passed; each claim is
// removed once, so the cost is amortized over the claims.
func (m *memoryStore) dropExpired(now time.Time) {
	for len(m.expiry) > 0 && !now.Before(m.expiry[0].expires) {
		m.remove(m.expiry[0])
	}
}

func (m *memoryStore) remove(c *claim) {
	delete(m.entries, c.id)
	m.order.Remove(c.elem)
	heap.Remove(&m.expiry, c.index)
}

// expiryHeap is a min-heap of claims by expiry.
type expiryHeap []*claim

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].expires.Before(h[j].expires) }
func (h expiryHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *expiryHeap) Push(x any) {
	c := x.(*claim)
	c.index = len(*h)
	*h = append(*h, c)
}

func (h *expiryHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return c
}
