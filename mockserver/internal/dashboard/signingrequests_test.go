package dashboard

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// requestFake is fake with the signing request callbacks: signer 2 of case
// file 1 takes an email with an @ and can be sent the request again once.
func requestFake(rec *recorder, changed *string, resent *int) *Dashboard {
	d := fake(rec)
	check := func(cf, sg int64) error {
		switch {
		case cf != 1:
			return wire.NotFound("no case file %d", cf)
		case sg != 2:
			return wire.NotFound("case file %d has no signer %d", cf, sg)
		}
		return nil
	}
	d.cfg.ChangeEmail = func(cf, sg int64, email string) error {
		if err := check(cf, sg); err != nil {
			return err
		}
		if !strings.Contains(email, "@") {
			var p wire.Problems
			p.Add("email", "must be an email address")
			return p.Err()
		}
		*changed = email
		return nil
	}
	d.cfg.Resend = func(cf, sg int64) error {
		if err := check(cf, sg); err != nil {
			return err
		}
		if *resent > 0 {
			return wire.Conflict("signer 2 is signed: only a signer asked to sign can be sent the request again")
		}
		*resent++
		return nil
	}
	return d
}

func TestChangeEmail(t *testing.T) {
	for _, tc := range []struct {
		name, id, signer, email string
		status                  int
		location, body, changed string
	}{
		{"done", "1", "2", "ann@example.org", http.StatusSeeOther, "/mock/ui/casefiles?note=Change+email+of+signer+2", "", "ann@example.org"},
		{"not an address", "1", "2", "ann", http.StatusSeeOther, "/mock/ui/casefiles?error=1&note=Change+email", "", ""},
		{"unknown signer", "1", "7", "ann@example.org", http.StatusNotFound, "", "case file 1 has no signer 7.", ""},
		{"not a number", "x", "2", "ann@example.org", http.StatusNotFound, "", "no case file &#34;x&#34;", ""},
	} {
		var rec recorder
		var changed string
		var resent int
		d := requestFake(&rec, &changed, &resent)
		w := serve(t, d.HandleChangeEmail, post("/x", url.Values{"email": {tc.email}}, map[string]string{"id": tc.id, "signerId": tc.signer}))
		loc, body := w.Header().Get("Location"), w.Body.String()
		if w.Code != tc.status || !strings.HasPrefix(loc, tc.location) || !strings.Contains(body, tc.body) || changed != tc.changed {
			t.Errorf("%s: %d %q changed %q\n%s", tc.name, w.Code, loc, changed, body)
		}
		if tc.status == http.StatusNotFound && !strings.Contains(body, `id="casefile-1"`) {
			t.Errorf("%s: the 404 is not the case files view:\n%s", tc.name, body)
		}
	}
}

func TestResend(t *testing.T) {
	var rec recorder
	var changed string
	var resent int
	d := requestFake(&rec, &changed, &resent)
	ids := map[string]string{"id": "1", "signerId": "2"}
	w := serve(t, d.HandleResend, post("/x", nil, ids))
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || strings.Contains(loc, "error=1") || resent != 1 {
		t.Errorf("resend: %d %q, resent %d", w.Code, loc, resent)
	}
	w = serve(t, d.HandleResend, post("/x", nil, ids))
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.Contains(loc, "error=1") || resent != 1 {
		t.Errorf("a 409 is a note: %d %q, resent %d", w.Code, loc, resent)
	}
	w = serve(t, d.HandleResend, post("/x", nil, map[string]string{"id": "9", "signerId": "2"}))
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "no case file 9") {
		t.Errorf("unknown case file: %d\n%s", w.Code, w.Body.String())
	}
}

// The case files view offers change email and resend where the state
// allows them, and nowhere else.
func TestCaseFilesOfferSigningRequestActions(t *testing.T) {
	d := New(Config{CaseFiles: func() []signing.CaseFileView {
		return []signing.CaseFileView{{ID: 1, Title: "Deal", Status: "pending", Signers: []signing.SignerView{
			{ID: 2, Name: "Ann", Email: "ann@example.com", Status: "pending", CanChangeEmail: true, CanResend: true},
			{ID: 3, Name: "Bo", Email: "bo@example.com", Status: "signed"},
		}}}
	}})
	w := serve(t, d.HandleCaseFiles, httptest.NewRequest("GET", "/mock/ui/casefiles", nil))
	body := w.Body.String()
	for _, want := range []string{
		`action="/mock/ui/casefiles/1/signers/2/request/email"`, `name="email"`, `value="ann@example.com"`,
		`action="/mock/ui/casefiles/1/signers/2/request/resend"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the view lacks %s", want)
		}
	}
	if strings.Contains(body, "/signers/3/request/") {
		t.Errorf("a signed signer is offered a signing request action:\n%s", body)
	}
}
