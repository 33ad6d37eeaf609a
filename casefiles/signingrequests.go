package casefiles

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/transport"
)

// SigningRequestUpdate changes a signer's signing request (UpdateSigningRequest):
// its email address, the texts of its emails, where the signer's browser
// goes afterwards, its reminders and how the signer may sign. Every field
// is a pointer (or, for InsecureSigningMethods, a slice) and nil leaves the
// platform's value as it is: only what is set is sent. The fields are
// named, and checked, as the Signer fields of the same names; set them
// with signkit.Ptr.
type SigningRequestUpdate struct {
	// Email is where the signing request goes from now on: the reminders
	// and the completion email, and the request email when
	// ResendSigningRequest sends it again. When set it must be an email
	// address. A new address lets emails reach a signer reported
	// undeliverable again.
	Email *string
	// EmailSubject and EmailText are the text of the signing request
	// email; at least 5 characters each when set, like every email text.
	EmailSubject, EmailText *string
	// ReminderEmailSubject and ReminderEmailText are the text of the
	// reminder email.
	ReminderEmailSubject, ReminderEmailText *string
	// CompletedEmailSubject and CompletedEmailText are the text of the
	// email sent when the case file is completed.
	CompletedEmailSubject, CompletedEmailText *string
	// EmailFormat is the format of the signer's emails: EmailFormatText
	// or EmailFormatHTML. Another value is sent as given, for the
	// platform to judge (EmailFormat.IsKnown is advisory).
	EmailFormat *EmailFormat
	// SuccessURL and FailURL are where the signer's browser goes after
	// signing, or after signing failed or was rejected: absolute URLs of
	// at least 5 characters.
	SuccessURL, FailURL *string
	// ReminderInterval is the number of days between reminders; at least
	// 1 when set.
	ReminderInterval *int
	// AccessControl makes the signer prove who they are before they see
	// the documents.
	AccessControl *bool
	// EnableInsecureSigning lets the signer sign with a touch signature.
	EnableInsecureSigning *bool
	// InsecureSigningMethods are the touch signatures the signer may use;
	// nil leaves them, an empty non-nil slice sends [] (the company's
	// setting).
	InsecureSigningMethods []InsecureSigningMethod
}

// signingRequestBody is the JSON of PUT /api/v1/signingrequests/{id}: the names
// of the vendor SDKs' SigningRequest
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid),
// each left out when not set.
type signingRequestBody struct {
	Email                  *string                  `json:"email,omitempty"`
	EmailSubject           *string                  `json:"emailSubject,omitempty"`
	EmailText              *string                  `json:"emailText,omitempty"`
	ReminderEmailSubject   *string                  `json:"reminderEmailSubject,omitempty"`
	ReminderEmailText      *string                  `json:"reminderEmailText,omitempty"`
	CompletedEmailSubject  *string                  `json:"completedEmailSubject,omitempty"`
	CompletedEmailText     *string                  `json:"completedEmailText,omitempty"`
	EmailFormat            *EmailFormat             `json:"emailFormat,omitempty"`
	SuccessURL             *string                  `json:"successUrl,omitempty"`
	FailURL                *string                  `json:"failUrl,omitempty"`
	ReminderInterval       *int                     `json:"reminderInterval,omitempty"`
	AccessControl          *bool                    `json:"accessControl,omitempty"`
	EnableInsecureSigning  *bool                    `json:"enableInsecureSigning,omitempty"`
	InsecureSigningMethods *[]InsecureSigningMethod `json:"insecureSigningMethods,omitempty"`
}

