package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// A signature computed independently of this package (with openssl), for a
// known secret, timestamp, headers and body.
const (
	vecSecret = "whsec-test"
	vecBody   = `{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`
	vecID     = "0b9f0c1e-8c1a-4a53-9f3a-2f1f6f1b7e11"
	vecType   = "sign.casefile.completed"
	vecUnix   = 1763805600
	vecHeader = "t=1763805600,h=content-type x-event-id x-event-type,v1=90d2176f1a2d719d1368c84b30a1daf6f763b6ff797cd89d6fdfbf4d5f9c8533"
)

func vecHeaders() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Event-Id", vecID)
	h.Set("X-Event-Type", vecType)
	h.Set("X-Event-Signature", vecHeader)
	return h
}

func fixedClock(unix int64) func() time.Time {
	return func() time.Time { return time.Unix(unix, 0) }
}

func newVerifier(t testing.TB, opts ...webhooks.VerifierOption) *webhooks.Verifier {
	t.Helper()
	opts = append([]webhooks.VerifierOption{webhooks.WithClock(fixedClock(vecUnix))}, opts...)
	v, err := webhooks.NewVerifier(vecSecret, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSignAcceptanceVector(t *testing.T) {
	t.Parallel()
	got := webhooks.Sign(vecSecret, time.Unix(vecUnix, 0), vecHeaders(), []byte(vecBody))
	if got != vecHeader {
		t.Fatalf("Sign =\n%s\nwant\n%s", got, vecHeader)
	}
}

func TestVerifyAcceptanceVector(t *testing.T) {
	t.Parallel()
	v := newVerifier(t)
	ev, err := v.Verify(context.Background(), vecHeaders(), []byte(vecBody))
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	if ev.ID != vecID || ev.Type != webhooks.CaseFileCompleted || ev.Topic != "casefile" ||
		ev.EventType != "completed" || !ev.Time.Equal(want) || ev.Time.Location().String() != "UTC" ||
		ev.CaseFile == nil || *ev.CaseFile != (webhooks.CaseFileRef{ID: 531, Status: 5}) ||
		ev.Signer != nil || string(ev.Raw) != vecBody {
		t.Fatalf("event = %+v", ev)
	}
}

// One changed byte anywhere fails with the error that names the part.
func TestVerifyAcceptanceVectorTampered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(h http.Header, body []byte) []byte
		want   error
	}{
		{"body byte", func(_ http.Header, b []byte) []byte { b[len(b)-3] = '6'; return b }, webhooks.ErrSignatureMismatch},
		{"body appended space", func(_ http.Header, b []byte) []byte { return append(b, ' ') }, webhooks.ErrSignatureMismatch},
		{"content type", func(h http.Header, b []byte) []byte { h.Set("Content-Type", "application/jsoN"); return b }, webhooks.ErrSignatureMismatch},
		{"event id", func(h http.Header, b []byte) []byte {
			h.Set("X-Event-Id", strings.Replace(vecID, "0b9f", "0b9e", 1))
			return b
		}, webhooks.ErrSignatureMismatch},
		{"event type", func(h http.Header, b []byte) []byte { h.Set("X-Event-Type", "sign.casefile.complete_"); return b }, webhooks.ErrSignatureMismatch},
		{"t within tolerance", func(h http.Header, b []byte) []byte {
			h.Set("X-Event-Signature", strings.Replace(vecHeader, "t=1763805600", "t=1763805601", 1))
			return b
		}, webhooks.ErrSignatureMismatch},
		{"t outside tolerance", func(h http.Header, b []byte) []byte {
			h.Set("X-Event-Signature", strings.Replace(vecHeader, "t=1763805600", "t=1763805000", 1))
			return b
		}, webhooks.ErrStaleTimestamp},
		{"v1 digit", func(h http.Header, b []byte) []byte {
			h.Set("X-Event-Signature", strings.Replace(vecHeader, "v1=90d2", "v1=90d3", 1))
			return b
		}, webhooks.ErrSignatureMismatch},
		{"h order", func(h http.Header, b []byte) []byte {
			h.Set("X-Event-Signature", strings.Replace(vecHeader, "x-event-id x-event-type", "x-event-type x-event-id", 1))
			return b
		}, webhooks.ErrSignatureMismatch},
		{"signed header missing", func(h http.Header, b []byte) []byte { h.Del("Content-Type"); return b }, webhooks.ErrSignatureMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := vecHeaders()
			body := tt.mutate(h, []byte(vecBody))
			_, err := newVerifier(t).Verify(context.Background(), h, body)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVerifyMalformedHeader(t *testing.T) {
	t.Parallel()
	const v1 = "v1=90d2176f1a2d719d1368c84b30a1daf6f763b6ff797cd89d6fdfbf4d5f9c8533"
	const h = "h=content-type x-event-id x-event-type"
	tests := map[string]string{
		"empty":                "",
		"no t":                 h + "," + v1,
		"no h":                 "t=1763805600," + v1,
		"no v1":                "t=1763805600," + h,
		"empty t":              "t=," + h + "," + v1,
		"empty h":              "t=1763805600,h=," + v1,
		"empty v1":             "t=1763805600," + h + ",v1=",
		"t twice":              "t=1763805600,t=1763805600," + h + "," + v1,
		"h twice":              "t=1763805600," + h + "," + h + "," + v1,
		"t not numeric":        "t=17638056OO," + h + "," + v1,
		"t negative":           "t=-1763805600," + h + "," + v1,
		"t plus":               "t=+1763805600," + h + "," + v1,
		"t too long":           "t=1234567890123456789," + h + "," + v1,
		"t fraction":           "t=1763805600.5," + h + "," + v1,
		"v1 short":             "t=1763805600," + h + "," + v1[:len(v1)-2],
		"v1 long":              "t=1763805600," + h + "," + v1 + "00",
		"v1 not hex":           "t=1763805600," + h + "," + v1[:len(v1)-1] + "g",
		"unknown key":          "t=1763805600," + h + "," + v1 + ",x=1",
		"garbage":              "t=1763805600," + h + "," + v1 + ",garbage",
		"trailing comma":       "t=1763805600," + h + "," + v1 + ",",
		"leading comma":        ",t=1763805600," + h + "," + v1,
		"space after comma":    "t=1763805600, " + h + "," + v1,
		"key with space":       "t =1763805600," + h + "," + v1,
		"h double space":       "t=1763805600,h=content-type  x-event-id x-event-type," + v1,
		"h trailing space":     "t=1763805600,h=content-type x-event-id x-event-type ," + v1,
		"h bad char":           "t=1763805600,h=content-type x-event-id x-event-type:," + v1,
		"semicolons":           "t=1763805600;" + h + ";" + v1,
		"nine v1":              "t=1763805600," + h + strings.Repeat(","+v1, 9),
		"uppercase T":          "T=1763805600," + h + "," + v1,
		"v1 with empty scheme": "t=1763805600," + h + "," + v1 + ",v=1",
	}
	for name, value := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			hd := vecHeaders()
			if value == "" {
				hd.Del("X-Event-Signature")
			} else {
				hd.Set("X-Event-Signature", value)
			}
			_, err := newVerifier(t).Verify(context.Background(), hd, []byte(vecBody))
			if !errors.Is(err, webhooks.ErrMalformedSignature) {
				t.Fatalf("%q: err = %v, want ErrMalformedSignature", value, err)
			}
		})
	}
}

