package send_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// retentionCase is a small case file whose title makes its payload unique.
func retentionCase(title string) (*casefiles.CaseFile, casefiles.Upload) {
	return &casefiles.CaseFile{Title: title, Signers: []casefiles.Signer{{Name: "Ada"}},
			Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}},
		casefiles.BytesUpload("a.pdf", mockserver.SamplePDF(title))
}

// With WithJobRetention, a finished job answers its status checks until
// the retention has passed on the mock's clock, then the platform's 404:
// Status and Wait return an error matching signkit.ErrNotFound that says
// the job may have expired. The case file stays.
func TestJobRetentionExpiresFinishedJobs(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch), mockserver.WithJobRetention(time.Hour))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	cf, up := retentionCase("Retained")
	job, err := client.CaseFiles.Create(ctx, cf, up)
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		t.Fatal(err)
	}

	srv.Advance(time.Hour - time.Second)
	if st, err := client.CaseFiles.Status(ctx, job); err != nil || st.State != casefiles.JobCompleted {
		t.Fatalf("a second before the retention ends: %+v, %v", st, err)
	}

	srv.Advance(time.Second)
	_, err = client.CaseFiles.Status(ctx, job)
	if !errors.Is(err, signkit.ErrNotFound) {
		t.Fatalf("Status after the retention: %v, want ErrNotFound", err)
	}
	var apiErr *signkit.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Message != "Job not found" {
		t.Errorf("Status after the retention: %#v, want the platform's 404 Job not found", apiErr)
	}
	if !containsAll(err.Error(), "expired", "deleted") {
		t.Errorf("the error does not say the job may have expired or been deleted: %v", err)
	}
	if _, err := client.CaseFiles.Wait(ctx, job); !errors.Is(err, signkit.ErrNotFound) || !containsAll(err.Error(), "expired") {
		t.Errorf("Wait after the retention: %v, want ErrNotFound saying the job may have expired", err)
	}
	if _, err := client.CaseFiles.Get(ctx, res.CaseFileID); err != nil {
		t.Errorf("the job's case file after the retention: %v", err)
	}
}

// Retention counts from the job's end: a job still pending past the
// retention is kept. Without WithJobRetention jobs are kept for good.
func TestJobRetentionSparesPendingJobsAndIsOffByDefault(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []mockserver.Option
	}{
		{"pending past the retention", []mockserver.Option{mockserver.WithJobRetention(time.Minute), mockserver.WithJobDelay(time.Hour)}},
		{"no retention", []mockserver.Option{mockserver.WithJobDelay(time.Hour)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mockserver.Start(t, append([]mockserver.Option{mockserver.WithManualClock(testkit.Epoch)}, tc.opts...)...)
			client, err := signkit.NewClient(srv.Config())
			if err != nil {
				t.Fatal(err)
			}
			cf, up := retentionCase("Pending")
			job, err := client.CaseFiles.Create(t.Context(), cf, up)
			if err != nil {
				t.Fatal(err)
			}
			srv.Advance(30 * time.Minute)
			if st, err := client.CaseFiles.Status(t.Context(), job); err != nil || st.State != casefiles.JobPending {
				t.Fatalf("pending job after 30 min: %+v, %v", st, err)
			}
			srv.Advance(30 * time.Minute) // the job runs now
			if st, err := client.CaseFiles.Status(t.Context(), job); err != nil || st.State != casefiles.JobCompleted {
				t.Fatalf("the job as it ends: %+v, %v", st, err)
			}
			srv.Advance(24 * time.Hour)
			_, err = client.CaseFiles.Status(t.Context(), job)
			if expired := errors.Is(err, signkit.ErrNotFound); expired != (len(tc.opts) == 2) {
				t.Errorf("a day after the job ended: %v", err)
			}
		})
	}
}

// Duplicate detection does not depend on retention: the same payload sent
// again within 24 h of the first job is still a duplicate after that job
// has expired, and the aborted duplicate names the expired job.
func TestJobRetentionKeepsTheDuplicateWindow(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch), mockserver.WithJobRetention(time.Hour))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	cf, up := retentionCase("Twice")
	first, err := client.CaseFiles.Create(t.Context(), cf, up)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CaseFiles.Wait(t.Context(), first); err != nil {
		t.Fatal(err)
	}
	srv.Advance(2 * time.Hour)
	if _, err := client.CaseFiles.Status(t.Context(), first); !errors.Is(err, signkit.ErrNotFound) {
		t.Fatalf("the first job two hours on: %v, want expired", err)
	}
	again, err := client.CaseFiles.Create(t.Context(), cf, up)
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.CaseFiles.Wait(t.Context(), again)
	var dup *casefiles.DuplicateError
	if !errors.As(err, &dup) || dup.FirstUUID != first.UUID {
		t.Fatalf("the same payload within 24 h: %v, want a duplicate of %s", err, first.UUID)
	}
}

// An expired job gives its place among the customer's jobs back
// (Limits.Jobs).
func TestJobRetentionFreesTheJobPlace(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch), mockserver.WithJobRetention(time.Minute),
		mockserver.WithLimits(mockserver.Limits{Jobs: 1}))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	cf, up := retentionCase("One")
	job, err := client.CaseFiles.Create(t.Context(), cf, up)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CaseFiles.Wait(t.Context(), job); err != nil {
		t.Fatal(err)
	}
	cf2, up2 := retentionCase("Two")
	var apiErr *signkit.Error
	if _, err := client.CaseFiles.Create(t.Context(), cf2, up2); !errors.As(err, &apiErr) || apiErr.StatusCode != 507 {
		t.Fatalf("a second job within the limit of 1: %v, want the limit's 507", err)
	}
	srv.Advance(time.Minute)
	if _, err := client.CaseFiles.Create(t.Context(), cf2, up2); err != nil {
		t.Fatalf("a second job once the first expired: %v", err)
	}
}

// containsAll reports whether s contains every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
