// Package ring is a bounded journal for the mock server: the request
// journal, the deliveries journal, the event log and the outbox keep their
// last entries in one.
package ring

import (
	"sort"
	"sync"
)

// Ring keeps the last entries added, at most size of them (at least one);
// it is safe for concurrent use. It grows as entries come, up to size, and
// then overwrites the oldest: an append costs O(1) however full it is. The
// request journal, the deliveries journal, the event log and the outbox are
// rings.
type Ring[T any] struct {
	mu      sync.Mutex
	size    int
	entries []T
	next    int    // once full: the index of the oldest entry, overwritten next
	added   uint64 // entries added since New, across resets: the next entry's position
	base    uint64 // added at the last Reset: the position of entries[0] until the ring is full
}

// New answers an empty ring of at most size entries (at least one).
func New[T any](size int) *Ring[T] { return &Ring[T]{size: max(size, 1)} }

// Add appends e, overwriting the oldest entry once the ring is full.
func (j *Ring[T]) Add(e T) { j.Put(e) }

// Put appends e as Add does and answers its position, with which Replace
// changes it later.
func (j *Ring[T]) Put(e T) uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.put(e)
}

// put appends e; call with j.mu held.
func (j *Ring[T]) put(e T) uint64 {
	pos := j.added
	j.added++
	if len(j.entries) < j.size {
		j.entries = append(j.entries, e)
		return pos
	}
	j.entries[j.next] = e
	j.next = (j.next + 1) % j.size
	return pos
}

// Replace puts e in place of the entry that Put answered pos for, keeping
// its place in the order, and reports whether the ring still held that
// entry: false once newer entries have overwritten it or Reset has run.
func (j *Ring[T]) Replace(pos uint64, e T) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.replace(pos, e)
}

// replace is Replace; call with j.mu held.
func (j *Ring[T]) replace(pos uint64, e T) bool {
	if pos < j.base || pos >= j.added || j.added-pos > uint64(len(j.entries)) {
		return false
	}
	// Entry k since the last Reset sits at index k mod size: appended at k
	// until the ring is full, then written where next pointed, which is
	// k mod size too.
	j.entries[(pos-j.base)%uint64(j.size)] = e
	return true
}

// Complete puts e in place of the entry that Put answered pos for, as
// Replace does, when the ring still holds it; when newer entries have
// overwritten it since, it appends e as the newest entry instead, so that
// an entry completed after the ring came round is not lost. After a Reset
// it does nothing: what came before is forgotten. It reports whether e is
// in the ring. A ring read with After, whose order After relies on, must
// not use it.
func (j *Ring[T]) Complete(pos uint64, e T) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.replace(pos, e):
	case pos < j.base || pos >= j.added: // a Reset forgot it, or pos was never answered
		return false
	default:
		j.put(e)
	}
	return true
}

// List answers the remembered entries, oldest first (never nil).
func (j *Ring[T]) List() []T {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]T, 0, len(j.entries))
	out = append(out, j.entries[j.next:]...)
	return append(out, j.entries[:j.next]...)
}

// After answers, oldest first, the entries from the first one for which
// from holds on: from must be false for a prefix of the entries (oldest
// first) and true for the rest, so that a binary search finds it and the
// cost is that of the entries answered.
func (j *Ring[T]) After(from func(T) bool) []T {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := len(j.entries)
	at := func(i int) T { return j.entries[(j.next+i)%n] }
	first := sort.Search(n, func(i int) bool { return from(at(i)) })
	out := make([]T, 0, n-first)
	for i := first; i < n; i++ {
		out = append(out, at(i))
	}
	return out
}

// Reset forgets every entry and gives their memory back.
func (j *Ring[T]) Reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.next, j.base = nil, 0, j.added
}
