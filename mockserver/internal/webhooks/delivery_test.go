package webhooks_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// wantOffsets are the mock-time offsets of the 36 attempts of the spec's
// retry policy: at once, 5, 10, 15, 20, 25 s after the previous one, then
// 30 times an hour after the previous one.
func wantOffsets() []time.Duration {
	offs := []time.Duration{0, 5 * time.Second, 15 * time.Second, 30 * time.Second, 50 * time.Second, 75 * time.Second}
	for i := 1; i <= 30; i++ {
		offs = append(offs, 75*time.Second+time.Duration(i)*time.Hour)
	}
	return offs
}

func TestRetryScheduleDisablesAndNotifies(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	s := newServer(t)
	rc := newReceiver(t, http.StatusInternalServerError)
	_, tok := addUser(t, s, mockserver.UserSpec{Name: "Dev", Email: "dev@example.test"}) // not an admin
	sub := subscribe(t, s, tok, rc.URL(), testEventType)
	sendTestEvent(t, s, tok)
	s.Advance(31 * time.Hour)

	reqs := rc.Requests()
	offs := wantOffsets()
	if len(reqs) != len(offs) {
		t.Fatalf("endpoint got %d attempts, want %d", len(reqs), len(offs))
	}
	eventID := reqs[0].Header.Get("X-Event-Id")
	for i, r := range reqs {
		at, err := verifySignature(sub.Secret, r.Header, r.Body)
		if err != nil {
			t.Fatalf("attempt %d: signature: %v", i+1, err)
		}
		if got := at.Sub(testkit.Epoch); got != offs[i] {
			t.Errorf("attempt %d at offset %v, want %v", i+1, got, offs[i])
		}
		if id := r.Header.Get("X-Event-Id"); id != eventID {
			t.Errorf("attempt %d: X-Event-Id %q, want the first attempt's %q", i+1, id, eventID)
		}
	}
	journal := s.Deliveries()
	if len(journal) != len(offs) {
		t.Fatalf("journal has %d attempts, want %d", len(journal), len(offs))
	}
	for i, d := range journal {
		if d.Attempt != i+1 || d.Outcome != mockserver.OutcomeFailed || d.Status != 500 || !d.At.Equal(testkit.Epoch.Add(offs[i])) ||
			d.SubscriptionID != sub.ID || d.EventID != eventID || d.EventType != testEventType || d.Error == "" {
			t.Errorf("journal entry %d = %+v", i, d)
		}
	}

	tok = adminToken(t, s) // the first token expired hours ago
	var got subscriptionJSON
	sdkCall(t, s, "GET", "/webhook/api/v1/subscriptions/"+sub.ID, tok, nil, &got)
	if got.IsActive {
		t.Error("subscription still active after 36 failed attempts")
	}
	for _, to := range []string{"dev@example.test", "admin@example.test"} {
		mails := s.EmailsTo(to)
		if len(mails) != 1 || !strings.Contains(mails[0].Text, sub.ID) || !strings.Contains(mails[0].Subject, "disabled") {
			t.Errorf("emails to %s: %+v, want one notification naming the subscription", to, mails)
		}
	}
	s.Advance(48 * time.Hour)
	if n := len(rc.Requests()); n != len(offs) {
		t.Errorf("after disabling, the endpoint got %d attempts in all, want %d", n, len(offs))
	}
	if took := time.Since(realStart); took > 2*time.Second {
		t.Errorf("the test took %v of real time, want under 2 s", took)
	}
}

func TestNotificationGoesOnceToAdminCreator(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	rc := newReceiver(t, http.StatusServiceUnavailable)
	_, _ = addUser(t, s, mockserver.UserSpec{Name: "Second admin", Email: "boss@example.test", Admin: true})
	_, _ = addUser(t, s, mockserver.UserSpec{Name: "Other customer admin", Email: "far@example.test", Admin: true, NewCustomer: true})
	tok := adminToken(t, s)
	subscribe(t, s, tok, rc.URL(), testEventType)
	sendTestEvent(t, s, tok)
	s.Advance(31 * time.Hour)
	for to, want := range map[string]int{"admin@example.test": 1, "boss@example.test": 1, "far@example.test": 0} {
		if n := len(s.EmailsTo(to)); n != want {
			t.Errorf("%s got %d notifications, want %d", to, n, want)
		}
	}
}