// Well-formed variants that verify: key order, repeated v1 (secret
// rotation), later signature schemes, uppercase hex.
func TestVerifyHeaderVariants(t *testing.T) {
	t.Parallel()
	const good = "v1=90d2176f1a2d719d1368c84b30a1daf6f763b6ff797cd89d6fdfbf4d5f9c8533"
	const other = "v1=" + "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	const h = "h=content-type x-event-id x-event-type"
	for name, value := range map[string]string{
		"reordered":        good + "," + h + ",t=1763805600",
		"rotation first":   "t=1763805600," + h + "," + good + "," + other,
		"rotation second":  "t=1763805600," + h + "," + other + "," + good,
		"v2 ignored":       "t=1763805600," + h + ",v2=whatever," + good,
		"uppercase hex":    "t=1763805600," + h + "," + strings.ToUpper(good[:3]) + strings.ToUpper(good[3:]),
		"eight signatures": "t=1763805600," + h + strings.Repeat(","+other, 7) + "," + good,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			hd := vecHeaders()
			hd.Set("X-Event-Signature", strings.Replace(value, "V1=", "v1=", 1))
			if _, err := newVerifier(t).Verify(context.Background(), hd, []byte(vecBody)); err != nil {
				t.Fatalf("%q: %v", value, err)
			}
		})
	}
}

