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
	caseFileRef   = signing.CaseFileRef
	signerPayload = signing.SignerPayload
)

const (
	maxEvents = signing.MaxEvents
	maxEmails = signing.MaxEmails
)

// sendCreatePath is the Send create endpoint under {Send}.
const sendCreatePath = testkit.SendCreatePath

// The kit's readers of the signing service's state under the names these
// tests use.
var (
	caseStatus  = testkit.CaseStatus
	signerIDsOf = testkit.SignerIDs
)
