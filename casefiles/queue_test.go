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
		"pending":    {pendingJSON, &casefiles.JobStatus{State: casefiles.JobPending}},
		"processing": {processingJSON, &casefiles.JobStatus{State: casefiles.JobProcessing}},
		"failed":     {failedJSON, &casefiles.JobStatus{State: casefiles.JobFailed, ErrorMessage: "document terms.pdf is not a PDF"}},
		"completed": {completedJSON, &casefiles.JobStatus{State: casefiles.JobCompleted, Result: &casefiles.Result{
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
