package mockserver

import (
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The names of the signing service that the tests use, from package signing;
// statuses and event types are the platform's wire values
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file status", "Signer status", "Events").
type (
	caseFile      = testkit.CaseFile
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
	cfNew        = testkit.CaseNew
	cfPending    = testkit.CasePending
	cfRejected   = testkit.CaseRejected
	cfDeleted    = testkit.CaseDeleted
	cfSigned     = testkit.CaseSigned
	cfCompleted  = testkit.CaseCompleted
	cfFailed     = testkit.CaseFailed
	cfExpired    = testkit.CaseExpired
	cfAnonymized = testkit.CaseAnonymized
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
const sendCreatePath = testkit.SendCreatePath

// The kit's readers of the signing service's state under the names these
// tests use.
var (
	caseStatus  = testkit.CaseStatus
	signerIDsOf = testkit.SignerIDs
)
