package testkit

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

// Subscription is the wire shape of a webhook subscription, as a client
// decodes it.
type Subscription struct {
	CustomerID int64    `json:"customerId"`
	ID         string   `json:"id"`
	IsActive   bool     `json:"isActive"`
	Secret     string   `json:"secret"`
	EventTypes []string `json:"eventTypes"`
	Endpoint   string   `json:"endpoint"`
}

// Subscribe creates a subscription of endpoint to the event types, failing
// the test unless the answer is 201.
func Subscribe(t testing.TB, s Server, token, endpoint string, types ...string) Subscription {
	t.Helper()
	var sub Subscription
	st, b := SDKCall(t, s, "POST", SubscriptionsPath, token,
		map[string]any{"endpoint": endpoint, "eventTypes": types}, &sub)
	if st != http.StatusCreated {
		t.Fatalf("create subscription for %s: %d %s", endpoint, st, b)
	}
	return sub
}

// SendTestEvent asks for a test event, failing the test unless the answer is
// 204.
func SendTestEvent(t testing.TB, s Server, token string) {
	t.Helper()
	if st, b := SDKCall(t, s, "POST", SubscriptionsPath+"/test", token, nil, nil); st != http.StatusNoContent {
		t.Fatalf("test event: %d %s", st, b)
	}
}

// Received is one request a Receiver got.
type Received struct {
	Header http.Header
	Body   []byte
	Real   time.Time // wall-clock time of arrival
}

// Receiver is a loopback HTTP endpoint that records what it gets and
// answers with its status (or runs Handle when set).
type Receiver struct {
	// Handle, when set before the first request, answers instead of the
	// status.
	Handle func(w http.ResponseWriter, r *http.Request)
	// Got receives a value per request (up to 1,024 not yet taken).
	Got chan struct{}

	srv    *httptest.Server
	status atomic.Int64
	mu     sync.Mutex
	reqs   []Received
}

// NewReceiver starts a Receiver answering status, closed when the test
// ends.
func NewReceiver(t testing.TB, status int) *Receiver {
	t.Helper()
	rc := &Receiver{Got: make(chan struct{}, 1024)}
	rc.status.Store(int64(status))
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *Receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, Received{Header: r.Header.Clone(), Body: body, Real: time.Now()})
	rc.mu.Unlock()
	select {
	case rc.Got <- struct{}{}:
	default:
	}
	if rc.Handle != nil {
		rc.Handle(w, r)
		return
	}
	w.WriteHeader(int(rc.status.Load()))
}

// SetStatus changes the status the receiver answers.
func (rc *Receiver) SetStatus(code int) { rc.status.Store(int64(code)) }

// URL is the receiver's endpoint.
func (rc *Receiver) URL() string { return rc.srv.URL + "/hook" }

// Requests answers what the receiver got, oldest first.
func (rc *Receiver) Requests() []Received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Received(nil), rc.reqs...)
}

// SubscriptionsPath is the webhook subscriptions collection of the mock.
const SubscriptionsPath = "/webhook/api/v1/subscriptions"

// WebhookRequest builds a request to the mock with a raw JSON body (sent as
// it is, malformed or not), the headers the SDK sends to the webhook service
// and token as a Bearer token.
func WebhookRequest(t testing.TB, s Server, method, path, token, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Accept-Charset", "utf-8")
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// VerifySignature checks a delivery the way the spec tells receivers to,
// written independently of the SDK: it parses t, h and v1 of
// X-Event-Signature, rebuilds t "." h "." header values joined by "." "."
// body, and compares the HMAC-SHA256 in constant time. It answers the
// signature's time
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#webhook-delivery).
func VerifySignature(secret string, h http.Header, body []byte) (time.Time, error) {
	ts, names, v1, err := signatureParts(h.Get("X-Event-Signature"))
	if err != nil {
		return time.Time{}, err
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

// signatureParts answers t, h and v1 of a signature header, each required.
func signatureParts(header string) (ts, names, v1 string, err error) {
	for pair := range strings.SplitSeq(header, ",") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok {
			return "", "", "", errors.New("malformed pair " + pair)
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
		return "", "", "", errors.New("t, h or v1 missing")
	}
	return ts, names, v1, nil
}
