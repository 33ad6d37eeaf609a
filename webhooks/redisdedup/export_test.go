package redisdedup

import "time"

// WithClock exposes the clock option to the external tests.
func WithClock(now func() time.Time) Option { return withClock(now) }

// Remembered reports how many ids s keeps a record for (live or released)
// and how many records its queue keeps, superseded ones included.
func Remembered(s *Store) (records, queued int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.claims), len(s.queue) - s.head
}

// Record reports the token of the record s keeps for id and whether that
// claim was released; ok is false when s keeps no record for id.
func Record(s *Store, id string) (token string, released, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.claims[id]
	if r == nil {
		return "", false, false
	}
	return r.token, r.released, true
}

// Token returns the token of the record s keeps for id, "" when none.
func Token(s *Store, id string) string {
	token, _, _ := Record(s, id)
	return token
}
