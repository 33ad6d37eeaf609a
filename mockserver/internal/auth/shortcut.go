package auth

import (
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// HandleMockToken is POST /mock/token, a shortcut of the mock's control API
// that the platform does not have: it answers a token of a user without the API
// Keys Grant (no nonce, created_at or digest), so that a test suite in another
// language can start calling the services at once. The body is empty or
// {"userId": n} (default: the default admin user); the answer has the shape of
// the token endpoint's. Tests that exercise the real grant use POST
// {Auth}/oauth/token
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
func (svc *Service) HandleMockToken(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		UserID int64 `json:"userId"`
	}
	if r.ContentLength != 0 {
		if err := wire.DecodeBody(w, r, svc.cfg.MaxBodyBytes, &body); err != nil {
			return err
		}
	}
	if body.UserID == 0 {
		body.UserID = svc.cfg.Admin.ID
	}
	u := svc.ByID(body.UserID)
	if u == nil {
		var p wire.Problems
		p.Add("userId", "no user %d", body.UserID)
		return p.Err()
	}
	tok, exp := svc.tokens.issue(u.ID, svc.cfg.Clock.Now(), time.Now())
	w.Header().Set("Cache-Control", "no-store")
	wire.WriteJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer",
		"expires_in": int(tokenLifetime / time.Second), "access_token_expires_at": exp.Unix(),
		"mock_only": "this shortcut is not on the platform: there, use the API Keys Grant at {Auth}/oauth/token"})
	return nil
}
