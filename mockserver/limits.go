package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/quota"

// Limits bounds what the mock stores per account (customer), so that a long CI
// run cannot grow it without end. Over a limit the service answers 507 with a
// JSON error that names the limit and the option that raises it, and stores
// nothing of the request
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#limits).
// The platform has no such answer: it is the mock's own.
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
	// for its status checks, until its retention ends (WithJobRetention).
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
func (l Limits) resolve() quota.Limits {
	return quota.Resolve(quota.Limits(l), quota.Limits(DefaultLimits))
}
