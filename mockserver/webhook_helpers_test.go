package mockserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// whEpoch is where the manual clock of the webhook tests starts.
var whEpoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// whServer is a manual-clock server for the webhook tests.
func whServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := New(append([]Option{WithManualClock(whEpoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s
}

// whCall sends a JSON request in process with the headers the SDK sends to
// the webhook service (Authorization: Bearer, Accept, Accept-Charset) and
// decodes a JSON answer into out when out is not nil.
func whCall(t testing.TB, s *Server, method, path, token string, body, out any) (int, []byte) {
	t.Helper()
	req := jsonRequest(t, s, method, path, body)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Accept-Charset", "utf-8")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, s, req, out)
}

// whAdminToken logs in as the default admin.
func whAdminToken(t testing.TB, s *Server) string {
	t.Helper()
	return login(t, s, s.DefaultCredentials())
}

// whUser adds a user through POST /mock/users and logs in as it.
func whUser(t testing.TB, s *Server, spec UserSpec) (UserCredentials, string) {
	t.Helper()
	var c UserCredentials
	if st, b := whCall(t, s, "POST", "/mock/users", "", spec, &c); st != http.StatusCreated {
		t.Fatalf("POST /mock/users: %d %s", st, b)
	}
	return c, login(t, s, c)
}

// whSubscribe creates a subscription and fails the test unless it is 201.
// subscriptionJSON is the wire shape of a subscription, as a client
// decodes it.
type subscriptionJSON struct {
	CustomerID int64    `json:"customerId"`
	ID         string   `json:"id"`
	IsActive   bool     `json:"isActive"`
	Secret     string   `json:"secret"`
	EventTypes []string `json:"eventTypes"`
	Endpoint   string   `json:"endpoint"`
}

// testEventType is the event type of the on-demand test event.
const testEventType = "webhook.subscription.test"

func whSubscribe(t testing.TB, s *Server, token, endpoint string, types ...string) subscriptionJSON {
	t.Helper()
	var sub subscriptionJSON
	st, b := whCall(t, s, "POST", "/webhook/api/v1/subscriptions", token,
		map[string]any{"endpoint": endpoint, "eventTypes": types}, &sub)
	if st != http.StatusCreated {
		t.Fatalf("create subscription for %s: %d %s", endpoint, st, b)
	}
	return sub
}

// whTestEvent asks for a test event and fails the test unless it is 204.
func whTestEvent(t testing.TB, s *Server, token string) {
	t.Helper()
	if st, b := whCall(t, s, "POST", "/webhook/api/v1/subscriptions/test", token, nil, nil); st != http.StatusNoContent {
		t.Fatalf("test event: %d %s", st, b)
	}
}

// received is one request a receiver got.
type received struct {
	Header http.Header
	Body   []byte
	Real   time.Time
}

// receiver is a loopback HTTP endpoint that records what it gets and
// answers with status (or runs handle when set).
type receiver struct {
	srv    *httptest.Server
	status atomic.Int64
	handle func(w http.ResponseWriter, r *http.Request)

	mu   sync.Mutex
	reqs []received
	got  chan struct{} // one value per request, when buffered
}

func newReceiver(t testing.TB, status int) *receiver {
	t.Helper()
	rc := &receiver{got: make(chan struct{}, 1024)}
	rc.status.Store(int64(status))
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, received{Header: r.Header.Clone(), Body: body, Real: time.Now()})
	rc.mu.Unlock()
	select {
	case rc.got <- struct{}{}:
	default:
	}
	if rc.handle != nil {
		rc.handle(w, r)
		return
	}
	w.WriteHeader(int(rc.status.Load()))
}

func (rc *receiver) setStatus(code int) { rc.status.Store(int64(code)) }

func (rc *receiver) URL() string { return rc.srv.URL + "/hook" }

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.reqs...)
}

// verifySignature checks a delivery the way the spec tells receivers to,
// written independently of the SDK: it parses t, h and v1, rebuilds
// t "." h "." header values joined by "." "." body, and compares the
// HMAC-SHA256 in constant time. It answers the signature's time.
func verifySignature(secret string, h http.Header, body []byte) (time.Time, error) {
	var ts, names, v1 string
	for pair := range strings.SplitSeq(h.Get("X-Event-Signature"), ",") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok {
			return time.Time{}, errors.New("malformed pair " + pair)
		}
		switch k {
		case "t":
			ts = v
		case "h":
			names = v
		case "v1":
			v1 = v
		}
	}
	if ts == "" || names == "" || v1 == "" {
		return time.Time{}, errors.New("t, h or v1 missing")
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	var values []string
	for name := range strings.SplitSeq(names, " ") {
		values = append(values, h.Get(name))
	}
	msg := ts + "." + names + "." + strings.Join(values, ".") + "." + string(body)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(msg))
	got, err := hex.DecodeString(v1)
	if err != nil {
		return time.Time{}, err
	}
	if !hmac.Equal(got, mac.Sum(nil)) {
		return time.Time{}, errors.New("signature mismatch")
	}
	return time.Unix(unix, 0).UTC(), nil
}

// outboxEmail is an email as GET /mock/emails lists it.
type outboxEmail struct {
	To      string `json:"to"`
	Subject string `json:"subject"`
	Text    string `json:"text"`
}

// emailsTo answers the emails of GET /mock/emails to one address.
func emailsTo(t testing.TB, s *Server, to string) []outboxEmail {
	t.Helper()
	var page struct {
		Items []outboxEmail `json:"items"`
	}
	if st, b := whCall(t, s, "GET", "/mock/emails", "", nil, &page); st != http.StatusOK {
		t.Fatalf("GET /mock/emails: %d %s", st, b)
	}
	var out []outboxEmail
	for _, e := range page.Items {
		if e.To == to {
			out = append(out, e)
		}
	}
	return out
}
