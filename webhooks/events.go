package webhooks

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// EventType names an event type in the platform's app.topic.event form. It
// is both the X-Event-Type header of a delivery and an entry of a
// subscription's event types.
type EventType string

// The event types of the specification.
const (
	// CaseFileCompleted: everyone has signed and the finalized PDF documents
	// are ready for download.
	CaseFileCompleted EventType = "sign.casefile.completed"
	// CaseFileExpired: the signing process expired, for example because a
	// deadline passed without all signatures.
	CaseFileExpired EventType = "sign.casefile.expired"
	// CaseFileFailed: an error occurred on the service side.
	CaseFileFailed EventType = "sign.casefile.failed"
	// CaseFileRejected: one or more signers rejected the signing request.
	CaseFileRejected EventType = "sign.casefile.rejected"

	// SignerRequestActivated: the signer is ready to sign, because the case
	// file was activated or their signing round came up.
	SignerRequestActivated EventType = "sign.signer.requestActivated"
	// SignerRequestSent: the initial signing request email was sent.
	SignerRequestSent EventType = "sign.signer.requestSent"
	// SignerReminderSent: a reminder email was sent.
	SignerReminderSent EventType = "sign.signer.reminderSent"
	// SignerRequestOpened: a signing request email was opened.
	SignerRequestOpened EventType = "sign.signer.requestOpened"
	// SignerUndeliverable: emails cannot be sent to the signer.
	SignerUndeliverable EventType = "sign.signer.undeliverable"
	// SignerOpened: the signer viewed the signing page.
	SignerOpened EventType = "sign.signer.opened"
	// SignerRejected: the signer rejected the request.
	SignerRejected EventType = "sign.signer.rejected"
	// SignerSigned: the signer signed.
	SignerSigned EventType = "sign.signer.signed"
	// SignerSignedWithImageUploadAndNAP: the signer signed using image upload
	// and NAP, where the signing flow applies it.
	SignerSignedWithImageUploadAndNAP EventType = "sign.signer.signedWithImageUploadAndNAP"
	// SignerFinalized: the case file of the signer was finalized.
	SignerFinalized EventType = "sign.signer.finalized"
	// SignerDeleted: the signer was deleted from the case file.
	SignerDeleted EventType = "sign.signer.deleted"
	// SignerTransientBounce: the signer's email bounced temporarily.
	SignerTransientBounce EventType = "sign.signer.transientBounce"

	// SubscriptionTest: sent on demand to test the endpoint.
	SubscriptionTest EventType = "webhook.subscription.test"
)

// allEventTypes is never modified; AllEventTypes hands out copies.
var allEventTypes = [...]EventType{
	CaseFileCompleted, CaseFileExpired, CaseFileFailed, CaseFileRejected,
	SignerRequestActivated, SignerRequestSent, SignerReminderSent, SignerRequestOpened,
	SignerUndeliverable, SignerOpened, SignerRejected, SignerSigned,
	SignerSignedWithImageUploadAndNAP, SignerFinalized, SignerDeleted, SignerTransientBounce,
	SubscriptionTest,
}

// AllEventTypes returns every event type of the specification, in the
// specification's order. The caller owns the returned slice.
func AllEventTypes() []EventType {
	out := make([]EventType, len(allEventTypes))
	copy(out, allEventTypes[:])
	return out
}

// IsKnown reports whether t is one of the event types of the specification
// (AllEventTypes). It is advisory: deliveries of unknown types still verify
// and decode, and package subscriptions' Create and Update send unknown
// types for the service to judge, since the platform may add types. Use it
// in a receiver's switch default, or to warn about a likely typo.
func (t EventType) IsKnown() bool {
	for _, k := range allEventTypes {
		if k == t {
			return true
		}
	}
	return false
}

// Topic returns the topic part of t ("casefile", "signer", "subscription"),
// or "" when t is not of the app.topic.event form.
func (t EventType) Topic() string {
	_, rest, ok := strings.Cut(string(t), ".")
	if !ok {
		return ""
	}
	topic, _, ok := strings.Cut(rest, ".")
	if !ok {
		return ""
	}
	return topic
}