func TestReenabledSubscriptionGetsNewEventsOnly(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	rc := newReceiver(t, http.StatusBadGateway)
	tok := adminToken(t, s)
	sub := subscribe(t, s, tok, rc.URL(), testEventType)
	sendTestEvent(t, s, tok)
	s.Advance(31 * time.Hour)
	first := rc.Requests()[0].Header.Get("X-Event-Id")

	rc.SetStatus(http.StatusNoContent)
	tok = adminToken(t, s)
	var put subscriptionJSON
	st, b := sdkCall(t, s, "PUT", "/webhook/api/v1/subscriptions/"+sub.ID, tok,
		map[string]any{"endpoint": rc.URL(), "eventTypes": []string{testEventType}, "isActive": true}, &put)
	if st != http.StatusOK || !put.IsActive {
		t.Fatalf("re-enable: %d %s", st, b)
	}
	s.Advance(3 * time.Hour)
	if n := len(rc.Requests()); n != 36 {
		t.Fatalf("after re-enabling, old event redelivered: %d attempts, want 36", n)
	}
	sendTestEvent(t, s, adminToken(t, s))
	s.Advance(0)
	reqs := rc.Requests()
	if len(reqs) != 37 || reqs[36].Header.Get("X-Event-Id") == first {
		t.Fatalf("new event after re-enabling: %d requests in all", len(reqs))
	}
	if last := s.Deliveries()[36]; last.Outcome != mockserver.OutcomeDelivered || last.Status != http.StatusNoContent || last.Attempt != 1 {
		t.Errorf("new event's delivery = %+v", last)
	}
}

func TestSignedDeliveryVerifies(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	rc := newReceiver(t, http.StatusNoContent)
	tok := adminToken(t, s)
	sub := subscribe(t, s, tok, rc.URL(), testEventType)
	s.Advance(90 * time.Second) // the signature's t is the mock time of the attempt
	sendTestEvent(t, s, tok)
	s.Advance(0)
	reqs := rc.Requests()
	if len(reqs) != 1 {
		t.Fatalf("endpoint got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	at, err := verifySignature(sub.Secret, r.Header, r.Body)
	if err != nil {
		t.Fatalf("signature does not verify: %v (header %q)", err, r.Header.Get("X-Event-Signature"))
	}
	if !at.Equal(testkit.Epoch.Add(90 * time.Second)) {
		t.Errorf("t = %v, want the mock time %v", at, testkit.Epoch.Add(90*time.Second))
	}
	if _, err := verifySignature(sub.Secret+"x", r.Header, r.Body); err == nil {
		t.Error("the signature verifies with a wrong secret too")
	}
	if !strings.Contains(r.Header.Get("X-Event-Signature"), ",h=content-type x-event-id x-event-type,") {
		t.Errorf("h is not the spec's header list: %q", r.Header.Get("X-Event-Signature"))
	}
	if ct, typ, id := r.Header.Get("Content-Type"), r.Header.Get("X-Event-Type"), r.Header.Get("X-Event-Id"); ct != "application/json" ||
		typ != testEventType || !uuidRE.MatchString(id) {
		t.Errorf("headers: Content-Type %q, X-Event-Type %q, X-Event-Id %q", ct, typ, id)
	}
	var body struct {
		Topic, EventType string
		EventTime        struct {
			Date, Timezone string
			TimezoneType   int `json:"timezone_type"`
		}
		Payload string
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("body %s: %v", r.Body, err)
	}
	if body.Topic != "subscription" || body.EventType != "test" || body.Payload == "" ||
		body.EventTime.Date != "2026-11-22 10:01:30.000000" || body.EventTime.Timezone != "UTC" {
		t.Errorf("test event body = %s", r.Body)
	}
	if d := s.Deliveries(); len(d) != 1 || d[0].Outcome != mockserver.OutcomeDelivered || d[0].EventID != r.Header.Get("X-Event-Id") {
		t.Errorf("journal = %+v", d)
	}
}

// closedPortURL answers an http URL on loopback where nothing listens.
func closedPortURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + l.Addr().String() + "/hook"
	_ = l.Close()
	return u
}

// outcomeCase is one endpoint behaviour and the attempt it must produce.
type outcomeCase struct {
	name       string
	status     int
	handle     func(w http.ResponseWriter, r *http.Request)
	closed     bool
	wantOut    string
	wantStatus int
	wantErr    string
	wantMs     [2]int64 // bounds of durationMs, 0 = unchecked
}

func TestDeliveryOutcomes(t *testing.T) {
	t.Parallel()
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(1500 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusOK)
	}
	tests := []outcomeCase{
		{name: "204 acknowledges", status: 204, wantOut: mockserver.OutcomeDelivered, wantStatus: 204},
		{name: "200 with a body acknowledges", handle: func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`{"ok":true}`))
		}, wantOut: mockserver.OutcomeDelivered, wantStatus: 200},
		{name: "201 acknowledges", status: 201, wantOut: mockserver.OutcomeDelivered, wantStatus: 201},
		{name: "answer after 1.5 s times out", handle: slow, wantOut: mockserver.OutcomeFailed, wantErr: "within 1s",
			wantMs: [2]int64{1000, 1400}},
		{name: "302 is not followed", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		}, wantOut: mockserver.OutcomeFailed, wantStatus: 302, wantErr: "302"},
		{name: "closed port", closed: true, wantOut: mockserver.OutcomeFailed, wantErr: "refused"},
		{name: "404 fails", status: 404, wantOut: mockserver.OutcomeFailed, wantStatus: 404, wantErr: "404"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkOutcome(t, tc)
		})
	}
}

