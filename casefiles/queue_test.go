package casefiles_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

const (
	pendingJSON    = `{"uuid":"u-1","type":"casefile_creation","jobStatus":"pending","result":null,"errorMessage":null}`
	processingJSON = `{"uuid":"u-1","type":"casefile_creation","jobStatus":"processing"}`
	failedJSON     = `{"uuid":"u-1","type":"casefile_creation","jobStatus":"failed","errorMessage":"document terms.pdf is not a PDF"}`
)

func TestStatus(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		body string
		want *casefiles.JobStatus
	}{
		"pending":    {pendingJSON, &casefiles.JobStatus{State: casefiles.JobPending, UUID: "u-1", Type: "casefile_creation"}},
		"processing": {processingJSON, &casefiles.JobStatus{State: casefiles.JobProcessing, UUID: "u-1", Type: "casefile_creation"}},
		"failed": {failedJSON, &casefiles.JobStatus{State: casefiles.JobFailed, UUID: "u-1", Type: "casefile_creation",
			ErrorMessage: "document terms.pdf is not a PDF"}},
		"completed": {completedJSON, &casefiles.JobStatus{State: casefiles.JobCompleted, UUID: "u-1", Type: "casefile_creation", Result: &casefiles.Result{
			CaseFileID:   42,
			SigningLinks: []casefiles.SigningLink{{Name: "Ada", Role: "employee", Email: "ada@example.com", URL: "https://sign.test/s/1"}},
		}}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.reply(http.MethodPost, sendURL, statusPath, 200, tc.body)
			got, err := e.Client.CaseFiles.Status(ctx(t), job)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			r := rec.last()
			assert.JSONEq(t, `{"uuid":"u-1","payloadHash":"abc123"}`, string(r.Body))
			assert.Equal(t, "application/json", r.ContentType)
			assert.Empty(t, r.Auth+r.XAuthToken, "the status check sends no token")
		})
	}
}

// The queue bodies of every state, in the vendor's documented shape
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// Queue status), decode whole.
func TestDecodeQueueFixtures(t *testing.T) {
	t.Parallel()
	const (
		first = "0f8e7a52-3c1b-4d2e-9a6f-5b4c3d2e1f00"
		dup   = "7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f"
		hash  = "5d41402abc4b2a76b9719d911017c592ae7e8d8f6f2e1c7b3a9d0e4f5a6b7c8d"
	)
	at := func(s string) time.Time { tm, err := time.Parse(time.RFC3339, s); require.NoError(t, err); return tm }
	base := func(uuid string, state casefiles.JobState, retries int, created, updated string) casefiles.JobStatus {
		return casefiles.JobStatus{State: state, UUID: uuid, PayloadHash: hash, Type: "casefile_creation",
			Retries: retries, MaxRetries: 3, CreatedAt: at(created), UpdatedAt: at(updated)}
	}
	for _, tc := range []struct {
		file string
		want casefiles.JobStatus
		edit func(*casefiles.JobStatus)
	}{
		{"queue_pending.json", base(first, casefiles.JobPending, 0, "2026-01-01T10:00:00Z", "2026-01-01T10:00:00Z"), nil},
		{"queue_processing.json", base(first, casefiles.JobProcessing, 0, "2026-01-01T10:00:00Z", "2026-01-01T10:00:01Z"), nil},
		{"queue_completed.json", base(first, casefiles.JobCompleted, 0, "2026-01-01T10:00:00Z", "2026-01-01T10:00:02Z"), func(s *casefiles.JobStatus) {
			s.Result = &casefiles.Result{CaseFileID: 4711, SigningLinks: []casefiles.SigningLink{
				{Name: "Lena Landlord", Role: "landlord", Email: "lena@example.com", URL: "https://app.penneo.com/signing/abc"},
				{Name: "Tom Tenant", Role: "tenant", Email: "tom@example.com", URL: "https://app.penneo.com/signing/def"},
			}}
		}},
		{"queue_failed.json", base(first, casefiles.JobFailed, 3, "2026-01-01T10:00:00Z", "2026-01-01T10:00:09Z"), func(s *casefiles.JobStatus) {
			s.ErrorMessage = "Document lease.pdf is not a valid PDF"
		}},
		{"queue_aborted_duplicated.json", base(dup, casefiles.JobAbortedDuplicated, 0, "2026-01-01T10:05:00Z", "2026-01-01T10:05:01Z"), func(s *casefiles.JobStatus) {
			s.ErrorMessage = "Duplicate payload: job " + first + " was already accepted with the same payloadHash"
		}},
		{"queue_aborted_duplicated_nouuid.json", base(dup, casefiles.JobAbortedDuplicated, 0, "2026-01-01T10:05:00Z", "2026-01-01T10:05:01Z"), func(s *casefiles.JobStatus) {
			s.ErrorMessage = "Duplicate job"
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.reply(http.MethodPost, sendURL, statusPath, 200, fixture(t, tc.file))
			got, err := e.Client.CaseFiles.Status(ctx(t), job)
			require.NoError(t, err)
			require.NotEmpty(t, got.Payload)
			var payload map[string]any
			require.NoError(t, json.Unmarshal(got.Payload, &payload), "the payload is kept raw")
			assert.Contains(t, payload, "uuid")
			got.Payload = nil
			want := tc.want
			if tc.edit != nil {
				tc.edit(&want)
			}
			assert.Equal(t, want, *got)
		})
	}
}

func TestStatusUnknownJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodPost, sendURL, statusPath, 404, `{"message":"Job not found","statusCode":404}`)
	_, err := e.Client.CaseFiles.Status(ctx(t), job)
	require.ErrorIs(t, err, signkit.ErrNotFound)
	var apiErr *signkit.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "Job not found", apiErr.Message)
}

// sequence answers the status check with bodies in turn, repeating the last.
func sequence(bodies ...string) func(*http.Request, int) (*http.Response, error) {
	return func(_ *http.Request, n int) (*http.Response, error) {
		return jsonResponse(200, bodies[min(n, len(bodies))-1]), nil
	}
}

func TestWaitCompletes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		rec := e.handle(http.MethodPost, sendURL, statusPath, sequence(pendingJSON, processingJSON, processingJSON, completedJSON))
		start := time.Now()
		res, err := e.Client.CaseFiles.Wait(t.Context(), job)
		require.NoError(t, err)
		assert.Equal(t, int64(42), res.CaseFileID)
		assert.Equal(t, "https://sign.test/s/1", res.SigningLinks[0].URL)
		assert.Equal(t, 4, rec.count())
		// at once, then about 1 s, 1.5 s, 2.25 s later (±20 %)
		assert.InDelta(t, 4.75, time.Since(start).Seconds(), 0.95)
	})
}

func TestWaitFailedJob(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.handle(http.MethodPost, sendURL, statusPath, sequence(pendingJSON, failedJSON))
		_, err := e.Client.CaseFiles.Wait(t.Context(), job)
		var failed *casefiles.JobFailedError
		require.ErrorAs(t, err, &failed)
		assert.Equal(t, casefiles.JobFailedError{Job: *job, Message: "document terms.pdf is not a PDF"}, *failed)
		assert.EqualError(t, err, "casefiles: job u-1 failed: document terms.pdf is not a PDF")
	})
}

// Wait ends on aborted_duplicated with a *DuplicateError that matches
// ErrDuplicate and names the first job when the message does.
func TestWaitDuplicate(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		file, first string
	}{
		"names the first job": {"queue_aborted_duplicated.json", "0f8e7a52-3c1b-4d2e-9a6f-5b4c3d2e1f00"},
		"names none":          {"queue_aborted_duplicated_nouuid.json", ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t)
				rec := e.handle(http.MethodPost, sendURL, statusPath, sequence(pendingJSON, fixture(t, tc.file)))
				dupJob := &casefiles.Job{UUID: "7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f", PayloadHash: "abc123"}
				res, err := e.Client.CaseFiles.Wait(t.Context(), dupJob)
				assert.Nil(t, res)
				require.ErrorIs(t, err, casefiles.ErrDuplicate)
				assert.NotErrorIs(t, err, signkit.ErrValidation)
				var dupErr *casefiles.DuplicateError
				require.ErrorAs(t, err, &dupErr)
				assert.Equal(t, *dupJob, dupErr.Job)
				assert.Equal(t, tc.first, dupErr.FirstUUID)
				assert.Contains(t, err.Error(), "aborted as a duplicate")
				assert.Contains(t, err.Error(), dupJob.UUID)
				if tc.first != "" {
					assert.Contains(t, err.Error(), "as job "+tc.first)
				}
				assert.Equal(t, 2, rec.count(), "Wait stops at the aborted state")
			})
		})
	}
}

