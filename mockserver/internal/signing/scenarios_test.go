package signing_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// step is one step of a scenario: a signer action through the control
// API or the signing page, or a move of the clock; want lists the events
// the step must emit, exactly and in order.
type step struct {
	signer  string
	action  string // a control action, or page-open, page-sign, page-reject
	advance time.Duration
	status  int // expected HTTP status of the action; 0 means 200
	want    []string
}

// runStep runs one step and answers the HTTP status of its action.
func runStep(t *testing.T, s *mockserver.Server, id int64, links map[string]string, st step) int {
	t.Helper()
	if st.advance > 0 {
		s.Advance(st.advance)
		return http.StatusOK
	}
	link := strings.TrimPrefix(links[st.signer], s.URL())
	switch st.action {
	case "page-open":
		code, _ := testkit.Call(t, s, "GET", link, "", nil, nil)
		return code
	case "page-sign", "page-reject":
		form := url.Values{"action": {strings.TrimPrefix(st.action, "page-")}, "confirm": {"yes"}} // a confirmed reject
		req, err := http.NewRequest("POST", s.URL()+link, strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		code, _ := testkit.Do(t, s, req, nil)
		return code
	}
	path := fmt.Sprintf("/mock/casefiles/%d/signers/%d/%s", id, testkit.SignerID(t, s, id, st.signer), st.action)
	code, _ := testkit.Call(t, s, "POST", path, "", nil, nil)
	return code
}

// scenario is a signing scenario: a case file, the events of its
// activation, steps, and the end state.
type scenario struct {
	name       string
	cf         map[string]any
	activation []string
	steps      []step
	status     int // case file status at the end
	emails     int // emails in the outbox at the end
}

// scenarios are signing scenarios: rounds, rejection, the signing page,
// reminders, expiry, email events and deleted signers.
func scenarios() []scenario {
	reminding := testkit.CaseDef("Ann:ann@example.com")
	reminding["signers"].([]any)[0].(map[string]any)["reminderInterval"] = 1
	expiring := testkit.CaseDef("Ann:ann@example.com")
	expiring["expireAt"] = testkit.Epoch.Add(2 * day).Format(time.RFC3339)
	return []scenario{
		{name: "one signer", cf: testkit.CaseDef("Ann:ann@example.com"),
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann"},
			steps: []step{{signer: "Ann", action: "sign",
				want: []string{"signer.signed:Ann", "casefile.completed", "signer.finalized:Ann"}}},
			status: testkit.CaseCompleted, emails: 2},
		{name: "two signers in rounds 0 and 1", cf: testkit.CaseDef("Ann:ann@example.com:0", "Bob:bob@example.com:1"),
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann"},
			steps: []step{
				{signer: "Bob", action: "sign", status: http.StatusConflict},
				{signer: "Ann", action: "sign", want: []string{"signer.signed:Ann", "signer.requestActivated:Bob", "signer.requestSent:Bob"}},
				{signer: "Bob", action: "sign", want: []string{"signer.signed:Bob", "casefile.completed",
					"signer.finalized:Ann", "signer.finalized:Bob"}}},
			status: testkit.CaseCompleted, emails: 4},
		{name: "two signers in the same round", cf: testkit.CaseDef("Ann:ann@example.com", "Bob:bob@example.com"),
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann",
				"signer.requestActivated:Bob", "signer.requestSent:Bob"},
			steps: []step{
				{signer: "Bob", action: "sign", want: []string{"signer.signed:Bob"}},
				{signer: "Ann", action: "sign", want: []string{"signer.signed:Ann", "casefile.completed",
					"signer.finalized:Ann", "signer.finalized:Bob"}}},
			status: testkit.CaseCompleted, emails: 4},
		{name: "rejection mid-round", cf: testkit.CaseDef("Ann:ann@example.com:0", "Bob:bob@example.com:0", "Cy:cy@example.com:1"),
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann",
				"signer.requestActivated:Bob", "signer.requestSent:Bob"},
			steps: []step{
				{signer: "Ann", action: "sign", want: []string{"signer.signed:Ann"}},
				{signer: "Bob", action: "reject", want: []string{"signer.rejected:Bob", "casefile.rejected"}},
				{signer: "Cy", action: "sign", status: http.StatusConflict},
				{advance: 30 * day}},
			status: testkit.CaseRejected, emails: 2},
		{name: "signer without email signs on the signing page", cf: testkit.CaseDef("Ann:-"),
			activation: []string{"signer.requestActivated:Ann"},
			steps: []step{
				{signer: "Ann", action: "page-open", want: []string{"signer.opened:Ann"}},
				{signer: "Ann", action: "bounce", status: http.StatusConflict},
				{signer: "Ann", action: "page-sign", want: []string{"signer.signed:Ann", "casefile.completed", "signer.finalized:Ann"}}},
			status: testkit.CaseCompleted, emails: 0},
		{name: "reminders over 3 days with interval 1", cf: reminding,
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann"},
			steps: []step{
				{advance: 3 * day, want: []string{"signer.reminderSent:Ann", "signer.reminderSent:Ann", "signer.reminderSent:Ann"}},
				{signer: "Ann", action: "sign", want: []string{"signer.signed:Ann", "casefile.completed", "signer.finalized:Ann"}},
				{advance: 5 * day}},
			status: testkit.CaseCompleted, emails: 5},
		{name: "expiry", cf: expiring,
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann"},
			steps: []step{
				{advance: 2*day - 2*time.Second},
				{advance: time.Second, want: []string{"casefile.expired"}},
				{signer: "Ann", action: "sign", status: http.StatusConflict}},
			status: testkit.CaseExpired, emails: 1},
		{name: "email events, undeliverable, then signing", cf: testkit.CaseDef("Ann:ann@example.com"),
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann"},
			steps: []step{
				{signer: "Ann", action: "request-opened", want: []string{"signer.requestOpened:Ann"}},
				{signer: "Ann", action: "open", want: []string{"signer.opened:Ann"}},
				{signer: "Ann", action: "bounce", want: []string{"signer.transientBounce:Ann"}},
				{signer: "Ann", action: "undeliverable", want: []string{"signer.undeliverable:Ann"}},
				{signer: "Ann", action: "undeliverable", status: http.StatusConflict},
				{signer: "Ann", action: "sign", want: []string{"signer.signed:Ann", "casefile.completed", "signer.finalized:Ann"}},
				{signer: "Ann", action: "open", status: http.StatusConflict}},
			status: testkit.CaseCompleted, emails: 2},
		{name: "a signer deleted before their round is skipped; one asked to sign cannot be deleted",
			cf:         testkit.CaseDef("Ann:ann@example.com:0", "Bob:bob@example.com:1", "Cy:-:2"),
			activation: []string{"signer.requestActivated:Ann", "signer.requestSent:Ann"},
			steps: []step{
				{signer: "Ann", action: "delete", status: http.StatusConflict},
				{signer: "Bob", action: "delete", want: []string{"signer.deleted:Bob"}},
				{signer: "Ann", action: "sign", want: []string{"signer.signed:Ann", "signer.requestActivated:Cy"}},
				{signer: "Cy", action: "delete", status: http.StatusConflict},
				{signer: "Cy", action: "page-reject", want: []string{"signer.rejected:Cy", "casefile.rejected"}}},
			status: testkit.CaseRejected, emails: 1},
	}
}