// Validate checks u against the platform's rules for the fields it sets
// (the rules of Signer's fields of the same names, see CaseFile.Validate)
// and reports every problem in one *ValidationError, nil when there is
// none: Email, when set, is an email address (an empty one is refused:
// the request would have nowhere to go); every email text that is set has
// at least 5 characters; SuccessURL and FailURL are absolute URLs of at
// least 5 characters; ReminderInterval is at least 1. EmailFormat and
// InsecureSigningMethods values this package does not know pass, as on
// Signer: the platform extends those lists and judges them. An update
// that sets nothing is refused too: it would change nothing.
func (u *SigningRequestUpdate) Validate() error {
	if u == nil {
		return invalid("signing request update", Problem{Field: "update", Message: "is nil"})
	}
	var p problems
	if u.Email != nil {
		if *u.Email == "" {
			p.add("email", "must be an email address when set (nil leaves it)")
		} else {
			p.email("email", *u.Email)
		}
	}
	for _, t := range []struct {
		name  string
		value *string
	}{
		{"emailSubject", u.EmailSubject}, {"emailText", u.EmailText},
		{"reminderEmailSubject", u.ReminderEmailSubject}, {"reminderEmailText", u.ReminderEmailText},
		{"completedEmailSubject", u.CompletedEmailSubject}, {"completedEmailText", u.CompletedEmailText},
	} {
		if t.value != nil && *t.value == "" {
			p.add(t.name, "must be at least %d characters when set (nil leaves it)", minEmailText)
		} else if t.value != nil {
			p.minLen(t.name, *t.value, minEmailText)
		}
	}
	u.validateSettings(&p)
	if len(p) == 0 && u.empty() {
		p.add("update", "sets no field: set at least one")
	}
	return invalid("signing request update", p...)
}

// validateSettings checks the URLs, the reminder interval and the signing
// settings of u.
func (u *SigningRequestUpdate) validateSettings(p *problems) {
	for _, f := range []struct {
		name  string
		value *string
	}{{"successUrl", u.SuccessURL}, {"failUrl", u.FailURL}} {
		if f.value != nil && *f.value == "" {
			p.add(f.name, "must be an absolute URL of at least %d characters when set (nil leaves it)", minURL)
		} else if f.value != nil {
			p.url(f.name, *f.value)
		}
	}
	if u.ReminderInterval != nil && *u.ReminderInterval < 1 {
		p.add("reminderInterval", "must be at least 1 day when set, got %d", *u.ReminderInterval)
	}
	// Email formats and insecure signing methods this package does not know
	// pass, as on Signer: the platform judges them
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
}

// empty reports whether u sets no field.
func (u *SigningRequestUpdate) empty() bool {
	b := u.body()
	return b == signingRequestBody{}
}

// body is the JSON of u: only the fields it sets.
func (u *SigningRequestUpdate) body() signingRequestBody {
	b := signingRequestBody{
		Email: u.Email, EmailSubject: u.EmailSubject, EmailText: u.EmailText,
		ReminderEmailSubject: u.ReminderEmailSubject, ReminderEmailText: u.ReminderEmailText,
		CompletedEmailSubject: u.CompletedEmailSubject, CompletedEmailText: u.CompletedEmailText,
		EmailFormat: u.EmailFormat, SuccessURL: u.SuccessURL, FailURL: u.FailURL,
		ReminderInterval: u.ReminderInterval, AccessControl: u.AccessControl, EnableInsecureSigning: u.EnableInsecureSigning,
	}
	if u.InsecureSigningMethods != nil {
		m := u.InsecureSigningMethods
		b.InsecureSigningMethods = &m
	}
	return b
}

// signingRequestURL is {Sign}/api/v1/signingrequests/{id}[/suffix].
func (c *Client) signingRequestURL(id int64, suffix ...string) string {
	return transport.JoinURL(c.sign(), append([]string{"api", "v1", "signingrequests", strconv.FormatInt(id, 10)}, suffix...)...)
}

// checkSigningRequestID refuses an id that is not positive.
func checkSigningRequestID(id int64) error {
	if id <= 0 {
		return invalid("request", Problem{Field: "signingRequestID", Message: "must be positive"})
	}
	return nil
}