// checkOutcome delivers one test event to the case's endpoint and checks
// the journaled attempt.
func checkOutcome(t *testing.T, tc outcomeCase) {
	s := newServer(t)
	rc := newReceiver(t, tc.status)
	rc.Handle = tc.handle
	endpoint := rc.URL()
	if tc.closed {
		endpoint = closedPortURL(t)
	}
	tok := adminToken(t, s)
	sub := subscribe(t, s, tok, endpoint, testEventType)
	sendTestEvent(t, s, tok)
	s.Advance(0)
	d := s.Deliveries()
	if len(d) != 1 {
		t.Fatalf("journal has %d attempts, want 1: %+v", len(d), d)
	}
	got := d[0]
	if got.Outcome != tc.wantOut || got.Status != tc.wantStatus || !strings.Contains(got.Error, tc.wantErr) {
		t.Errorf("attempt = %+v, want outcome %s, status %d, error containing %q", got, tc.wantOut, tc.wantStatus, tc.wantErr)
	}
	if tc.wantMs[1] > 0 && (got.DurationMs < tc.wantMs[0] || got.DurationMs > tc.wantMs[1]) {
		t.Errorf("durationMs = %d, want within %v", got.DurationMs, tc.wantMs)
	}
	if strings.Contains(got.Error, sub.Secret) {
		t.Error("the journal's error text holds the secret")
	}
	if tc.wantOut == mockserver.OutcomeDelivered && got.Error != "" {
		t.Errorf("delivered attempt with error %q", got.Error)
	}
	if n := len(rc.Requests()); !tc.closed && n != 1 {
		t.Errorf("the endpoint got %d requests, want 1 (a redirect is not followed)", n)
	}
}

func TestSlowEndpointDoesNotDelayOthers(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	slow := newReceiver(t, 0)
	slow.Handle = func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	fast := newReceiver(t, http.StatusNoContent)
	tok := adminToken(t, s)
	subscribe(t, s, tok, slow.URL(), testEventType)
	subscribe(t, s, tok, fast.URL(), testEventType)
	start := time.Now()
	sendTestEvent(t, s, tok)
	select {
	case <-fast.Got:
	case <-time.After(700 * time.Millisecond):
		t.Fatalf("the fast endpoint waited for the slow one: %d requests after %v", len(fast.Requests()), time.Since(start))
	}
	s.Advance(0)
	if d := s.Deliveries(); len(d) != 2 {
		t.Errorf("journal = %+v, want one delivered and one timed-out attempt", d)
	}
}

