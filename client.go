package signkit

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/transport"
	"github.com/signkit/signkit-go/internal/version"
	"github.com/signkit/signkit-go/subscriptions"
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
	// Subscriptions manages webhook subscriptions and asks for test
	// events. Receiving events needs no client: see webhooks.NewVerifier.
	Subscriptions *subscriptions.Client

	tokens    auth.TokenProvider // *auth.TokenSource, or Config.TokenSource
	transport *transport.Client
}

// NewClient checks cfg and returns a Client. A config that cannot work (a
// missing credential, an endpoint that is not an absolute URL, both
// Credentials and TokenSource set, or neither) is refused with an error that
// names the field, never a secret. With Config.TokenSource set, the client
// takes its tokens from it and needs no Credentials; otherwise it obtains
// them with the API Keys Grant from Config.Credentials. No request is made.
func NewClient(cfg Config) (*Client, error) {
	if err := cfg.Endpoints.validate(); err != nil {
		return nil, err
	}
	if err := cfg.checkAuth(); err != nil {
		return nil, err
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
	tokens := cfg.TokenSource
	if tokens == nil {
		tokens = auth.NewTokenSource(cfg.Endpoints.Auth, cfg.Credentials,
			auth.WithHTTPClient(hc),
			auth.WithLogger(cfg.Logger),
			auth.WithUserAgent(cfg.UserAgent),
			auth.WithRetryPolicy(policy.MaxRetries, policy.WaitMin, policy.WaitMax),
		)
	}
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
		Forms:         (*forms.Client)(svc),
		CaseFiles:     (*casefiles.Client)(svc),
		Subscriptions: (*subscriptions.Client)(svc),
		tokens:        tokens,
		transport:     t,
	}, nil
}

// checkAuth checks that cfg says where tokens come from: either every
// Credentials field, or a TokenSource and no Credentials field at all. The
// errors name fields, never their values.
func (cfg Config) checkAuth() error {
	if cfg.TokenSource == nil {
		if missing := cfg.Credentials.MissingFields(); len(missing) > 0 {
			return fmt.Errorf("signkit: Config.Credentials.%s is empty", strings.Join(missing, ", Config.Credentials."))
		}
		return nil
	}
	if cfg.Credentials != (auth.Credentials{}) {
		return errors.New("signkit: set Config.Credentials or Config.TokenSource, not both")
	}
	// A nil pointer in the interface would only panic at the first call.
	if v := reflect.ValueOf(cfg.TokenSource); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("signkit: Config.TokenSource is a nil %T", cfg.TokenSource)
	}
	return nil
}
