// Package quota counts what each customer stores against the mock's per-account
// limits and answers the 507 of a limit that is reached
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#limits).
package quota

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Limits are the per-customer limits, all resolved: a negative field means
// no limit. Its fields match mockserver.Limits one for one.
type Limits struct {
	Forms           int
	Versions        int
	PrefillRequests int
	Submissions     int
	CaseFiles       int
	Jobs            int
	Subscriptions   int
}

// Resolve answers l with each zero field taken from def.
func Resolve(l, def Limits) Limits {
	pick := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	pick(&l.Forms, def.Forms)
	pick(&l.Versions, def.Versions)
	pick(&l.PrefillRequests, def.PrefillRequests)
	pick(&l.Submissions, def.Submissions)
	pick(&l.CaseFiles, def.CaseFiles)
	pick(&l.Jobs, def.Jobs)
	pick(&l.Subscriptions, def.Subscriptions)
	return l
}

// ErrLimit is the 507 of a limit: it names the limit (the field of Limits)
// and how to raise it.
func ErrLimit(field string, max int, customerID int64) *wire.Error {
	return &wire.Error{Status: http.StatusInsufficientStorage, Code: "storage_limit",
		Message: fmt.Sprintf("the mock server holds %d %s for customer %d, its limit; raise it with "+
			"mockserver.WithLimits(mockserver.Limits{%s: n}) (the binary: -limits %s=n), or empty the mock with POST /mock/reset",
			max, field, customerID, field, field),
		Details: []wire.FieldError{{Field: "limits." + field, Message: fmt.Sprintf("at most %d per customer", max)}}}
}

// Quota counts what each customer holds of one kind against its limit. It
// has its own lock, so that a store takes its places before it stores.
type Quota struct {
	field string // the Limits field, for the error
	max   int    // < 0: no limit
	mu    sync.Mutex
	used  map[int64]int
}

func newQuota(field string, max int) *Quota {
	return &Quota{field: field, max: max, used: map[int64]int{}}
}

// Take reserves n places for the customer, or answers the 507 and
// reserves nothing.
func (q *Quota) Take(customerID int64, n int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.max >= 0 && q.used[customerID]+n > q.max {
		return ErrLimit(q.field, q.max, customerID)
	}
	q.used[customerID] += n
	return nil
}

// Give frees n places of the customer.
func (q *Quota) Give(customerID int64, n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.used[customerID] -= n; q.used[customerID] <= 0 {
		delete(q.used, customerID)
	}
}

func (q *Quota) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	clear(q.used)
}

// Set holds the counters of every Limits field but Versions, which is a
// number each form carries.
type Set struct {
	Forms, Prefills, Submissions, CaseFiles, Jobs, Subscriptions *Quota
	Versions                                                     int
}

// NewSet answers empty counters for the limits l.
func NewSet(l Limits) *Set {
	return &Set{
		Forms: newQuota("Forms", l.Forms), Prefills: newQuota("PrefillRequests", l.PrefillRequests),
		Submissions: newQuota("Submissions", l.Submissions), CaseFiles: newQuota("CaseFiles", l.CaseFiles),
		Jobs: newQuota("Jobs", l.Jobs), Subscriptions: newQuota("Subscriptions", l.Subscriptions),
		Versions: l.Versions,
	}
}

// Reset forgets every count.
func (s *Set) Reset() {
	for _, c := range []*Quota{s.Forms, s.Prefills, s.Submissions, s.CaseFiles, s.Jobs, s.Subscriptions} {
		c.reset()
	}
}

// TakeAll reserves one place of each quota for the customer, all or none.
func TakeAll(customerID int64, qs ...*Quota) error {
	for i, q := range qs {
		if err := q.Take(customerID, 1); err != nil {
			for _, done := range qs[:i] {
				done.Give(customerID, 1)
			}
			return err
		}
	}
	return nil
}
