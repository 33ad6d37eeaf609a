package testkit

import (
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/signing"
)

// CaseFile is a case file as the signing service holds it.
type CaseFile = signing.CaseFile

// Case file statuses, the platform's wire values
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file status").
const (
	CaseNew        = 0
	CasePending    = 1
	CaseRejected   = 2
	CaseDeleted    = 3
	CaseSigned     = 4
	CaseCompleted  = 5
	CaseFailed     = 6
	CaseExpired    = 7
	CaseAnonymized = 8
)

// Inspect runs fn on the case file id as the signing service holds it (nil
// when there is none), under the service's lock: fn must not call the mock.
func Inspect(s Server, id int64, fn func(cf *CaseFile)) {
	Core(s).Signing.Inspect(id, fn)
}

// CaseStatus answers a case file's status, -1 when there is none.
func CaseStatus(s Server, id int64) int {
	st := -1
	Inspect(s, id, func(cf *CaseFile) {
		if cf != nil {
			st = cf.Status
		}
	})
	return st
}

// SignerIDs answers the ids of a case file's signers, in order.
func SignerIDs(s Server, caseFileID int64) []int64 {
	var ids []int64
	Inspect(s, caseFileID, func(cf *CaseFile) {
		if cf != nil {
			for _, sg := range cf.Signers {
				ids = append(ids, sg.ID)
			}
		}
	})
	return ids
}

// SignerID answers the id of a case file's signer by name, failing the
// test when there is none.
func SignerID(t testing.TB, s Server, caseFileID int64, name string) int64 {
	t.Helper()
	var id int64
	Inspect(s, caseFileID, func(cf *CaseFile) {
		if cf != nil {
			for _, sg := range cf.Signers {
				if sg.Name == name {
					id = sg.ID
				}
			}
		}
	})
	if id == 0 {
		t.Fatalf("case file %d has no signer %q", caseFileID, name)
	}
	return id
}
