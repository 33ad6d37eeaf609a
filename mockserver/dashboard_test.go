package mockserver

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The case files view offers a signer exactly the actions the control API
// allows in its state: each action is tried on a fresh case file in each
// state, through the dashboard's own form.
func TestDashboardOffersWhatTheControlAPIAllows(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	tok := login(t, s, s.DefaultCredentials())
	pdf := sndFile("doc.pdf", SamplePDF("Contract text"))
	// Ann (0) and Bob (1, no email) sign in round 0, Cy (2) in round 1.
	signers := []string{"Ann:ann@example.com:0", "Bob:-:0", "Cy:cy@example.com:1"}
	states := []struct {
		name   string
		signer int
		before []string // actions of Ann, Bob, Cy in turn, "" for none
	}{
		{"pending", 0, nil},
		{"pending without an email", 1, nil},
		{"new", 2, nil},
		{"undeliverable", 0, []string{"undeliverable"}},
		{"signed", 0, []string{"sign"}},
		{"deleted", 2, []string{"", "", "delete"}},
		{"of a rejected case file", 1, []string{"reject"}},
		{"of a completed case file", 0, []string{"sign", "sign", "sign"}},
	}
	type trial struct {
		state, action string
		cf, sg        int64
	}
	var trials []trial
	for _, st := range states {
		for _, action := range []string{"request-opened", "open", "sign", "reject", "bounce", "undeliverable", "delete"} {
			def := sndCase(signers...)
			def["title"] = st.name + ", " + action // a payload of its own: no duplicate
			id, _ := sndRun(t, s, tok, def, pdf)
			ids := signerIDsOf(s, id)
			for i, a := range st.before {
				if a == "" {
					continue
				}
				if err := s.SignerAction(id, ids[i], a); err != nil {
					t.Fatalf("%s: %s of signer %d: %v", st.name, a, i, err)
				}
			}
			trials = append(trials, trial{st.name, action, id, ids[st.signer]})
		}
	}
	page := dashGet(t, s, "/mock/ui/casefiles")
	for _, tr := range trials {
		path := fmt.Sprintf("/mock/ui/casefiles/%d/signers/%d/%s", tr.cf, tr.sg, tr.action)
		offered := strings.Contains(page, `action="`+path+`"`)
		code, loc := dashPost(t, s, path, "")
		if code != http.StatusSeeOther {
			t.Fatalf("signer %s, %s: %d", tr.state, tr.action, code)
		}
		if done := !strings.Contains(loc, "error=1"); done != offered {
			t.Errorf("signer %s: %s offered %v, but the control API says %v (%s)", tr.state, tr.action, offered, done, loc)
		}
	}
}

// The dashboard's answers over HTTP: 200 for the views, 404 to an unknown
// case file or signer, 422 to bad input, nothing with the control API off.
func TestDashboardAnswers(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	for _, p := range []string{"/mock/ui", "/mock/ui/emails", "/mock/ui/casefiles", "/mock/ui/webhooks", "/mock/ui/clock"} {
		if body := dashGet(t, s, p); !strings.Contains(body, `<html lang="en">`) {
			t.Errorf("GET %s: not a page:\n%s", p, body)
		}
	}
	for path, want := range map[string]int{
		"/mock/ui/casefiles/99/signers/1/sign": http.StatusNotFound,
		"/mock/ui/casefiles/x/signers/1/sign":  http.StatusNotFound,
		"/mock/ui/webhooks/replay":             http.StatusUnprocessableEntity,
	} {
		if code, _ := dashPost(t, s, path, ""); code != want {
			t.Errorf("POST %s: %d, want %d", path, code, want)
		}
	}
	if code, loc := dashPost(t, s, "/mock/ui/webhooks/replay", "subscriptionId=s&eventId=e"); code != http.StatusSeeOther || !strings.Contains(loc, "error=1") {
		t.Errorf("replay of an unknown event: %d %q", code, loc)
	}
	before := s.Now()
	if code, _ := dashPost(t, s, "/mock/ui/clock", "amount=-3&unit=days"); code != http.StatusUnprocessableEntity || !s.Now().Equal(before) {
		t.Errorf("advance by -3 days: %d", code)
	}
	if code, loc := dashPost(t, s, "/mock/ui/clock", "amount=90&unit=seconds"); code != http.StatusSeeOther ||
		!strings.HasPrefix(loc, "/mock/ui/clock?") || s.Now().Sub(before) != 90*time.Second {
		t.Errorf("advance by 90 s: %d %q, moved %v", code, loc, s.Now().Sub(before))
	}

	off := newManual(t, WithControlAPI(false))
	if st, _ := do(t, off, newReq(t, off, "GET", "/mock/ui"), nil); st != http.StatusNotFound {
		t.Errorf("/mock/ui with the control API off: %d", st)
	}
}

// dashGet answers the body of a dashboard view, which must answer 200.
func dashGet(t *testing.T, s *Server, path string) string {
	t.Helper()
	st, b := do(t, s, newReq(t, s, "GET", path), nil)
	if st != http.StatusOK {
		t.Fatalf("GET %s: %d", path, st)
	}
	return string(b)
}

// dashPost posts a form to the dashboard as a browser does, without
// following the redirect: the status and the Location.
func dashPost(t *testing.T, s *Server, path, form string) (int, string) {
	t.Helper()
	c := &http.Client{Transport: s.Transport(), CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequest("POST", s.URL()+path, strings.NewReader(form))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", s.URL()) // as the dashboard's page posts its form
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("Location")
}
