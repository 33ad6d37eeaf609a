package send

import (
	"crypto/sha256"
	"sync"
	"time"
)

// maxLimitKeys bounds how many keys a rateLimiter remembers; past it, keys
// whose window has passed are forgotten, then (if still full) arbitrary
// ones.
const maxLimitKeys = 100_000

// rateLimiter allows each key at most limit events per sliding window of its
// own clock. The queue status check uses it with the wall clock
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Queue status"). It is safe for concurrent use.
type rateLimiter struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	now    func() time.Time
	hits   map[[sha256.Size]byte][]time.Time // key digest → times of the recent events, oldest first
}

func newRateLimiter(limit int, window time.Duration, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, window: window, now: now, hits: map[[sha256.Size]byte][]time.Time{}}
}

// reset forgets every key.
func (l *rateLimiter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hits = map[[sha256.Size]byte][]time.Time{}
}

// allow records an event for key and answers true, or answers false and how
// long until the key may try again when it has used up its window. Keys
// are kept as digests, so a long key costs no more memory than a short one.
func (l *rateLimiter) allow(key string) (bool, time.Duration) {
	k := sha256.Sum256([]byte(key))
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	recent := l.hits[k]
	for len(recent) > 0 && !now.Before(recent[0].Add(l.window)) {
		recent = recent[1:]
	}
	if len(recent) >= l.limit {
		l.hits[k] = recent
		return false, recent[0].Add(l.window).Sub(now)
	}
	if _, known := l.hits[k]; !known && len(l.hits) >= maxLimitKeys {
		l.pruneLocked(now)
	}
	l.hits[k] = append(recent, now)
	return true, 0
}

// pruneLocked forgets keys whose last event left the window, then, if the
// map is still full, arbitrary keys until a tenth of the room is free.
func (l *rateLimiter) pruneLocked(now time.Time) {
	for k, ts := range l.hits {
		if len(ts) == 0 || !now.Before(ts[len(ts)-1].Add(l.window)) {
			delete(l.hits, k)
		}
	}
	for k := range l.hits {
		if len(l.hits) < maxLimitKeys-maxLimitKeys/10 {
			break
		}
		delete(l.hits, k)
	}
}
