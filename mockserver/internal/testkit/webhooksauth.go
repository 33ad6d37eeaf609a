package testkit

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
)

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
