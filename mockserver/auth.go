package mockserver

import (
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/accounts"
)

// placementOf answers where a service takes its access token
// (docs/platform.md, "Authentication").
func placementOf(svc service) accounts.Placement {
	switch svc {
	case svcSend:
		return accounts.AuthTokenOnly
	case svcWebhook:
		return accounts.BearerJWTOrAuthToken
	}
	return accounts.BearerOrAuthToken
}

// authenticate answers the user of the request's token where svc takes it,
// or the error to answer.
func (s *Server) authenticate(r *http.Request, svc service) (*user, error) {
	return s.accounts.Authenticate(r, placementOf(svc))
}

// userFrom answers the authenticated caller of a token-protected route.
func userFrom(r *http.Request) *user { return accounts.From(r.Context()) }
