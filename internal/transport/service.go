package transport

// Endpoints are the base URLs of the services the SDK calls
// (signkit.Endpoints without the token endpoint).
type Endpoints struct {
	Forms, Send, Sign, Webhook string
}

// Service is what every public service client is made of: the transport its
// requests go through and the services' base URLs. The clients are defined over
// it (`type Client transport.Service` in forms, casefiles and webhooks), so a
// working one comes only from a conversion of a *Service, which only this
// module can build: signkit.NewClient is the one way in
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#one-way-in).
// A zero Client (new(forms.Client)) still compiles, as it always did, and
// panics on use.
type Service struct {
	t    *Client
	urls Endpoints
}

// NewService returns the Service of the clients that send through t to the
// services at urls.
func NewService(t *Client, urls Endpoints) *Service {
	return &Service{t: t, urls: urls}
}

// Transport answers the transport the service's requests go through.
func (s *Service) Transport() *Client { return s.t }

// URLs answers the services' base URLs.
func (s *Service) URLs() Endpoints { return s.urls }
