package webhooks

import (
	"container/heap"
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DedupStore remembers the ids of events that are processed or being
// processed, so that a replayed or concurrently redelivered event is
// processed once. Implementations must be safe for concurrent use, and Claim
// must be atomic: of two concurrent claims of one id, exactly one succeeds.
type DedupStore interface {
	// Claim records id until ttl passes; false when id is already claimed.
	Claim(ctx context.Context, id string, ttl time.Duration) (bool, error)
	// Release forgets a claim whose processing failed, so a redelivery is accepted.
	Release(ctx context.Context, id string) error
}

// Extender is implemented by the DedupStores whose claims can be kept
// alive, as both of this module's are. AsyncHandler extends the claim on an
// event while it retries it and when it takes it over from another
// receiver, so that a redelivery is not processed meanwhile.
type Extender interface {
	// Extend makes the claim on id end ttl from now, claiming id anew when
	// its claim has ended or was released.
	Extend(ctx context.Context, id string, ttl time.Duration) error
}

// ErrInvalidClaim is returned by the stores of this module for an empty id or
// a ttl that is not positive.
var ErrInvalidClaim = errors.New("webhooks: claim needs an id and a positive ttl")

// NewMemoryDedup returns a DedupStore in memory for at most maxEntries ids
// (DefaultDedupEntries when maxEntries < 1). When it is full, a new claim
// evicts expired ids first, then the oldest claims. It serves one process;
// receivers on several machines need a shared store such as
// webhooks/redisdedup.
//
// Size it for the deliveries expected within the claim ttl (twice the
// verifier's tolerance): an id evicted before its ttl passes can be replayed.
//
// The store also implements Extender and Completer.
func NewMemoryDedup(maxEntries int) DedupStore {
	return newMemoryDedup(maxEntries, time.Now)
}

func newMemoryDedup(maxEntries int, now func() time.Time) *memoryDedup {
	if maxEntries < 1 {
		maxEntries = DefaultDedupEntries
	}
	return &memoryDedup{
		max:     maxEntries,
		now:     now,
		entries: make(map[string]*claim),
	}
}

// memoryDedup keeps its claims in a map, a list in claim order and a heap in
// expiry order.
type memoryDedup struct {
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
	done    bool // Complete marked it (complete.go)
}

// Claim implements DedupStore.
func (m *memoryDedup) Claim(_ context.Context, id string, ttl time.Duration) (bool, error) {
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
func (m *memoryDedup) add(id string, expires time.Time) {
	for len(m.entries) >= m.max {
		m.remove(m.order.Front().Value.(*claim))
	}
	c := &claim{id: id, expires: expires}
	c.elem = m.order.PushBack(c)
	heap.Push(&m.expiry, c)
	m.entries[id] = c
}

// Extend implements Extender.
func (m *memoryDedup) Extend(_ context.Context, id string, ttl time.Duration) error {
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

// Release implements DedupStore.
func (m *memoryDedup) Release(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.entries[id]; ok {
		m.remove(c)
	}
	return nil
}

// dropExpired removes every claim whose ttl has passed; each claim is
// removed once, so the cost is amortized over the claims.
func (m *memoryDedup) dropExpired(now time.Time) {
	for len(m.expiry) > 0 && !now.Before(m.expiry[0].expires) {
		m.remove(m.expiry[0])
	}
}

func (m *memoryDedup) remove(c *claim) {
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
