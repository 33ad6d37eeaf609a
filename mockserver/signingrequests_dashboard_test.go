package mockserver

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The dashboard offers change email and resend exactly where the signing
// service's routes allow them, and both take effect as the routes do.
func TestDashboardSigningRequestActions(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	tok := login(t, s, s.DefaultCredentials())
	pdf := sndFile("doc.pdf", SamplePDF("Contract text"))
	// Ann (0) and Bob (1, no email) sign in round 0, Cy (2) in round 1.
	signers := []string{"Ann:ann@example.com:0", "Bob:-:0", "Cy:cy@example.com:1"}
	for _, st := range []struct {
		name          string
		signer        int
		before        []string // actions of Ann, Bob, Cy in turn, "" for none
		email, resend bool     // what the state allows
	}{
		{"pending", 0, nil, true, true},
		{"pending without an email", 1, nil, true, false},
		{"new", 2, nil, true, false},
		{"undeliverable", 0, []string{"undeliverable"}, true, true},
		{"signed", 0, []string{"sign"}, false, false},
		{"of a rejected case file", 1, []string{"reject"}, false, false},
	} {
		def := sndCase(signers...)
		def["title"] = "Signing requests: " + st.name
		id, _ := sndRun(t, s, tok, def, pdf)
		ids := signerIDsOf(s, id)
		for i, a := range st.before {
			if a != "" {
				if err := s.SignerAction(id, ids[i], a); err != nil {
					t.Fatalf("%s: %s: %v", st.name, a, err)
				}
			}
		}
		page := dashGet(t, s, "/mock/ui/casefiles")
		base := fmt.Sprintf("/mock/ui/casefiles/%d/signers/%d/request/", id, ids[st.signer])
		if got := strings.Contains(page, `action="`+base+`email"`); got != st.email {
			t.Errorf("%s: change email offered %v, want %v", st.name, got, st.email)
		}
		if got := strings.Contains(page, `action="`+base+`resend"`); got != st.resend {
			t.Errorf("%s: resend offered %v, want %v", st.name, got, st.resend)
		}
		before := len(s.Emails())
		code, loc := dashPost(t, s, base+"resend", "")
		if done := code == http.StatusSeeOther && !strings.Contains(loc, "error=1"); done != st.resend {
			t.Errorf("%s: resend %d %q, want done %v", st.name, code, loc, st.resend)
		}
		if sent := len(s.Emails()) - before; (sent == 1) != st.resend {
			t.Errorf("%s: resend sent %d emails", st.name, sent)
		}
		addr := fmt.Sprintf("new-%d@example.com", id)
		code, loc = dashPost(t, s, base+"email", url.Values{"email": {addr}}.Encode())
		if done := code == http.StatusSeeOther && !strings.Contains(loc, "error=1"); done != st.email {
			t.Errorf("%s: change email %d %q, want done %v", st.name, code, loc, st.email)
		}
		var now string
		testkit.Inspect(s, id, func(cf *caseFile) { now = cf.Signers[st.signer].Email })
		if (now == addr) != st.email {
			t.Errorf("%s: the signer's email is %q", st.name, now)
		}
	}
	// Bad input and unknown ids.
	for path, want := range map[string]int{
		"/mock/ui/casefiles/99/signers/1/request/email":  http.StatusNotFound,
		"/mock/ui/casefiles/x/signers/1/request/resend":  http.StatusNotFound,
		"/mock/ui/casefiles/99/signers/1/request/resend": http.StatusNotFound,
	} {
		if code, _ := dashPost(t, s, path, "email=a%40example.com"); code != want {
			t.Errorf("POST %s: %d, want %d", path, code, want)
		}
	}
	id, _ := sndRun(t, s, tok, sndCase("Dee:dee@example.com"), pdf)
	path := fmt.Sprintf("/mock/ui/casefiles/%d/signers/%d/request/email", id, signerIDsOf(s, id)[0])
	if code, loc := dashPost(t, s, path, "email=not+an+address"); code != http.StatusSeeOther || !strings.Contains(loc, "error=1") {
		t.Errorf("a bad address: %d %q", code, loc)
	}
}

// The dashboard's forms need the page's own Origin, as its other forms do.
func TestDashboardSigningRequestActionsNeedTheOrigin(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	tok := login(t, s, s.DefaultCredentials())
	id, _ := sndRun(t, s, tok, sndCase("Ann:ann@example.com"), sndFile("doc.pdf", SamplePDF("Contract text")))
	signer := fmt.Sprintf("%s/mock/ui/casefiles/%d/signers/%d/request/", s.URL(), id, signerIDsOf(s, id)[0])
	for _, try := range []struct{ path, origin, body string }{
		{signer + "resend", "", ""},
		{signer + "resend", "https://evil.example", ""},
		{signer + "email", "", "email=eve%40evil.example"},
		{signer + "email", "https://evil.example", "email=eve%40evil.example"},
	} {
		path, origin := try.path, try.origin
		req, err := http.NewRequest("POST", path, strings.NewReader(try.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s, Origin %q: %d, want 403", path, origin, resp.StatusCode)
		}
	}
	if n := len(s.EmailsTo("ann@example.com")); n != 1 {
		t.Errorf("%d emails to Ann, want the first request only", n)
	}
	if _, d := testkit.GetAccept(t, s, fmt.Sprintf("/api/v1/casefiles/%d", id), tok, ""); !bytes.Contains(d, []byte("ann@example.com")) ||
		bytes.Contains(d, []byte("evil.example")) {
		t.Errorf("the signer's email changed without the page's Origin: %s", d)
	}
}
