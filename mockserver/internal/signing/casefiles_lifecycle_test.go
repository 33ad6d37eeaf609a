package signing_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// deleteCaseFile deletes a case file through the signing service.
func deleteCaseFile(t *testing.T, s *mockserver.Server, tok string, id int64) (int, []byte) {
	t.Helper()
	return testkit.Call(t, s, "DELETE", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, nil)
}

func TestDeleteCaseFile(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	colleague := userToken(t, s, mockserver.UserSpec{Name: "Colleague"})
	stranger := userToken(t, s, mockserver.UserSpec{Name: "Stranger", NewCustomer: true})
	reminding := testkit.TitledCase("Pending", nil)
	reminding["signers"].([]any)[0].(map[string]any)["reminderInterval"] = 1
	reminding["expireAt"] = testkit.Epoch.Add(2 * day).Unix()
	pending, links := testkit.RunCase(t, s, tok, reminding, file)
	done, _ := testkit.RunCase(t, s, tok, testkit.TitledCase("Done", nil), file)
	if err := s.SignerAction(done, testkit.SignerID(t, s, done, "Ann"), mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	var details signing.CaseFileJSON
	testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", pending), tok, nil, &details)
	docPath := fmt.Sprintf("/api/v3/documents/%d/content", details.Documents[0].ID)
	emails, events := len(s.Emails()), len(s.Events(0))

	for _, tc := range []struct {
		who, tok string
		id       int64
		want     int
	}{
		{"colleague", colleague, pending, http.StatusForbidden},
		{"stranger", stranger, pending, http.StatusNotFound},
		{"owner, unknown", tok, 999, http.StatusNotFound},
		{"owner, completed", tok, done, http.StatusConflict},
	} {
		if st, b := deleteCaseFile(t, s, tc.tok, tc.id); st != tc.want {
			t.Errorf("%s: DELETE %d: %d %s, want %d", tc.who, tc.id, st, b, tc.want)
		}
	}
	if n := s.Stats().CaseFiles; n != 2 {
		t.Fatalf("refused deletes changed the store: %d case files", n)
	}
	var gone signing.CaseFileJSON
	st, b := testkit.Call(t, s, "DELETE", fmt.Sprintf("/api/v1/casefiles/%d", pending), tok, nil, &gone)
	if st != http.StatusOK || gone.ID != pending || gone.Status != testkit.CaseDeleted {
		t.Fatalf("DELETE pending: %d %s, want 200 with status 3", st, b)
	}
	for _, p := range []string{fmt.Sprintf("/api/v1/casefiles/%d", pending), fmt.Sprintf("/api/v3/casefiles/%d", pending), docPath} {
		if st, _ := testkit.GetAccept(t, s, p, tok, ""); st != http.StatusNotFound {
			t.Errorf("GET %s after delete: %d, want 404", p, st)
		}
	}
	if st, _ := testkit.Call(t, s, "GET", strings.TrimPrefix(links[0].SigningLink, s.URL()), "", nil, nil); st != http.StatusGone {
		t.Errorf("signing link after delete: %d, want 410", st)
	}
	if st, _ := deleteCaseFile(t, s, tok, pending); st != http.StatusNotFound {
		t.Errorf("second DELETE: %d, want 404", st)
	}
	if _, ids, _ := listCaseFiles(t, s, tok, "", false); !slices.Equal(ids, []int64{done}) {
		t.Errorf("list after delete: %v, want [%d]", ids, done)
	}
	s.Advance(3 * day)
	if e, ev := len(s.Emails()), len(s.Events(0)); e != emails || ev != events {
		t.Errorf("after delete: %d emails and %d events more; reminders and expiry must stop", e-emails, ev-events)
	}
	tok = adminToken(t, s)
	if st, _ := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", done), tok, nil, nil); st != 200 {
		t.Errorf("the completed case file: %d, want 200", st)
	}
}

