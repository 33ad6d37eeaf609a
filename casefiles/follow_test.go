package casefiles_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/casefiles"
)

// statusByUUID answers the queue status check from testdata files, by the
// job's uuid.
// The handler must not stop the test goroutine: it reports by answering.
func (e *env) statusByUUID(t *testing.T, files map[string]string) *recorder {
	var rec *recorder
	rec = e.handle(http.MethodPost, sendURL, statusPath, func(_ *http.Request, n int) (*http.Response, error) {
		var k struct{ UUID, PayloadHash string }
		if err := json.Unmarshal(rec.all()[n-1].Body, &k); err != nil {
			return nil, err
		}
		name, ok := files[k.UUID]
		if !ok {
			return jsonResponse(404, `{"message":"Job not found","statusCode":404}`), nil
		}
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			return nil, err
		}
		return jsonResponse(200, string(b)), nil
	})
	return rec
}

const (
	abortedUUID = "7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f" // queue_aborted_duplicated*.json
	firstUUID   = "0f8e7a52-3c1b-4d2e-9a6f-5b4c3d2e1f00" // queue_completed.json; named by queue_aborted_duplicated.json
	hash        = "5d41402abc4b2a76b9719d911017c592ae7e8d8f6f2e1c7b3a9d0e4f5a6b7c8d"
)

// TestWaitFollowsTheFirstJobAfterTheSDKsReSend: a job aborted as a
// duplicate of the SDK's own first copy gives the first job's result.
func TestWaitFollowsTheFirstJobAfterTheSDKsReSend(t *testing.T) {
	e := newEnv(t)
	rec := e.statusByUUID(t, map[string]string{abortedUUID: "queue_aborted_duplicated.json", firstUUID: "queue_completed.json"})
	res, err := e.Client.CaseFiles.Wait(ctx(t), &casefiles.Job{UUID: abortedUUID, PayloadHash: hash, Resent: true})
	require.NoError(t, err)
	assert.Equal(t, int64(4711), res.CaseFileID)
	assert.Len(t, res.SigningLinks, 2)
	assert.Equal(t, 2, rec.count(), "the aborted job, then the first")
}

// TestWaitFindsTheFirstCaseFileByList: when the platform's message names
// no job, the one case file with the job's title created since it was
// sent is the answer; none or two give the *DuplicateError.
func TestWaitFindsTheFirstCaseFileByList(t *testing.T) {
	sentAt := time.Now().Add(-time.Minute).Truncate(time.Second)
	item := func(id int64, title string, created time.Time) string {
		return fmt.Sprintf(`{"id":%d,"title":%q,"status":1,"created":%d}`, id, title, created.Unix())
	}
	tests := []struct {
		name  string
		items []string
		want  int64 // 0: the duplicate error
	}{
		{"one match", []string{item(55, "Lease", sentAt.Add(time.Second)), item(54, "Lease 2", sentAt)}, 55},
		{"none", []string{item(54, "Other", sentAt)}, 0},
		{"two", []string{item(55, "Lease", sentAt), item(56, "Lease", sentAt.Add(time.Second))}, 0},
		{"older than the send", []string{item(55, "Lease", sentAt.Add(-time.Hour))}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.statusByUUID(t, map[string]string{abortedUUID: "queue_aborted_duplicated_nouuid.json"})
			list := e.handle(http.MethodGet, signURL, `/api/v1/casefiles\?.*`, func(r *http.Request, _ int) (*http.Response, error) {
				assert.Equal(t, "Lease", r.URL.Query().Get("title"))
				return jsonResponse(200, "["+join(tt.items)+"]"), nil
			})
			job := &casefiles.Job{UUID: abortedUUID, PayloadHash: hash, Resent: true, Title: "Lease", SentAt: sentAt}
			res, err := e.Client.CaseFiles.Wait(ctx(t), job)
			assert.Equal(t, 1, list.count())
			if tt.want == 0 {
				assert.ErrorIs(t, err, casefiles.ErrDuplicate)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.CaseFileID)
		})
	}
}

// TestWaitDoesNotFollowAHandMadeDuplicate: a job the caller sent twice
// (not Resent) gives ErrDuplicate naming the first job, and nothing more
// is asked.
func TestWaitDoesNotFollowAHandMadeDuplicate(t *testing.T) {
	e := newEnv(t)
	rec := e.statusByUUID(t, map[string]string{abortedUUID: "queue_aborted_duplicated.json", firstUUID: "queue_completed.json"})
	_, err := e.Client.CaseFiles.Wait(ctx(t), &casefiles.Job{UUID: abortedUUID, PayloadHash: hash})
	var dup *casefiles.DuplicateError
	require.True(t, errors.As(err, &dup), "%v", err)
	assert.Equal(t, firstUUID, dup.FirstUUID)
	assert.Equal(t, 1, rec.count())
}

// TestJobJSONKeepsTheReSendFacts: a stored job still knows it was re-sent,
// and the status check sends only uuid and payloadHash.
func TestJobJSONKeepsTheReSendFacts(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b, err := json.Marshal(casefiles.Job{UUID: "u", PayloadHash: "h", Resent: true, Title: "T", SentAt: at})
	require.NoError(t, err)
	var back casefiles.Job
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, casefiles.Job{UUID: "u", PayloadHash: "h", Resent: true, Title: "T", SentAt: at}, back)
	b, _ = json.Marshal(casefiles.Job{UUID: "u", PayloadHash: "h"})
	assert.JSONEq(t, `{"uuid":"u","payloadHash":"h"}`, string(b))

	e := newEnv(t)
	rec := e.reply(http.MethodPost, sendURL, statusPath, 200, `{"jobStatus":"pending"}`)
	_, err = e.Client.CaseFiles.Status(ctx(t), &back)
	require.NoError(t, err)
	assert.JSONEq(t, `{"uuid":"u","payloadHash":"h"}`, string(rec.last().Body))
}

func join(items []string) string {
	out := ""
	for i, s := range items {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
