package forms

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/signkit/signkit-go/internal/transport"
)

// Client calls the forms service. Get it as the Forms field of a
// signkit.Client; it is safe for concurrent use.
//
// signkit.NewClient is the only way to make one: a Client is defined over the
// SDK's internal connection
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#one-way-in).
type Client transport.Service

// t answers the transport the client's requests go through.
func (c *Client) t() *transport.Client { return (*transport.Service)(c).Transport() }

// base answers {Forms}, e.g. https://app.penneo.com/collect/api.
func (c *Client) base() string { return (*transport.Service)(c).URLs().Forms }

// url returns {base}/v1/<segments…>, each segment escaped.
func (c *Client) url(segments ...string) string {
	return transport.JoinURL(c.base()+"/v1", segments...)
}

// publishQuery is the query of a create or update that also publishes
// (?publish=true,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
type publishQuery struct {
	Publish bool `url:"publish"`
}

// Create validates f and creates it as a new DRAFT form; the answer carries
// the assigned ExternalID. An invalid form is refused with a
// *ValidationError and nothing is sent. Only the definition (name,
// language, description, caseFileTitleTemplate, sections) is sent.
func (c *Client) Create(ctx context.Context, f *Form) (*Form, error) {
	return c.create(ctx, f, false)
}

// CreateAndPublish is Create followed by Publish in one call
// (POST /v1/forms?publish=true): the form answered is ACTIVE, with its
// PublicURL.
func (c *Client) CreateAndPublish(ctx context.Context, f *Form) (*Form, error) {
	return c.create(ctx, f, true)
}

func (c *Client) create(ctx context.Context, f *Form, publish bool) (*Form, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	var out Form
	req := &transport.Request{Method: http.MethodPost, URL: c.url("forms"), Auth: transport.Bearer, JSON: definitionOf(f)}
	if publish {
		req.Query = publishQuery{Publish: true}
	}
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: create: %w", err)
	}
	return &out, nil
}

// Get returns the form with its sections, fields, status, version and, while
// it is ACTIVE, its public URL.
func (c *Client) Get(ctx context.Context, externalID string) (*Form, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	var out Form
	req := &transport.Request{Method: http.MethodGet, URL: c.url("forms", externalID), Auth: transport.Bearer}
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: get %s: %w", externalID, err)
	}
	return &out, nil
}

// Update validates f and replaces the sections and fields of the form. For
// an ACTIVE form the service creates a new DRAFT version under the same
// ExternalID while the live version keeps serving; Publish makes it live.
// An invalid form is refused with a *ValidationError and nothing is sent.
// Every property of f is sent, including those kept in the Extra maps, so
// a form read with Get and sent back loses nothing.
func (c *Client) Update(ctx context.Context, externalID string, f *Form) (*Form, error) {
	return c.update(ctx, externalID, f, false)
}

// UpdateAndPublish is Update followed by Publish in one call
// (PUT /v1/forms/{id}?publish=true): the new version is live at once.
func (c *Client) UpdateAndPublish(ctx context.Context, externalID string, f *Form) (*Form, error) {
	return c.update(ctx, externalID, f, true)
}

func (c *Client) update(ctx context.Context, externalID string, f *Form, publish bool) (*Form, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	req := &transport.Request{Method: http.MethodPut, URL: c.url("forms", externalID), Auth: transport.Bearer, JSON: definitionOf(f)}
	if publish {
		req.Query = publishQuery{Publish: true}
	}
	out, err := c.formAnswer(ctx, req, externalID)
	if err != nil {
		return nil, fmt.Errorf("forms: update %s: %w", externalID, err)
	}
	return out, nil
}

// Publish makes the form (its latest draft version) ACTIVE: end users can
// open and submit it at its PublicURL.
func (c *Client) Publish(ctx context.Context, externalID string) (*Form, error) {
	return c.move(ctx, "publish", externalID)
}

// Archive makes the form ARCHIVED: its public URL stops accepting
// submissions; existing submissions remain retrievable.
func (c *Client) Archive(ctx context.Context, externalID string) (*Form, error) {
	return c.move(ctx, "archive", externalID)
}

// move sends POST /v1/forms/{externalID}/{action} with no payload.
func (c *Client) move(ctx context.Context, action, externalID string) (*Form, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	req := &transport.Request{Method: http.MethodPost, URL: c.url("forms", externalID, action), Auth: transport.Bearer}
	out, err := c.formAnswer(ctx, req, externalID)
	if err != nil {
		return nil, fmt.Errorf("forms: %s %s: %w", action, externalID, err)
	}
	return out, nil
}

// formAnswer sends req and decodes the form it answers with. The service
// answers with the form
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1);
// should it answer with no body, the form is fetched with Get.
func (c *Client) formAnswer(ctx context.Context, req *transport.Request, externalID string) (*Form, error) {
	_, body, err := c.t().SendAndRead(ctx, req)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return c.Get(ctx, externalID)
	}
	var out Form
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("decoding answer of %s %s: %w", req.Method, req.URL, err)
	}
	if out.ExternalID == "" {
		out.ExternalID = externalID
	}
	return &out, nil
}

// checkID refuses an empty id, which would address another endpoint.
func checkID(externalID string) error {
	if externalID == "" {
		return invalid("request", Problem{Field: "externalID", Message: "is empty"})
	}
	return nil
}
