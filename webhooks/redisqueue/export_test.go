package redisqueue

import "context"

// Prune runs q's removal of idle consumers once, for the tests that race
// it against reads and claims.
func Prune(ctx context.Context, q *Queue) (int, error) { return q.prune(ctx) }
