package signkit

import (
	"log/slog"
	"net/http"

	"github.com/signkit/signkit-go/auth"
)

// Config configures a Client. Endpoints and Credentials are required; the
// rest is optional.
type Config struct {
	// Endpoints are the service base URLs: Sandbox, Production, or
	// LocalEndpoints(mockURL).
	Endpoints Endpoints
	// Credentials of the account (OAuth client and API key).
	Credentials auth.Credentials
	// HTTPClient is the base client whose Transport, Timeout and Jar are
	// used. Nil means a client with a 60-second timeout.
	HTTPClient *http.Client
	// UserAgent is prepended to the SDK's own User-Agent.
	UserAgent string
	// Logger receives one Debug line per request and per retry. Nil logs nothing.
	Logger *slog.Logger
	// MaxRetries bounds the retries of one request: 0 means the default (4),
	// a negative value means none.
	MaxRetries int
}