func TestAnonymizeCaseFile(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	cf := testkit.TitledCase("Finished", map[string]any{"ccRecipients": []any{map[string]any{"name": "Carl", "email": "carl@example.com"}}})
	id, links := testkit.RunCase(t, s, tok, cf, file)
	pending, _ := testkit.RunCase(t, s, tok, testkit.TitledCase("Still open", nil), file)
	path := func(id int64) string { return fmt.Sprintf("/mock/casefiles/%d/anonymize", id) }
	if st, _ := testkit.Call(t, s, "POST", path(id), "", nil, nil); st != http.StatusConflict {
		t.Fatalf("anonymize a pending case file: %d, want 409", st)
	}
	if err := s.SignerAction(id, testkit.SignerID(t, s, id, "Ann"), mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	var out signing.CaseFileJSON
	st, b := testkit.Call(t, s, "POST", path(id), "", nil, &out)
	if st != 200 || out.Status != testkit.CaseAnonymized || out.Signers[0].Name != "" || out.Signers[0].SigningRequest.Email != "" ||
		out.CCRecipients[0].Email != "" || out.CCRecipients[0].Name != "" {
		t.Fatalf("anonymize: %d %s", st, b)
	}
	var details signing.CaseFileJSON
	testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &details)
	if details.Status != 8 || len(details.Documents[0].SignatureLines) != 1 {
		t.Fatalf("details after anonymizing: %+v", details)
	}
	if st, _ := testkit.GetAccept(t, s, fmt.Sprintf("/api/v3/documents/%d/content", details.Documents[0].ID), tok, ""); st != 200 {
		t.Errorf("the documents stay: %d", st)
	}
	for _, tc := range []struct {
		what, method, path string
		want               int
	}{
		{"anonymize again", "POST", path(id), http.StatusConflict},
		{"anonymize unknown", "POST", path(999), http.StatusNotFound},
		{"anonymize pending", "POST", path(pending), http.StatusConflict},
		{"signing link", "GET", strings.TrimPrefix(links[0].SigningLink, s.URL()), http.StatusGone},
	} {
		if st, _ := testkit.Call(t, s, tc.method, tc.path, "", nil, nil); st != tc.want {
			t.Errorf("%s: %d, want %d", tc.what, st, tc.want)
		}
	}
	if st, _ := deleteCaseFile(t, s, tok, id); st != http.StatusConflict {
		t.Errorf("delete an anonymized case file: %d, want 409", st)
	}
}

func TestCaseFileV3AndDocumentsByIntegerID(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	_, v1 := testkit.GetAccept(t, s, fmt.Sprintf("/api/v1/casefiles/%d", id), tok, "")
	st, v3 := testkit.GetAccept(t, s, fmt.Sprintf("/api/v3/casefiles/%d", id), tok, "")
	if st != 200 || !bytes.Equal(v1, v3) {
		t.Fatalf("v3 answers %d %s\nv1 %s", st, v3, v1)
	}
	var details signing.CaseFileJSON
	if err := json.Unmarshal(v1, &details); err != nil {
		t.Fatal(err)
	}
	d := details.Documents[0]
	for _, p := range []string{
		fmt.Sprintf("/api/v3/documents/%d/content", d.ID),
		"/api/v3/documents/" + d.DocumentID + "/content",
		fmt.Sprintf("/api/v1/documents/%d/content", d.ID),
	} {
		if st, b := testkit.GetAccept(t, s, p, tok, "application/pdf"); st != 200 || !bytes.Equal(b, file.Body) {
			t.Errorf("GET %s: %d, %d bytes, want the upload", p, st, len(b))
		}
	}
	for _, p := range []string{"/api/v3/documents/999/content", fmt.Sprintf("/api/v3/documents/%d/content", id),
		"/api/v3/documents/not-a-key/content", "/api/v3/casefiles/999"} {
		if st, _ := testkit.GetAccept(t, s, p, tok, ""); st != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, st)
		}
	}
}

func TestSignatureLines(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	cf := testkit.CaseDef("Ann:ann@example.com:0", "Bob:bob@example.com:1", "Cy:-:1")
	signers := cf["signers"].([]any)
	signers[0].(map[string]any)["role"] = "buyer"
	signers[1].(map[string]any)["role"] = "seller"
	cf["documents"] = []any{
		map[string]any{"name": "doc.pdf", "title": "Buyer only", "roles": []string{"buyer"}},
		map[string]any{"name": "all.pdf", "title": "Everyone", "documentOrder": 7},
		map[string]any{"name": "annex.pdf", "title": "Annex", "signable": false},
	}
	id, _ := testkit.RunCase(t, s, tok, cf, file, testkit.FilePart("all.pdf", mockserver.SamplePDF("All")), testkit.FilePart("annex.pdf", mockserver.SamplePDF("Annex")))
	if err := s.SignerAction(id, testkit.SignerID(t, s, id, "Ann"), mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	var d signing.CaseFileJSON
	testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &d)
	name := map[int64]string{}
	for _, sg := range d.Signers {
		name[sg.ID] = sg.Name
	}
	type line struct {
		signer, role   string
		order          int
		active, signed bool
	}
	want := [][]line{
		{{"Ann", "buyer", 0, true, true}},
		{{"Ann", "buyer", 0, true, true}, {"Bob", "seller", 1, true, false}, {"Cy", "", 1, true, false}},
		{},
	}
	ids := map[int64]bool{}
	for i, doc := range d.Documents {
		var got []line
		for _, l := range doc.SignatureLines {
			if l.DocumentID != doc.ID || ids[l.ID] {
				t.Errorf("document %d: line %+v has documentId %d or a reused id", doc.ID, l, l.DocumentID)
			}
			ids[l.ID] = true
			got = append(got, line{name[l.SignerID], l.Role, l.SignOrder, l.ActivatedAt != nil, l.SignedAt != nil})
		}
		if !slices.Equal(got, want[i]) {
			t.Errorf("%s: lines %+v, want %+v", doc.Title, got, want[i])
		}
	}
	if d.Documents[1].DocumentOrder != 7 || d.Documents[2].DocumentOrder != 2 || d.SignIteration != 1 {
		t.Errorf("documentOrder %d and %d, want 7 and 2; signIteration %d, want 1",
			d.Documents[1].DocumentOrder, d.Documents[2].DocumentOrder, d.SignIteration)
	}
}