func TestSigningScenarios(t *testing.T) {
	t.Parallel()
	for _, tc := range scenarios() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, tok, file := newMock(t, mockserver.WithJobDelay(time.Second)) // the steps count from a job that runs 1 s after creation
			id, list := testkit.RunCase(t, s, tok, tc.cf, file)
			links := map[string]string{}
			for _, l := range list {
				links[l.Name] = l.SigningLink
			}
			seen := testkit.EventTrail(t, s, id)
			if !slices.Equal(seen, tc.activation) {
				t.Fatalf("activation events = %q, want %q", seen, tc.activation)
			}
			for i, st := range tc.steps {
				code := runStep(t, s, id, links, st)
				if want := max(st.status, http.StatusOK); code != want {
					t.Fatalf("step %d (%s %s): status %d, want %d", i, st.signer, st.action, code, want)
				}
				all := testkit.EventTrail(t, s, id)
				if got := all[len(seen):]; !slices.Equal(got, st.want) && (len(got) > 0 || len(st.want) > 0) {
					t.Fatalf("step %d (%s %s %v): events %q, want %q", i, st.signer, st.action, st.advance, got, st.want)
				}
				seen = all
			}
			if status := testkit.CaseStatus(s, id); status != tc.status {
				t.Errorf("case file status %d, want %d", status, tc.status)
			}
			if n := len(s.Emails()); n != tc.emails {
				t.Errorf("%d emails, want %d: %+v", n, tc.emails, s.Emails())
			}
		})
	}
}
