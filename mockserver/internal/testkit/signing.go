package testkit

import (
	"encoding/json"
	"strings"
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

// GetAccept sends GET path with token as a Bearer token and, when accept is
// not empty, that Accept header; it answers the status and the raw body.
func GetAccept(t testing.TB, s Server, path, token, accept string) (int, []byte) {
	t.Helper()
	req := NewReq(t, s, "GET", path)
	req.Header.Set("Authorization", "Bearer "+token)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	return Do(t, s, req, nil)
}

// TitledCase is CaseDef("Ann:ann@example.com") with a title and the extra
// fields of the case file set.
func TitledCase(title string, extra map[string]any) map[string]any {
	cf := CaseDef("Ann:ann@example.com")
	cf["title"] = title
	for k, v := range extra {
		cf[k] = v
	}
	return cf
}

// EventTrail answers the events of one case file, oldest first, as the
// signing tests compare them: the type without its "sign." prefix, and for
// a signer's event the signer's name after a colon
// ("casefile.completed", "signer.signed:Ann").
func EventTrail(t testing.TB, s Server, caseFileID int64) []string {
	t.Helper()
	signer := map[int64]string{}
	Inspect(s, caseFileID, func(cf *CaseFile) {
		if cf == nil {
			return
		}
		for i := range cf.Signers {
			signer[cf.Signers[i].ID] = cf.Signers[i].Name
		}
	})
	var trail []string
	for _, ev := range Core(s).Signing.EventsSince(0, 0) {
		if ev.CaseFileID != caseFileID {
			continue
		}
		short := strings.TrimPrefix(ev.Type, "sign.")
		if strings.HasPrefix(short, "signer.") { // the body's topic is "signer"
			var body struct {
				Payload struct{ ID int64 } `json:"payload"`
			}
			if err := json.Unmarshal(ev.Body, &body); err != nil {
				t.Fatalf("event %d of case file %d: %v", ev.Seq, caseFileID, err)
			}
			short += ":" + signer[body.Payload.ID]
		}
		trail = append(trail, short)
	}
	return trail
}
