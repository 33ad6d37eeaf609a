package casefiles

import (
	"context"
	"fmt"
	"time"
)

// listSlack is how much earlier than Job.SentAt a case file may say it was
// created and still count as the first job's: the platform's clock and
// ours differ a little.
const listSlack = time.Minute

// followFirst finds the first job of a duplicate that the SDK's own re-send of
// the create caused
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md, the Send
// create) and returns its result. dup is the aborted job's error, returned when
// the first job cannot be found for certain.
func (c *Client) followFirst(ctx context.Context, job *Job, dup *DuplicateError) (*Result, error) {
	if dup.FirstUUID != "" {
		first := &Job{UUID: dup.FirstUUID, PayloadHash: job.PayloadHash}
		res, err := c.wait(ctx, first)
		if err != nil {
			return nil, fmt.Errorf("casefiles: job %s was a re-send of job %s, which ended so: %w", job.UUID, dup.FirstUUID, err)
		}
		return res, nil
	}
	if job.Title == "" || job.SentAt.IsZero() {
		return nil, dup
	}
	items, err := c.List(ctx, &ListOptions{Title: job.Title, CreatedAfter: job.SentAt.Add(-listSlack)})
	if err != nil {
		return nil, fmt.Errorf("casefiles: job %s was a re-send; finding the first one's case file: %w (%w)", job.UUID, err, dup)
	}
	var found []Details
	for _, d := range items {
		if d.Title == job.Title && (d.Created.IsZero() || !d.Created.Before(job.SentAt.Add(-listSlack))) {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		return nil, dup
	}
	return &Result{CaseFileID: found[0].ID}, nil
}