// Header names in h are matched case-insensitively, and so are the request's
// header keys, canonical or not.
func TestVerifyHeaderCaseInsensitive(t *testing.T) {
	t.Parallel()
	t.Run("raw map keys", func(t *testing.T) {
		t.Parallel()
		hd := http.Header{
			"content-type":      {"application/json"},
			"X-EVENT-ID":        {vecID},
			"x-Event-type":      {vecType},
			"x-event-signature": {vecHeader},
		}
		if _, err := newVerifier(t).Verify(context.Background(), hd, []byte(vecBody)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("names in h", func(t *testing.T) {
		t.Parallel()
		// h is signed as sent, so the sender must have signed the upper case
		// list; the lookup still finds the headers.
		hd := vecHeaders()
		hd.Del("X-Event-Signature")
		h := "Content-Type X-EVENT-ID x-event-TYPE"
		sig := webhooks.Sign(vecSecret, time.Unix(vecUnix, 0), hd, []byte(vecBody))
		if !strings.Contains(sig, "h=content-type x-event-id x-event-type") {
			t.Fatal(sig)
		}
		mac := hmacHex(vecSecret, "1763805600."+h+".application/json."+vecID+"."+vecType+"."+vecBody)
		hd.Set("X-Event-Signature", "t=1763805600,h="+h+",v1="+mac)
		if _, err := newVerifier(t).Verify(context.Background(), hd, []byte(vecBody)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestVerifyTolerance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		skew  time.Duration // clock minus t
		tol   time.Duration
		stale bool
	}{
		{"exact", 0, 0, false},
		{"5m late", 5 * time.Minute, 0, false},
		{"5m early", -5 * time.Minute, 0, false},
		{"5m1s late", 5*time.Minute + time.Second, 0, true},
		{"5m1s early", -5*time.Minute - time.Second, 0, true},
		{"1ns past tolerance", 5*time.Minute + time.Nanosecond, 0, true},
		{"custom 30s late", 30 * time.Second, 30 * time.Second, false},
		{"custom 31s late", 31 * time.Second, 30 * time.Second, true},
		{"custom 31s early", -31 * time.Second, 30 * time.Second, true},
		{"a year early", -365 * 24 * time.Hour, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			now := time.Unix(vecUnix, 0).Add(tt.skew)
			opts := []webhooks.VerifierOption{webhooks.WithClock(func() time.Time { return now })}
			if tt.tol > 0 {
				opts = append(opts, webhooks.WithTolerance(tt.tol))
			}
			_, err := newVerifier(t, opts...).Verify(context.Background(), vecHeaders(), []byte(vecBody))
			if got := errors.Is(err, webhooks.ErrStaleTimestamp); got != tt.stale {
				t.Fatalf("err = %v, stale want %v", err, tt.stale)
			}
			if !tt.stale && err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestSignVerifyRoundTrip(t *testing.T) {
	t.Parallel()
	now := time.Unix(vecUnix, 0)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Event-Id", uid("1"))
	h.Set("X-Event-Type", string(webhooks.SubscriptionTest))
	body := []byte(`{"topic":"subscription","eventType":"test","payload":"hello"}`)
	h.Set("X-Event-Signature", webhooks.Sign(vecSecret, now, h, body))
	ev, err := newVerifier(t).Verify(context.Background(), h, body)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Message != "hello" || ev.Type != webhooks.SubscriptionTest || ev.Time != (time.Time{}) {
		t.Fatalf("%+v", ev)
	}
	// Another secret fails.
	h.Set("X-Event-Signature", webhooks.Sign("whsec-other", now, h, body))
	if _, err := newVerifier(t).Verify(context.Background(), h, body); !errors.Is(err, webhooks.ErrSignatureMismatch) {
		t.Fatal(err)
	}
}

func hmacHex(secret, msg string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}
