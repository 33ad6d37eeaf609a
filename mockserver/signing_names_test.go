package mockserver

import (
	"github.com/signkit/signkit-go/mockserver/internal/app"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
)

// The names of the signing service that the tests use, from package signing;
// statuses and event types are the platform's wire values
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file status", "Signer status", "Events").
type (
	caseFile      = signing.CaseFile
	caseFileJSON  = signing.CaseFileJSON
	caseFileRef   = signing.CaseFileRef
	ccRecipient   = signing.CCRecipient
	email         = signing.Email
	event         = signing.Event
	eventJSON     = signing.EventJSON
	signerPayload = signing.SignerPayload
)

const (
	maxEvents = signing.MaxEvents
	maxEmails = signing.MaxEmails
)

// Case file statuses.
const (
	cfNew        = 0
	cfPending    = 1
	cfRejected   = 2
	cfDeleted    = 3
	cfSigned     = 4
	cfCompleted  = 5
	cfFailed     = 6
	cfExpired    = 7
	cfAnonymized = 8
)

// Signer statuses.
const (
	sgNew     = 0
	sgPending = 1
)

// Event types the signing simulation emits.
const (
	evSignerActivated   = "sign.signer.requestActivated"
	evSignerRequestSent = "sign.signer.requestSent"
	evSignerRejected    = "sign.signer.rejected"
)

// sendCreatePath is the Send create endpoint under {Send}.
const sendCreatePath = app.SendCreatePath
