package mockserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
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

// The kit's webhook helpers under the names these tests use
// (mockserver/internal/testkit).
var (
	whCall      = testkit.SDKCall
	whSubscribe = testkit.Subscribe
	whTestEvent = testkit.SendTestEvent
	newReceiver = testkit.NewReceiver
)

type subscriptionJSON = testkit.Subscription

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

// testEventType is the event type of the on-demand test event.
const testEventType = "webhook.subscription.test"

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