func TestSendFieldsAreStoredAndShown(t *testing.T) {
	t.Parallel()
	for _, form := range []string{"unix seconds", "RFC 3339"} {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			s, tok, file := newMock(t)
			at := func(d time.Duration) any {
				if form == "RFC 3339" {
					return testkit.Epoch.Add(d).Format(time.RFC3339)
				}
				return testkit.Epoch.Add(d).Unix()
			}
			cf := testkit.TitledCase("Everything", map[string]any{"language": "da", "metaData": "m-1", "reference": "REF 7", "folderId": 42,
				"sendAt": at(time.Hour), "expireAt": at(48 * time.Hour), "sensitiveData": true, "signOnMeeting": true,
				"visibilityMode": 1, "disableNotificationsOwner": true, "disableEmailAttachments": true,
				"ccRecipients": []any{map[string]any{"name": "Carl", "email": "carl@example.com", "storeAsContact": false}}})
			sg := cf["signers"].([]any)[0].(map[string]any)
			for k, v := range map[string]any{"role": "Buyer, main", "onBehalfOf": "Ann ApS", "ssnType": "dk:cpr",
				"socialSecurityNumberPlain": "0101701234", "vatin": "DK123", "accessControl": true, "language": "sv",
				"successUrl": "https://example.com/ok", "failUrl": "https://example.com/no", "activeAt": at(time.Hour),
				"expireAt": at(24 * time.Hour), "storeAsContact": false, "emailFormat": "html", "reminderInterval": 2,
				"emailSubject": "Please sign", "secureSigningMethods": []string{"mitid.dk"}} {
				sg[k] = v
			}
			cf["documents"].([]any)[0].(map[string]any)["metaData"] = "doc-meta"
			id, links := testkit.RunCase(t, s, tok, cf, file)
			_, raw := testkit.GetAccept(t, s, fmt.Sprintf("/api/v1/casefiles/%d", id), tok, "")
			if bytes.Contains(raw, []byte("0101701234")) {
				t.Fatalf("the SSN is shown: %s", raw)
			}
			var d signing.CaseFileJSON
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatal(err)
			}
			r := d.Signers[0].SigningRequest
			checks := []struct {
				what string
				ok   bool
			}{
				{"case file fields", d.Language == "da" && d.MetaData == "m-1" && d.Reference == "REF 7" && d.FolderID == 42 &&
					d.SensitiveData && d.SignOnMeeting && d.VisibilityMode == 1 && d.DisableNotificationsOwner && d.DisableEmailAttachments},
				{"times", *d.SendAt == testkit.Epoch.Add(time.Hour).Unix() && *d.ExpireAt == testkit.Epoch.Add(48*time.Hour).Unix()},
				{"cc", len(d.CCRecipients) == 1 && d.CCRecipients[0] == signing.CCRecipient{Name: "Carl", Email: "carl@example.com"}},
				{"signer", d.Signers[0].OnBehalfOf == "Ann ApS" && d.Signers[0].SSNType == "dk:cpr" && d.Signers[0].VATIN == "DK123" &&
					!d.Signers[0].StoreAsContact},
				{"request", r.AccessControl && r.Language == "sv" && r.SuccessURL == "https://example.com/ok" && r.EmailFormat == "html" &&
					r.ReminderInterval == 2 && r.EmailSubject == "Please sign" && slices.Equal(r.SecureSigningMethods, []string{"mitid.dk"}) &&
					*r.ActiveAt == testkit.Epoch.Add(time.Hour).Unix() && *r.ExpireAt == testkit.Epoch.Add(24*time.Hour).Unix()},
				{"role on the line", d.Documents[0].SignatureLines[0].Role == "Buyer, main" && d.Documents[0].MetaData == "doc-meta"},
				{"new until sendAt", d.Status == testkit.CaseNew && d.Activated == nil && len(links) == 1 && links[0].SigningLink != ""},
				{"no email before sendAt", len(s.Emails()) == 0},
			}
			for _, c := range checks {
				if !c.ok {
					t.Errorf("%s: %s", c.what, raw)
				}
			}
			s.Advance(time.Hour - testkit.Core(s).Cfg.JobDelay)
			testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), adminToken(t, s), nil, &d)
			if d.Status != testkit.CasePending || d.Activated == nil || *d.Activated != testkit.Epoch.Add(time.Hour).Unix() ||
				len(s.Emails()) != 1 {
				t.Fatalf("at sendAt: status %d, activated %v, %d emails", d.Status, d.Activated, len(s.Emails()))
			}
			if err := s.SignerAction(id, d.Signers[0].ID, mockserver.ActionSign); err != nil {
				t.Fatal(err)
			}
			mails := s.Emails()
			if last := mails[len(mails)-1]; last.To != "carl@example.com" || !strings.Contains(last.Subject, "Everything") {
				t.Errorf("the CC recipient gets no copy on completion: %+v", mails)
			}
		})
	}
}