// Topics of the event bodies.
const (
	TopicCaseFile     = "casefile"
	TopicSigner       = "signer"
	TopicSubscription = "subscription"
)

// Event is one delivered event.
type Event struct {
	// ID is the X-Event-Id header: unique per event, the same on every
	// retry of its delivery.
	ID string
	// Type is the full event type, from the X-Event-Type header:
	// "sign.casefile.completed". Compare it with the EventType constants
	// (CaseFileCompleted); it is what subscriptions list.
	Type EventType
	// Topic is the body's topic ("casefile", "signer", "subscription"):
	// the middle part of Type.
	Topic string
	// EventType is the body's short event name within its topic,
	// "completed": the last part of Type, not a full EventType (the name
	// is the body's field's). Prefer Type.
	EventType string
	// Time is the body's eventTime in the timezone it names; zero when absent
	// or unreadable. A named zone such as "Europe/Copenhagen" is looked up
	// with time.LoadLocation: a receiver built into a container without a
	// zone database should import _ "time/tzdata" in its main package, or
	// such events arrive with a zero Time and a warning that names
	// eventTime.timezone.
	Time time.Time
	// CaseFile is set for case file events (the case file) and signer events
	// (the signer's case file) whose payload, or the signer's caseFile, is
	// a JSON object; nil when it is absent, null or of another type. Its
	// members are read from numbers or numeric strings, and one that cannot
	// be read is 0.
	CaseFile *CaseFileRef
	// Signer is set for signer events whose payload is a JSON object.
	Signer *SignerRef
	// Message is the text of the test event.
	Message string
	// Raw is the whole body, for fields this package does not decode and
	// for members it could not read: one JSON object, checked whole. Verify
	// and ParseEvent do not copy it: it shares memory with the body passed
	// in.
	Raw json.RawMessage
	// Handouts is set for the fn of an AsyncHandler: how many times the queue
	// has handed this event's entry out, this time included. It counts
	// hand-outs by the queue, not calls of fn: fn is called up to
	// WithMaxAttempts times within one hand-out, and a hand-out whose reply
	// Redis lost on the network counts without a call. More than 1 means the
	// entry was taken over from a receiver that stopped, or was cut off from
	// its queue, without finishing it, so fn may already have run for this
	// event: an fn whose effect must not happen twice checks its own records
	// first when Handouts > 1
	// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#what-a-2xx-guarantees).
	// Zero outside AsyncHandler.
	Handouts int
}

// CaseFileRef identifies the case file an event is about.
type CaseFileRef struct {
	// ID is the case file id.
	ID int64
	// Status is the case file status (5 is completed, see package casefiles).
	Status int
}

// SignerRef identifies the signer a signer event is about.
type SignerRef struct {
	// ID is the signer id.
	ID int64
}

// Header names of a delivery.
const (
	// SignatureHeader carries t, h and v1, see Sign.
	SignatureHeader = "X-Event-Signature"
	// EventIDHeader carries the event id.
	EventIDHeader = "X-Event-Id"
	// EventTypeHeader carries the event type.
	EventTypeHeader = "X-Event-Type"
)

// ParseEvent decodes a delivery without verifying it: the event id and type
// from the headers h (names matched case-insensitively), the rest from body.
// Use it only on deliveries that were verified some other way; Verify
// verifies, decodes and checks the headers against the body in one step.
//
// The body must be exactly one JSON object, checked whole with
// encoding/json; anything else gives an error that matches
// ErrInvalidPayload. Its members are read liberally, as Verify reads them:
// ids and statuses from numbers or numeric strings, and a member that
// cannot be read (of another JSON type, an eventTime that is not a date in
// a known zone) left zero, without an error and without a log. Unknown
// event types and topics decode generically (ID, Type, Topic, EventType,
// Time, Raw), not as an error.
func ParseEvent(h http.Header, body []byte) (*Event, error) {
	id, _ := headerValue(h, EventIDHeader)
	typ, _ := headerValue(h, EventTypeHeader)
	ev, _, err := decodeEvent(id, EventType(typ), body)
	return ev, err
}
