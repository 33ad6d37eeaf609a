package mockserver

import (
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
)

// requestIDHeader names the id the platform gives every answer
// (docs/platform.md, "Errors and request ids").
const requestIDHeader = "X-Penneo-Request-Id"

// withRequestID gives every answer that passes next, whatever produced it
// (a service, a public page, the control API, an error, a 404, an injected
// fault), a fresh X-Penneo-Request-Id.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(requestIDHeader, ids.UUID())
		next.ServeHTTP(w, r)
	})
}
