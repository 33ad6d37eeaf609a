package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/apierror"
)

// listProvider is an auth.TokenProvider of a user's: it answers its tokens
// in order (the last one again once they run out) and records the calls.
type listProvider struct {
	mu          sync.Mutex
	tokens      []string
	err         error
	calls       int
	invalidated []auth.Token
}

func (p *listProvider) Token(context.Context) (auth.Token, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	if p.err != nil {
		return auth.Token{}, p.err
	}
	i := min(p.calls, len(p.tokens)) - 1
	return auth.Token{AccessToken: p.tokens[i]}, nil
}

func (p *listProvider) Invalidate(stale auth.Token) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.invalidated = append(p.invalidated, stale)
}

// TestProviderTokenPlacementAndReplay: a provider other than
// *auth.TokenSource gets the same treatment: its token placed per service,
// Invalidate with the refused token, one more Token call and one replay.
func TestProviderTokenPlacementAndReplay(t *testing.T) {
	tests := []struct {
		name        string
		style       AuthStyle
		refuse      int // how many first requests the service refuses with a 401
		wantStatus  int
		wantCalls   int
		wantInval   []string
		wantHeaders []string // the token header of each request, in order
	}{
		{"bearer", Bearer, 0, 200, 1, nil, []string{"Bearer good-1"}},
		{"x-auth-token", XAuthToken, 0, 200, 1, nil, []string{"X good-1"}},
		{"no auth asks nothing", NoAuth, 0, 200, 0, nil, []string{""}},
		{"401 then replay", Bearer, 1, 200, 2, []string{"good-1"}, []string{"Bearer good-1", "Bearer good-2"}},
		{"401 twice", XAuthToken, 2, 401, 2, []string{"good-1"}, []string{"X good-1", "X good-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			var mu sync.Mutex
			var headers []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h := r.Header.Get("Authorization")
				if x := r.Header.Get("X-Auth-Token"); x != "" {
					h = "X " + x
				}
				mu.Lock()
				headers = append(headers, h)
				mu.Unlock()
				if int(n.Add(1)) <= tt.refuse {
					w.WriteHeader(http.StatusUnauthorized)
					fmt.Fprint(w, `{"statusCode":401,"error":"unauthorized","message":"token expired"}`)
					return
				}
				fmt.Fprint(w, `{}`)
			}))
			defer srv.Close()
			p := &listProvider{tokens: []string{"good-1", "good-2"}}
			c := New(Config{Tokens: p})
			err := c.Do(context.Background(), &Request{Method: http.MethodGet, URL: srv.URL + "/api/x", Auth: tt.style}, nil)
			if tt.wantStatus == 200 {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, apierror.ErrUnauthorized)
			}
			assert.Equal(t, tt.wantCalls, p.calls, "Token calls")
			var inval []string
			for _, tok := range p.invalidated {
				inval = append(inval, tok.AccessToken)
			}
			assert.Equal(t, tt.wantInval, inval, "Invalidate calls")
			assert.Equal(t, tt.wantHeaders, headers)
		})
	}
}

// TestProviderFailuresSendNothing: a provider's error is the call's error,
// and an empty token is refused; neither sends a request.
func TestProviderFailuresSendNothing(t *testing.T) {
	errBroken := errors.New("refresh token revoked")
	tests := []struct {
		name string
		p    *listProvider
		want error
	}{
		{"error", &listProvider{err: errBroken}, errBroken},
		{"empty token", &listProvider{tokens: []string{""}}, errEmptyToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
			defer srv.Close()
			c := New(Config{Tokens: tt.p})
			err := c.Do(context.Background(), &Request{Method: http.MethodGet, URL: srv.URL + "/api/x", Auth: Bearer}, nil)
			require.ErrorIs(t, err, tt.want)
			assert.Zero(t, n.Load(), "no request sent")
			assert.Equal(t, 1, tt.p.calls)
			assert.Empty(t, tt.p.invalidated)
		})
	}
}