// FirstUUID is the first UUID of the message other than the job's own.
func TestDuplicateErrorFirstUUID(t *testing.T) {
	t.Parallel()
	const self = "11111111-1111-4111-8111-111111111111"
	for _, tc := range []struct{ msg, want string }{
		{"", ""},
		{"duplicate of job 22222222-2222-4222-8222-222222222222", "22222222-2222-4222-8222-222222222222"},
		{"job " + self + " duplicates AAAAAAAA-bbbb-4ccc-8ddd-eeeeeeeeeeee", "AAAAAAAA-bbbb-4ccc-8ddd-eeeeeeeeeeee"},
		{"job " + self + " is a duplicate", ""},
		{"duplicate of job 2222-not-a-uuid", ""},
	} {
		e := newEnv(t)
		body, err := json.Marshal(map[string]any{"uuid": self, "jobStatus": "aborted_duplicated", "errorMessage": tc.msg})
		require.NoError(t, err)
		e.reply(http.MethodPost, sendURL, statusPath, 200, string(body))
		_, err = e.Client.CaseFiles.Wait(ctx(t), &casefiles.Job{UUID: self, PayloadHash: "h"})
		var dupErr *casefiles.DuplicateError
		require.ErrorAs(t, err, &dupErr, tc.msg)
		assert.Equal(t, tc.want, dupErr.FirstUUID, tc.msg)
		assert.Equal(t, tc.msg, dupErr.Message)
	}
}

func TestWaitCompletedWithoutResult(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodPost, sendURL, statusPath, 200, `{"uuid":"u-1","jobStatus":"completed"}`)
	_, err := e.Client.CaseFiles.Wait(ctx(t), job)
	require.ErrorContains(t, err, "completed without a result")
}

// Transient failures of single checks do not end Wait; a run of them does.
func TestWaitToleratesTransientFailures(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		rec := e.handle(http.MethodPost, sendURL, statusPath, func(_ *http.Request, n int) (*http.Response, error) {
			switch n {
			case 1, 3, 4:
				return jsonResponse(502, `{"statusCode":502,"error":"bad_gateway"}`), nil
			case 2:
				return jsonResponse(200, pendingJSON), nil
			case 5:
				return nil, errors.New("connection reset")
			}
			return jsonResponse(200, completedJSON), nil
		})
		res, err := e.Client.CaseFiles.Wait(t.Context(), job)
		require.NoError(t, err)
		assert.Equal(t, int64(42), res.CaseFileID)
		assert.Equal(t, 6, rec.count())
	})
}

func TestWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.reply(http.MethodPost, sendURL, statusPath, 200, pendingJSON)
		cctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		start := time.Now()
		_, err := e.Client.CaseFiles.Wait(cctx, job)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 30*time.Second, time.Since(start), "Wait returns as soon as ctx ends")
	})
}

// Over an hour of fake time, a job that never finishes is polled fewer
// than 20 times in every minute (any 60 s window), and not much less
// often than every 10 s once the backoff is capped.
func TestWaitRateBound(t *testing.T) {
	t.Parallel()
	for run := range 5 { // the jitter is random: several runs
		t.Run(fmt.Sprint(run), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t)
				rec := e.reply(http.MethodPost, sendURL, statusPath, 200, processingJSON)
				cctx, cancel := context.WithTimeout(t.Context(), time.Hour)
				defer cancel()
				start := time.Now()
				_, err := e.Client.CaseFiles.Wait(cctx, job)
				require.ErrorIs(t, err, context.DeadlineExceeded)
				reqs := rec.all()
				assert.Equal(t, start, reqs[0].At, "the first check is immediate")
				maxInWindow := 0
				for i := range reqs {
					n := 0
					for j := i; j < len(reqs) && reqs[j].At.Sub(reqs[i].At) < time.Minute; j++ {
						n++
					}
					maxInWindow = max(maxInWindow, n)
				}
				t.Logf("%d checks in an hour, at most %d in a minute", len(reqs), maxInWindow)
				assert.Less(t, maxInWindow, 20, "requests in any minute")
				assert.LessOrEqual(t, maxInWindow, 12)
				assert.Greater(t, len(reqs), 300, "capped at 10 s ±20 %: at least one check per 12 s")
				for i := 1; i < len(reqs); i++ {
					assert.LessOrEqual(t, reqs[i].At.Sub(reqs[i-1].At), 12*time.Second)
				}
			})
		})
	}
}

func TestJobJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(job)
	require.NoError(t, err)
	assert.JSONEq(t, `{"uuid":"u-1","payloadHash":"abc123"}`, string(b))
}
