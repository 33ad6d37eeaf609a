package casefiles_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
)

// These tests need the mock's fault injection (POST /mock/faults).

// A create answered 500 after it took effect is not re-sent: exactly one
// case file exists.
func TestIntegration500AfterEffect(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithManualClock(time.Now()))
	control(t, srv, "/mock/faults", map[string]any{
		"method": "POST", "path": "/send/api/v1/casefiles/20251022/create", "status": 500, "phase": "after", "times": 1,
	})
	cf, uploads := threeDocuments(t)
	_, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
	var apiErr *signkit.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 500, apiErr.StatusCode)
	assert.Equal(t, 1, createRequests(t, srv), "not re-sent")
	assert.Equal(t, 1, caseFilesExist(t, srv, client))
}

// A create answered 503 before it took effect is re-sent (with the whole
// upload) and creates exactly one case file.
func TestIntegration503BeforeEffect(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithManualClock(time.Now()))
	control(t, srv, "/mock/faults", map[string]any{
		"method": "POST", "path": "/send/api/v1/casefiles/20251022/create", "status": 503, "phase": "before", "times": 1,
	})
	cf, uploads := threeDocuments(t)
	job, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	assert.Equal(t, 2, createRequests(t, srv), "re-sent once")
	assert.Equal(t, 1, caseFilesExist(t, srv, client))
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)
	assert.Equal(t, int64(1), res.CaseFileID)
}
