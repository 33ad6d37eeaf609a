package queue

// WaitingCap reports the capacity of the slice that holds q's waiting
// entries, for the storage tests.
func WaitingCap(q *Memory) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return cap(q.ready)
}