func TestDeliveriesKeepOrderPerSubscription(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	rc := newReceiver(t, http.StatusOK)
	tok := adminToken(t, s)
	subscribe(t, s, tok, rc.URL(), "sign.casefile.completed")
	const n = 50
	for i := range n {
		testkit.Core(s).Webhooks.Publish(webhooks.Event{CustomerID: mockserver.DefaultCustomerID, Type: "sign.casefile.completed",
			Body: fmt.Appendf(nil, `{"n":%d}`, i)})
	}
	s.Advance(0)
	reqs := rc.Requests()
	if len(reqs) != n {
		t.Fatalf("got %d deliveries, want %d", len(reqs), n)
	}
	for i, r := range reqs {
		if want := fmt.Sprintf(`{"n":%d}`, i); string(r.Body) != want {
			t.Fatalf("delivery %d carried %s, want %s", i, r.Body, want)
		}
	}
}

func TestEventsOfOtherUsersCaseFilesAreDelivered(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	rc := newReceiver(t, http.StatusNoContent)
	subscribe(t, s, adminToken(t, s), rc.URL(), "sign.casefile.completed", "sign.signer.signed")
	colleague, _ := addUser(t, s, mockserver.UserSpec{Name: "Colleague", Email: "colleague@example.test"})
	stranger, _ := addUser(t, s, mockserver.UserSpec{Name: "Stranger", Email: "stranger@example.test", NewCustomer: true})

	mine := &testkit.CaseFile{Title: "colleague's", UserID: colleague.UserID, CustomerID: colleague.CustomerID, Status: 5}
	theirs := &testkit.CaseFile{Title: "another customer's", UserID: stranger.UserID, CustomerID: stranger.CustomerID, Status: 5}
	signing := testkit.Core(s).Signing
	signing.Add(mine)
	signing.Add(theirs)
	signing.EmitCaseFile(mine, "sign.casefile.completed")
	signing.EmitCaseFile(theirs, "sign.casefile.completed")
	signing.EmitCaseFile(mine, "sign.casefile.rejected") // not subscribed
	s.Advance(0)

	reqs := rc.Requests()
	if len(reqs) != 1 {
		t.Fatalf("got %d deliveries, want 1 (the colleague's completed case file)", len(reqs))
	}
	var body struct {
		Topic, EventType string
		Payload          struct{ ID int64 }
	}
	_ = json.Unmarshal(reqs[0].Body, &body)
	if body.Topic != "casefile" || body.EventType != "completed" || body.Payload.ID != mine.ID {
		t.Errorf("delivered %s, want case file %d completed", reqs[0].Body, mine.ID)
	}
}

func TestRealClockRunsTheSchedule(t *testing.T) {
	t.Parallel()
	s := mockserver.New()
	t.Cleanup(s.Close)
	rc := newReceiver(t, http.StatusInternalServerError)
	tok := adminToken(t, s)
	subscribe(t, s, tok, rc.URL(), testEventType)
	sendTestEvent(t, s, tok)
	select {
	case <-rc.Got:
	case <-time.After(2 * time.Second):
		t.Fatal("no first attempt with the real clock")
	}
	s.Advance(5 * time.Second) // moves the real clock's mock time: the first retry falls due
	if n := len(rc.Requests()); n != 2 {
		t.Fatalf("after 5 s of mock time: %d attempts, want 2", n)
	}
	if d := s.Deliveries(); len(d) != 2 || d[1].Attempt != 2 || d[1].At.Sub(d[0].At) < 5*time.Second {
		t.Errorf("journal = %+v", d)
	}
}

