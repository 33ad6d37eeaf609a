package signkit

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/auth"
)

// Config configures a Client. Endpoints are required, and either
// Credentials or TokenSource; the rest is optional.
//
// No timeout bounds a whole request: an upload of any size succeeds as long
// as it keeps moving. Each attempt is bounded in phases (dial, TLS
// handshake, wait for the answer's headers, and the progress of the request
// and answer bodies), and the context of each call is the caller's overall
// deadline. For every timeout, zero means its default and a negative value
// means no bound.
type Config struct {
	// Endpoints are the service base URLs: Sandbox, Production, or
	// LocalEndpoints(mockURL).
	Endpoints Endpoints
	// Credentials of the account (OAuth client and API key): the client
	// obtains its tokens with the API Keys Grant (an *auth.TokenSource).
	// Leave them empty when TokenSource is set.
	Credentials auth.Credentials
	// TokenSource, when set, is where the client takes its access tokens
	// instead of the API Keys Grant: any auth.TokenProvider, such as an
	// adapter of the OAuth authorization code grant with refresh tokens
	// (see examples/oauth2-authcode). The client places each token the way
	// each service expects and, when the platform refuses one, calls
	// Invalidate with it and Token once more before replaying the request.
	// Set Credentials or TokenSource, not both. The token requests of a
	// TokenSource are its own: HTTPClient, the timeouts, MaxRetries and
	// Logger do not reach them. Printing a Config or a Client shows only
	// the TokenSource's type, and logging one its type or what its own
	// slog.LogValuer answers, never its fields.
	TokenSource auth.TokenProvider
	// HTTPClient is the base client whose Transport, Timeout, Jar and
	// CheckRedirect are used as given (credentials are still dropped on a
	// redirect that leaves the endpoint's scheme, host or port). Nil means
	// a client without a whole-request timeout whose transport (the
	// settings of http.DefaultTransport) applies DialTimeout,
	// TLSHandshakeTimeout and ResponseHeaderTimeout; with a client of your
	// own, set those on its Transport instead: the three fields are then
	// ignored. UploadProgressTimeout and DownloadProgressTimeout hold with
	// any client, since the SDK enforces them on the bodies it sends and
	// reads.
	HTTPClient *http.Client
	// UserAgent is prepended to the SDK's own User-Agent.
	UserAgent string
	// Logger receives one Debug line per request and per retry. Nil logs nothing.
	Logger *slog.Logger
	// MaxRetries bounds the retries of one request: 0 means the default (4),
	// a negative value means none.
	MaxRetries int

	// DialTimeout bounds the TCP connection of one attempt of the default
	// client (DefaultDialTimeout, 10 s).
	DialTimeout time.Duration
	// TLSHandshakeTimeout bounds the TLS handshake of one attempt of the
	// default client (DefaultTLSHandshakeTimeout, 10 s).
	TLSHandshakeTimeout time.Duration
	// ResponseHeaderTimeout is how long the default client waits for the
	// answer's headers once the whole request, body included, was written
	// (DefaultResponseHeaderTimeout, 60 s): the time the platform may take
	// to act.
	ResponseHeaderTimeout time.Duration
	// UploadProgressTimeout aborts an attempt whose request body the server
	// stops accepting: no byte taken for this long
	// (DefaultUploadProgressTimeout, 30 s). It bounds stalls, not the
	// duration of an upload. The error matches ErrUploadStalled.
	UploadProgressTimeout time.Duration
	// DownloadProgressTimeout aborts the reading of an answer when no byte
	// of it arrives for this long (DefaultDownloadProgressTimeout, 60 s).
	// The error matches ErrDownloadStalled.
	DownloadProgressTimeout time.Duration
}
