package testkit

import (
	"encoding/json"
	"strings"
	"testing"
)

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
