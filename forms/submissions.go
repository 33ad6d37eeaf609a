package forms

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/internal/transport"
)

// MaxPageSize is the largest Limit the service accepts for a page of
// submissions; AllSubmissions reads pages of this size.
const MaxPageSize = 1000

// ListOptions selects a page of submissions. The zero value asks for the
// service's default page (10 submissions from the start).
type ListOptions struct {
	// Limit is the page size: 0 for the service's default (10), or 1 to
	// MaxPageSize.
	Limit int `url:"limit,omitempty"`
	// Offset is how many submissions to skip; at least 0.
	Offset int `url:"offset,omitempty"`
	// CompletedAfter and CompletedBefore, when set, bound the completion
	// time; sent as RFC 3339.
	CompletedAfter  time.Time `url:"completedAfter,omitempty"`
	CompletedBefore time.Time `url:"completedBefore,omitempty"`
}

// Validate checks the options before they are sent: Limit 0 or 1 to
// MaxPageSize, Offset at least 0, CompletedAfter not after CompletedBefore.
func (o *ListOptions) Validate() error {
	if o == nil {
		return nil
	}
	var ps []Problem
	if o.Limit < 0 || o.Limit > MaxPageSize {
		ps = append(ps, Problem{Field: "Limit", Message: fmt.Sprintf("must be 0 (the service's default) or 1 to %d, not %d", MaxPageSize, o.Limit)})
	}
	if o.Offset < 0 {
		ps = append(ps, Problem{Field: "Offset", Message: fmt.Sprintf("must be at least 0, not %d", o.Offset)})
	}
	if !o.CompletedAfter.IsZero() && !o.CompletedBefore.IsZero() && o.CompletedAfter.After(o.CompletedBefore) {
		ps = append(ps, Problem{Field: "CompletedAfter", Message: "is after CompletedBefore"})
	}
	return invalid("list options", ps...)
}

// Submission is one completed submission of a form. The case file it
// created is CaseFileID (wire name "casefileId").
type Submission struct {
	SubmissionID int64     `json:"submissionId"`
	CaseFileID   int64     `json:"casefileId"`
	FormVersion  int       `json:"formVersion,omitempty"`
	CompletedAt  time.Time `json:"completedAt"`
}

// page is one answer of the submissions list. The service wraps the items
// as {"items","limit","offset","total"}; a bare array is accepted too.
type page struct {
	Items    []Submission `json:"items"`
	Total    int          `json:"total"`
	hasTotal bool
}

func (p *page) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '[' {
		return json.Unmarshal(b, &p.Items)
	}
	var w struct {
		Items []Submission `json:"items"`
		Total *int         `json:"total"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	p.Items = w.Items
	if w.Total != nil {
		p.Total, p.hasTotal = *w.Total, true
	}
	return nil
}

// ListSubmissions returns one page of the form's completed submissions,
// ordered by SubmissionID ascending. Options outside their ranges are
// refused with a *ValidationError before sending; nil opts means the
// service's default page.
func (c *Client) ListSubmissions(ctx context.Context, externalID string, opts *ListOptions) ([]Submission, error) {
	p, err := c.listPage(ctx, externalID, opts)
	if err != nil {
		return nil, err
	}
	return p.Items, nil
}

func (c *Client) listPage(ctx context.Context, externalID string, opts *ListOptions) (*page, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	req := &transport.Request{
		Method: http.MethodGet, URL: c.url("forms", externalID, "submissions"),
		Auth: transport.Bearer,
	}
	if opts != nil {
		req.Query = opts
	}
	var p page
	if err := c.t().Do(ctx, req, &p); err != nil {
		return nil, fmt.Errorf("forms: list submissions of %s: %w", externalID, err)
	}
	return &p, nil
}

// AllSubmissions iterates over all completed submissions of the form in
// ascending order, reading pages of MaxPageSize from opts.Offset on. It
// works on a copy of opts (nil means from the start) and ignores
// opts.Limit. It stops after a short page, after the last page by the
// service's total, or at the first error, which it yields once (with a zero
// Submission) before stopping. Breaking out of the loop stops the requests.
// A submission seen on an earlier page is not yielded again; a full page
// with nothing new ends the iteration with an error rather than looping.
func (c *Client) AllSubmissions(ctx context.Context, externalID string, opts *ListOptions) iter.Seq2[Submission, error] {
	o := ListOptions{}
	if opts != nil {
		o = *opts
	}
	o.Limit = MaxPageSize
	return func(yield func(Submission, error) bool) {
		var last int64
		for {
			p, err := c.listPage(ctx, externalID, &o)
			if err != nil {
				yield(Submission{}, err)
				return
			}
			fresh := 0
			for _, s := range p.Items {
				if s.SubmissionID <= last && last != 0 {
					continue
				}
				fresh++
				last = s.SubmissionID
				if !yield(s, nil) {
					return
				}
			}
			o.Offset += len(p.Items)
			if len(p.Items) < o.Limit || (p.hasTotal && o.Offset >= p.Total) {
				return
			}
			if fresh == 0 {
				yield(Submission{}, fmt.Errorf("forms: list submissions of %s: page at offset %d repeats earlier submissions", externalID, o.Offset-len(p.Items)))
				return
			}
		}
	}
}
