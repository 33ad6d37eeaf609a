package signkit_test

import (
	"errors"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
)

// TestErrorCarriesTheRequestID: an API error holds the answer's
// X-Penneo-Request-Id, on every service, and shows it in its text.
func TestErrorCarriesTheRequestID(t *testing.T) {
	s := mockserver.Start(t)
	c, err := signkit.NewClient(s.Config())
	require.NoError(t, err)
	ctx := t.Context()
	calls := map[string]func() error{
		"forms":    func() error { _, err := c.Forms.Get(ctx, "no-such-form"); return err },
		"sign":     func() error { _, err := c.CaseFiles.Get(ctx, 987654321); return err },
		"webhooks": func() error { _, err := c.Subscriptions.Get(ctx, "no-such-subscription"); return err },
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	for name, call := range calls {
		err := call()
		require.ErrorIs(t, err, signkit.ErrNotFound, name)
		var apiErr *signkit.Error
		require.True(t, errors.As(err, &apiErr), name)
		assert.Regexp(t, uuid, apiErr.RequestID, name)
		assert.Contains(t, err.Error(), apiErr.RequestID, name)
	}
}
