package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/apierror"
)

// invalidJWT is the Send service's answer to a token it cannot parse (see
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
const invalidJWT = `{"error":"Bad Request","message":"Invalid JWT token: Invalid token format","statusCode":400}`

// TestSendInvalidJWTIsATokenFailure: a 400 "Invalid JWT token" is handled
// like a 401 (renew once, replay), a second one is ErrUnauthorized and not
// ErrValidation, and any other 400 is returned as it is.
func TestSendInvalidJWTIsATokenFailure(t *testing.T) {
	tests := []struct {
		name          string
		style         AuthStyle
		answers       []string // body of each 400, in order; then 200
		wantErr       error
		notErr        error
		wantAPICalls  int32
		wantTokenReqs int32
	}{
		{"renewed and replayed", XAuthToken, []string{invalidJWT}, nil, nil, 2, 2},
		{"refused twice", XAuthToken, []string{invalidJWT, invalidJWT}, apierror.ErrUnauthorized, apierror.ErrValidation, 2, 2},
		{"other 400 is not replayed", XAuthToken, []string{`{"statusCode":400,"error":"bad_request","message":"malformed JSON"}`},
			apierror.ErrValidation, apierror.ErrUnauthorized, 1, 1},
		{"bearer service too", Bearer, []string{invalidJWT}, nil, nil, 2, 2},
		{"no token, no replay", NoAuth, []string{invalidJWT}, apierror.ErrUnauthorized, apierror.ErrValidation, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tokenReqs, apiCalls atomic.Int32
			var bodies, tokens []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/auth/oauth/token" {
					fmt.Fprintf(w, `{"access_token":"tok-%d","expires_in":600}`, tokenReqs.Add(1))
					return
				}
				n := int(apiCalls.Add(1))
				b, _ := io.ReadAll(r.Body)
				bodies = append(bodies, string(b))
				tokens = append(tokens, r.Header.Get("X-Auth-Token")+r.Header.Get("Authorization"))
				if n <= len(tt.answers) {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusBadRequest)
					fmt.Fprint(w, tt.answers[n-1])
					return
				}
				fmt.Fprint(w, `{"uuid":"u-1"}`)
			}))
			defer srv.Close()
			c := New(Config{Tokens: auth.NewTokenSource(srv.URL+"/auth", creds)})
			var out struct{ UUID string }
			err := c.Do(context.Background(), &Request{Method: "POST", URL: srv.URL + "/send/api/x", Auth: tt.style,
				JSON: map[string]string{"title": "t"}}, &out)
			assert.Equal(t, tt.wantAPICalls, apiCalls.Load(), "requests to the service")
			assert.Equal(t, tt.wantTokenReqs, tokenReqs.Load(), "token requests")
			for _, b := range bodies {
				assert.JSONEq(t, `{"title":"t"}`, b, "every attempt carries the body")
			}
			if tt.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, "u-1", out.UUID)
				assert.True(t, strings.HasSuffix(tokens[len(tokens)-1], "tok-2"), "the replay carries the new token: %q", tokens)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			assert.False(t, errors.Is(err, tt.notErr), "%v must not match %v", err, tt.notErr)
			var apiErr *apierror.Error
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		})
	}
}