// SigningRequestLink returns the signing link of a signing request (its id is
// SignerDetails.SigningRequestID): GET {Sign}/api/v1/signingrequests/{id}/link,
// which answers a JSON array whose first item is the link
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid).
// Give it to the signer yourself when they have no email or the email does not
// reach them; the link works once the case file is sent for signing. A GET, it
// is re-sent after a lost connection, 429, 502, 503 or 504
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md). An unknown
// signing request is an error matching signkit.ErrNotFound.
func (c *Client) SigningRequestLink(ctx context.Context, signingRequestID int64) (string, error) {
	if err := checkSigningRequestID(signingRequestID); err != nil {
		return "", err
	}
	req := &transport.Request{Method: http.MethodGet, URL: c.signingRequestURL(signingRequestID, "link"), Auth: transport.Bearer}
	var links []string
	if err := c.t().Do(ctx, req, &links); err != nil {
		return "", fmt.Errorf("casefiles: signing request %d: link: %w", signingRequestID, err)
	}
	if len(links) == 0 || links[0] == "" {
		return "", fmt.Errorf("casefiles: signing request %d: link: %w", signingRequestID, errNoLink)
	}
	return links[0], nil
}

// errNoLink is the error of a link answer without a link.
var errNoLink = errors.New("the answer holds no link")

// UpdateSigningRequest changes a signer's signing request (its id is
// SignerDetails.SigningRequestID): PUT {Sign}/api/v1/signingrequests/{id} with
// the fields u sets and no others
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid);
// any 2xx answer is success. Correct a mistyped or bounced address with Email:
// the platform sends later emails there and a signer reported undeliverable
// (SignerUndeliverable) becomes pending again. The update sends no email
// itself: call ResendSigningRequest to send the request email to the new
// address.
//
// u is checked first (SigningRequestUpdate.Validate): a bad update is refused
// with a *ValidationError and nothing is sent. The platform refuses to change
// the request of a signer who has signed or rejected with an error matching
// signkit.ErrConflict; an unknown signing request matches signkit.ErrNotFound.
// A PUT, it is re-sent after a lost connection, 429, 502, 503 or 504: a second
// copy changes nothing more
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md).
func (c *Client) UpdateSigningRequest(ctx context.Context, signingRequestID int64, u *SigningRequestUpdate) error {
	if err := checkSigningRequestID(signingRequestID); err != nil {
		return err
	}
	if err := u.Validate(); err != nil {
		return err
	}
	req := &transport.Request{
		Method: http.MethodPut,
		URL:    c.signingRequestURL(signingRequestID),
		Auth:   transport.Bearer,
		JSON:   u.body(),
		Resend: retry.Idempotent,
	}
	if err := c.t().Do(ctx, req, nil); err != nil {
		return fmt.Errorf("casefiles: update signing request %d: %w", signingRequestID, err)
	}
	return nil
}

// ResendSigningRequest sends the signing request email to the signer again, to
// the request's current address: PATCH {Sign}/api/v1/signingrequests/{id}/send
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid);
// any 2xx answer is success. The next reminder follows reminderInterval days
// after it.
//
// A second copy would send a second email, so the request is re-sent only when
// it never left (the connection failed before it was written). After a 502, 503
// or 504, or a connection lost once it was written, the email may or may not
// have gone and the error matches signkit.ErrOutcomeUnknown; a 429 matches
// signkit.ErrRateLimited
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md). A signer
// who is not asked to sign now (not yet activated, signed, rejected) or has no
// email is refused with an error matching signkit.ErrConflict; an unknown
// signing request matches signkit.ErrNotFound.
func (c *Client) ResendSigningRequest(ctx context.Context, signingRequestID int64) error {
	if err := checkSigningRequestID(signingRequestID); err != nil {
		return err
	}
	req := &transport.Request{
		Method: http.MethodPatch,
		URL:    c.signingRequestURL(signingRequestID, "send"),
		Auth:   transport.Bearer,
		Resend: retry.NotWritten,
	}
	if err := c.t().Do(ctx, req, nil); err != nil {
		return fmt.Errorf("casefiles: resend signing request %d: %w", signingRequestID, err)
	}
	return nil
}
