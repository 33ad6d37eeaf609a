package mockserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
	"github.com/signkit/signkit-go/webhooks"
)

// What a test reads of the mock without the control API's HTTP: the emails it
// "sent", its event log and its request journal, and a verifier on its clock
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#the-go-test-api).

// Email is an email the mock "sent" (GET /mock/emails): signing requests,
// reminders, completion copies and the emails that tell a customer a
// subscription was disabled.
type Email struct {
	// To is the recipient's address.
	To string
	// Subject and Text are the email's subject and plain text.
	Subject, Text string
	// SigningLink is the signing page the email links to; empty for emails
	// that link to none.
	SigningLink string
	// At is when it was sent, in mock time.
	At time.Time
}

// Emails answers the emails the mock has sent, oldest first (the outbox
// keeps the last 10,000).
func (s *Server) Emails() []Email { return s.emails(func(string) bool { return true }) }

// EmailsTo answers the emails sent to recipient (compared without regard
// to case), oldest first.
func (s *Server) EmailsTo(recipient string) []Email {
	return s.emails(func(to string) bool { return strings.EqualFold(to, recipient) })
}

func (s *Server) emails(keep func(to string) bool) []Email {
	var out []Email
	for _, e := range s.core.Signing.Emails() {
		if keep(e.To) {
			out = append(out, Email{To: e.To, Subject: e.Subject, Text: e.Text, SigningLink: e.SigningLink, At: e.At})
		}
	}
	return out
}

// Event is an entry of the mock's event log (GET /mock/events): every
// event the simulation emitted, delivered to subscriptions or not.
type Event struct {
	// Seq is the event's position in the log, from 1; it is never reused,
	// not even after Reset, so a test can ask for what came after it.
	Seq int64
	// ID is the event's id, the X-Event-Id of every delivery attempt.
	ID string
	// Type is the full event type, the X-Event-Type header:
	// "sign.casefile.completed" (webhooks.EventType).
	Type string
	// CustomerID is the customer whose subscriptions receive the event.
	CustomerID int64
	// CaseFileID is the case file the event is about; 0 for the test event.
	CaseFileID int64
	// At is when the event was emitted, in mock time.
	At time.Time
	// Body is the delivery's JSON body, exactly as delivered; decode it
	// with webhooks.ParseEvent, giving ID and Type as the X-Event-Id and
	// X-Event-Type headers.
	Body json.RawMessage
}

// Events answers the events logged after the one numbered after (0: from
// the start), oldest first, for every customer.
func (s *Server) Events(after int64) []Event {
	var out []Event
	for _, ev := range s.core.Signing.EventsSince(0, after) {
		out = append(out, Event{Seq: ev.Seq, ID: ev.ID, Type: ev.Type, CustomerID: ev.CustomerID,
			CaseFileID: ev.CaseFileID, At: ev.At, Body: json.RawMessage(ev.Body)})
	}
	return out
}

// Request is an entry of the request journal (GET /mock/requests).
type Request struct {
	// Method and Path are the request's; the path is without the query.
	Method, Path string
	// Status is the answer's status; 0 when the connection was dropped
	// without an answer (an injected fault).
	Status int
	// At is when it was served, in mock time.
	At time.Time
}

// Requests answers the requests the mock has served (the last
// WithJournalSize of them), oldest first, control and token requests
// included.
func (s *Server) Requests() []Request {
	var out []Request
	for _, e := range s.core.Journal.List() {
		out = append(out, Request{Method: e.Method, Path: e.Path, Status: e.Status, At: e.At})
	}
	return out
}

// Verifier answers a webhook verifier for secret whose clock is the
// server's (Now): the mock signs its deliveries with mock time, so a
// verifier on the wall clock refuses every delivery once a manual clock
// has moved more than the tolerance. opts come after the clock and may
// replace it.
func (s *Server) Verifier(secret string, opts ...webhooks.VerifierOption) (*webhooks.Verifier, error) {
	return webhooks.NewVerifier(secret, append([]webhooks.VerifierOption{webhooks.WithClock(s.Now)}, opts...)...)
}

// ReplayDelivery delivers an event to a subscription again, from the
// start, as the dashboard's Replay and POST /mock/deliveries/replay do: a
// new series of attempts of the same body with the same X-Event-Id, to
// test a receiver's handling of a redelivery. The event must be in the deliveries journal (an unknown one
// matches signkit.ErrNotFound) and the subscription active and listing its
// type (else signkit.ErrConflict). The first attempt starts in the
// background; Advance waits for it.
func (s *Server) ReplayDelivery(subscriptionID, eventID string) error {
	return s.controlError(s.core.Webhooks.Replay(subscriptionID, eventID), http.MethodPost, "/mock/deliveries/replay")
}

// controlError turns the error of a control call into what the SDK's
// callers check: a *signkit.Error with the status the control API would
// answer, so that errors.Is(err, signkit.ErrNotFound) holds for an unknown
// id and errors.Is(err, signkit.ErrConflict) for a state that refuses the
// call. Other errors pass unchanged.
func (s *Server) controlError(err error, method, path string) error {
	var we *wire.Error
	if !errors.As(err, &we) {
		return err
	}
	e := &signkit.Error{StatusCode: we.Status, Code: we.Code, Message: we.Message, Method: method, URL: s.URL() + path}
	for _, d := range we.Details {
		e.Details = append(e.Details, signkit.FieldError{Field: d.Field, Message: d.Message})
	}
	return e
}
