package signkit

import (
	"fmt"
	"strings"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/transport"
	"github.com/signkit/signkit-go/internal/version"
	"github.com/signkit/signkit-go/webhooks"
)

// Version is the SDK's semantic version, as sent in the User-Agent.
const Version = version.Version

// Client is the platform client of one account. Its service fields share one
// token source and one transport. It is safe for concurrent use; create one
// per account and reuse it.
type Client struct {
	// Forms calls the forms service: forms, prefilled links, submissions,
	// answers and attachments.
	Forms *forms.Client
	// CaseFiles creates case files in one streamed multipart request,
	// waits for the creation job, and reads case file details and signed
	// documents from the signing service.
	CaseFiles *casefiles.Client
	// Webhooks manages webhook subscriptions and asks for test events.
	// Receiving events needs no client: see webhooks.NewVerifier.
	Webhooks *webhooks.Client

	tokens    *auth.TokenSource
	transport *transport.Client
}

// NewClient checks cfg and returns a Client. A config that cannot work (a
// missing credential, an endpoint that is not an absolute URL) is refused
// with an error that names the field. No request is made.
func NewClient(cfg Config) (*Client, error) {
	if err := cfg.Endpoints.validate(); err != nil {
		return nil, err
	}
	if missing := cfg.Credentials.MissingFields(); len(missing) > 0 {
		return nil, fmt.Errorf("signkit: Config.Credentials.%s is empty", strings.Join(missing, ", Config.Credentials."))
	}
	// One client for the token request and every service request, so the
	// timeouts and the progress bounds hold for all of them.
	hc := cfg.httpClient()
	policy := retry.DefaultPolicy()
	switch {
	case cfg.MaxRetries > 0:
		policy.MaxRetries = cfg.MaxRetries
	case cfg.MaxRetries < 0:
		policy.MaxRetries = 0
	}
	tokens := auth.NewTokenSource(cfg.Endpoints.Auth, cfg.Credentials,
		auth.WithHTTPClient(hc),
		auth.WithLogger(cfg.Logger),
		auth.WithUserAgent(cfg.UserAgent),
		auth.WithRetryPolicy(policy.MaxRetries, policy.WaitMin, policy.WaitMax),
	)
	t := transport.New(transport.Config{
		HTTPClient: hc,
		Tokens:     tokens,
		UserAgent:  cfg.UserAgent,
		Logger:     cfg.Logger,
		Policy:     policy,
	})
	svc := transport.NewService(t, transport.Endpoints{Forms: cfg.Endpoints.Forms, Send: cfg.Endpoints.Send,
		Sign: cfg.Endpoints.Sign, Webhook: cfg.Endpoints.Webhook})
	return &Client{
		Forms:     (*forms.Client)(svc),
		CaseFiles: (*casefiles.Client)(svc),
		Webhooks:  (*webhooks.Client)(svc),
		tokens:    tokens,
		transport: t,
	}, nil
}