func TestResetForgetsWebhookState(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	rc := newReceiver(t, http.StatusInternalServerError)
	tok := adminToken(t, s)
	subscribe(t, s, tok, rc.URL(), testEventType)
	sendTestEvent(t, s, tok)
	s.Advance(time.Minute)
	if err := s.InjectFault(mockserver.Fault{Path: "/collect/*", Status: 503}); err != nil {
		t.Fatal(err)
	}
	s.Reset()
	s.Advance(48 * time.Hour)
	if n := len(rc.Requests()); n != 5 {
		t.Errorf("attempts went on after reset: %d, want the 5 made before it", n)
	}
	if len(s.Deliveries()) != 0 || len(s.Faults()) != 0 {
		t.Errorf("after reset: %d deliveries, %d faults", len(s.Deliveries()), len(s.Faults()))
	}
	tok = adminToken(t, s)
	var page struct{ Items []subscriptionJSON }
	sdkCall(t, s, "GET", "/webhook/api/v1/subscriptions", tok, nil, &page)
	if len(page.Items) != 0 {
		t.Errorf("after reset: %d subscriptions", len(page.Items))
	}
}

func TestHTTPSEndpointWithTrustedCertificate(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(ts.Close)
	tok := adminToken(t, s)
	subscribe(t, s, tok, ts.URL+"/hook", testEventType)
	sendTestEvent(t, s, tok) // the test certificate is not trusted yet
	s.Advance(0)
	s.SetWebhookTLSConfig(ts.Client().Transport.(*http.Transport).TLSClientConfig)
	s.Advance(5 * time.Second) // the retry
	d := s.Deliveries()
	if len(d) != 2 || d[0].Outcome != mockserver.OutcomeFailed || !strings.Contains(d[0].Error, "certificate") ||
		d[1].Outcome != mockserver.OutcomeDelivered || d[1].Attempt != 2 {
		t.Errorf("journal = %+v, want a certificate failure, then the retry delivered", d)
	}
}

// TestDeliveryIsJournaledBeforeTheReceiverGetsIt: a receiver that reads the
// deliveries journal on getting an event, before it answers, finds the attempt
// there, pending, through Server.Deliveries and through GET /mock/deliveries
// alike; once it has answered, the same entry is delivered. Journaling the
// attempt only after the answer made such a receiver miss it
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#webhook-delivery).
func TestDeliveryIsJournaledBeforeTheReceiverGetsIt(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	rc := newReceiver(t, 0)
	var mu sync.Mutex
	var problems []string
	complain := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	pending := func(list []mockserver.Delivery, id string) bool {
		for _, d := range list {
			if d.EventID == id && d.Outcome == mockserver.OutcomePending && d.Status == 0 && d.Error == "" {
				return true
			}
		}
		return false
	}
	rc.Handle = func(w http.ResponseWriter, r *http.Request) {
		defer w.WriteHeader(http.StatusNoContent)
		id := r.Header.Get("X-Event-Id")
		if !pending(s.Deliveries(), id) {
			complain("Deliveries() inside the receiver does not list event %s as pending: %+v", id, s.Deliveries())
		}
		req, err := http.NewRequest(http.MethodGet, s.URL()+"/mock/deliveries?eventId="+id, nil)
		if err != nil {
			complain("%v", err)
			return
		}
		resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
		if err != nil {
			complain("GET /mock/deliveries: %v", err)
			return
		}
		defer resp.Body.Close()
		var listed struct {
			Items []mockserver.Delivery `json:"items"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&listed); err != nil || resp.StatusCode != http.StatusOK ||
			!pending(listed.Items, id) {
			complain("GET /mock/deliveries inside the receiver: %d %+v %v", resp.StatusCode, listed.Items, err)
		}
	}
	subscribe(t, s, tok, rc.URL(), testEventType)
	const events = 50
	for i := range events {
		sendTestEvent(t, s, tok)
		s.Advance(0) // returns once the attempt has ended
		d := s.Deliveries()
		if len(d) != i+1 || d[i].Outcome != mockserver.OutcomeDelivered || d[i].Status != http.StatusNoContent || d[i].Attempt != 1 {
			t.Fatalf("after event %d the journal is %+v, want %d attempts, the last delivered", i+1, d, i+1)
		}
	}
	if n := len(rc.Requests()); n != events {
		t.Fatalf("the receiver got %d events, want %d", n, events)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
}
