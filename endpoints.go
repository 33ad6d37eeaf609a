package signkit

import (
	"fmt"
	"net/url"
	"strings"
)

// Endpoints are the base URLs of the platform's five services. Each is an
// absolute URL without a trailing slash; paths of the API are appended to it.
type Endpoints struct {
	Auth    string // login service: POST {Auth}/oauth/token
	Forms   string // forms service: {Forms}/v1/forms/...
	Sign    string // signing service: {Sign}/api/v1/casefiles/..., {Sign}/api/v3/documents/...
	Send    string // simple case file creation and queue status: {Send}/api/v1/...
	Webhook string // webhook subscriptions: {Webhook}/api/v1/subscriptions
}

// Sandbox are the endpoints of the platform's sandbox environment.
var Sandbox = Endpoints{
	Auth:    "https://sandbox.oauth.penneo.cloud",
	Forms:   "https://sandbox.penneo.com/collect/api",
	Sign:    "https://sandbox.penneo.com",
	Send:    "https://sandbox.penneo.com/send",
	Webhook: "https://sandbox.penneo.com/webhook",
}

// Production are the endpoints of the platform's production environment.
var Production = Endpoints{
	Auth:    "https://login.penneo.com",
	Forms:   "https://app.penneo.com/collect/api",
	Sign:    "https://app.penneo.com",
	Send:    "https://app.penneo.com/send",
	Webhook: "https://app.penneo.com/webhook",
}

// LocalEndpoints lays the five services out under one base URL, the way the
// mock server (package mockserver, cmd/signkit-mock) serves them.
func LocalEndpoints(baseURL string) Endpoints {
	u := strings.TrimRight(baseURL, "/")
	return Endpoints{
		Auth:    u + "/auth",
		Forms:   u + "/collect/api",
		Sign:    u,
		Send:    u + "/send",
		Webhook: u + "/webhook",
	}
}

// validate checks that every endpoint is an absolute http or https URL and
// names the first field that is not.
func (e Endpoints) validate() error {
	for _, f := range []struct{ name, value string }{
		{"Auth", e.Auth}, {"Forms", e.Forms}, {"Sign", e.Sign}, {"Send", e.Send}, {"Webhook", e.Webhook},
	} {
		if f.value == "" {
			return fmt.Errorf("signkit: Config.Endpoints.%s is empty", f.name)
		}
		u, err := url.Parse(f.value)
		if err != nil {
			return fmt.Errorf("signkit: Config.Endpoints.%s is not a URL: %w", f.name, err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("signkit: Config.Endpoints.%s must be an absolute http or https URL, got %q", f.name, f.value)
		}
	}
	return nil
}
