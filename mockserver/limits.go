package mockserver

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Limits bounds what the mock stores per account (customer), so that a long
// CI run cannot grow it without end. Over a limit the service answers 507
// with a JSON error that names the limit and the option that raises it, and
// stores nothing of the request (docs/mockserver.md, "Limits"). The platform
// has no such answer: it is the mock's own.
type Limits struct {
	// Forms a customer may hold, in any state.
	Forms int
	// Versions is the highest version number a form may reach.
	Versions int
	// PrefillRequests a customer may hold, over all its forms.
	PrefillRequests int
	// Submissions a customer may hold, over all its forms.
	Submissions int
	// CaseFiles a customer may hold, from form submissions and Send jobs
	// (a deleted case file frees its place).
	CaseFiles int
	// Jobs is how many Send jobs a customer may have created; a job stays
	// for its status checks.
	Jobs int
	// Subscriptions a customer may hold, active or not (the platform's own
	// limit of 5 active ones applies too, with a 409).
	Subscriptions int
}

// DefaultLimits are the limits of a Server unless WithLimits changes them:
// room for a long CI run of one account (about 100 MiB of forms,
// submissions and case files at their measured sizes), far from what one
// test needs.
var DefaultLimits = Limits{
	Forms:           10_000,
	Versions:        1_000,
	PrefillRequests: 100_000,
	Submissions:     50_000,
	CaseFiles:       50_000,
	Jobs:            50_000,
	Subscriptions:   1_000,
}

// WithLimits sets the per-account limits; a zero field keeps its default,
// a negative one means no limit.
func WithLimits(l Limits) Option {
	return func(c *config) { c.limits = l }
}

// resolve fills zero fields from DefaultLimits.
func (l Limits) resolve() Limits {
	pick := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	d := DefaultLimits
	return Limits{
		Forms: pick(l.Forms, d.Forms), Versions: pick(l.Versions, d.Versions),
		PrefillRequests: pick(l.PrefillRequests, d.PrefillRequests), Submissions: pick(l.Submissions, d.Submissions),
		CaseFiles: pick(l.CaseFiles, d.CaseFiles), Jobs: pick(l.Jobs, d.Jobs),
		Subscriptions: pick(l.Subscriptions, d.Subscriptions),
	}
}

// errStorageLimit is the 507 of a limit: it names the limit (the field of
// Limits) and how to raise it.
func errStorageLimit(field string, max int, customerID int64) *wire.Error {
	return &wire.Error{Status: http.StatusInsufficientStorage, Code: "storage_limit",
		Message: fmt.Sprintf("the mock server holds %d %s for customer %d, its limit; raise it with "+
			"mockserver.WithLimits(mockserver.Limits{%s: n}) (the binary: -limits %s=n), or empty the mock with POST /mock/reset",
			max, field, customerID, field, field),
		Details: []wire.FieldError{{Field: "limits." + field, Message: fmt.Sprintf("at most %d per customer", max)}}}
}

// quota counts what each customer holds of one kind against its limit. It
// has its own lock, so that a store takes its places before it stores.
type quota struct {
	field string // the Limits field, for the error
	max   int    // < 0: no limit
	mu    sync.Mutex
	used  map[int64]int
}

func newQuota(field string, max int) *quota {
	return &quota{field: field, max: max, used: map[int64]int{}}
}

// take reserves n places for the customer, or answers the 507 and reserves
// nothing.
func (q *quota) take(customerID int64, n int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.max >= 0 && q.used[customerID]+n > q.max {
		return errStorageLimit(q.field, q.max, customerID)
	}
	q.used[customerID] += n
	return nil
}

// give frees n places of the customer.
func (q *quota) give(customerID int64, n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.used[customerID] -= n; q.used[customerID] <= 0 {
		delete(q.used, customerID)
	}
}

func (q *quota) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	clear(q.used)
}

// quotas are the counters of every Limits field but Versions, which is a
// number each form carries.
type quotas struct {
	forms, prefills, submissions, caseFiles, jobs, subscriptions *quota
	versions                                                     int
}

func newQuotas(l Limits) *quotas {
	return &quotas{
		forms: newQuota("Forms", l.Forms), prefills: newQuota("PrefillRequests", l.PrefillRequests),
		submissions: newQuota("Submissions", l.Submissions), caseFiles: newQuota("CaseFiles", l.CaseFiles),
		jobs: newQuota("Jobs", l.Jobs), subscriptions: newQuota("Subscriptions", l.Subscriptions),
		versions: l.Versions,
	}
}

func (q *quotas) reset() {
	for _, c := range []*quota{q.forms, q.prefills, q.submissions, q.caseFiles, q.jobs, q.subscriptions} {
		c.reset()
	}
}

// takeAll reserves one place of each quota for the customer, all or none.
func takeAll(customerID int64, qs ...*quota) error {
	for i, q := range qs {
		if err := q.take(customerID, 1); err != nil {
			for _, done := range qs[:i] {
				done.give(customerID, 1)
			}
			return err
		}
	}
	return nil
}
