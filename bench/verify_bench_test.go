package bench

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stripe/stripe-go/v85"
	stripewebhook "github.com/stripe/stripe-go/v85/webhook"
	svix "github.com/svix/svix-webhooks/go"

	"github.com/signkit/signkit-go/webhooks"
)

const (
	secret  = "whsec-bench-secret"
	eventID = "0b9f0c1e-8c1a-4a53-9f3a-2f1f6f1b7e11"
)

// event is the floor's target: the fields our Verify decodes from a signer
// event, in one struct.
type event struct {
	Topic     string `json:"topic"`
	EventType string `json:"eventType"`
	EventTime struct {
		Date         string `json:"date"`
		TimezoneType int    `json:"timezone_type"`
		Timezone     string `json:"timezone"`
	} `json:"eventTime"`
	Payload struct {
		ID       int64 `json:"id"`
		CaseFile struct {
			ID     int64 `json:"id"`
			Status int   `json:"status"`
		} `json:"caseFile"`
	} `json:"payload"`
}

// body is a 1 KiB signer event. It carries Stripe's "object" and
// "api_version" too, so that every library accepts the same bytes.
func body(tb testing.TB) []byte {
	head := fmt.Sprintf(`{"object":"event","api_version":%q,"topic":"signer","eventType":"signed",`+
		`"eventTime":{"date":"2026-11-24 13:01:11.517791","timezone_type":3,"timezone":"UTC"},`+
		`"payload":{"id":9011,"caseFile":{"id":531,"status":1},"note":"`, stripe.APIVersion)
	tail := `"}}`
	b := []byte(head + strings.Repeat("x", 1024-len(head)-len(tail)) + tail)
	if len(b) != 1024 || !json.Valid(b) {
		tb.Fatalf("body of %d bytes, valid %v", len(b), json.Valid(b))
	}
	return b
}

// contender verifies one signed delivery and decodes its event.
type contender struct {
	name   string
	verify func() error
}

// contenders signs signedBody for every library and answers verifiers of
// payload: the same bytes, or a changed copy for the negative test.
func contenders(tb testing.TB, signedBody, payload []byte) []contender {
	now := time.Now()

	// Ours: the platform's headers, full validation and decoding, no
	// replay store (the others have none).
	ours, err := webhooks.NewVerifier(secret, webhooks.WithDedup(nil))
	if err != nil {
		tb.Fatal(err)
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set(webhooks.EventIDHeader, eventID)
	h.Set(webhooks.EventTypeHeader, string(webhooks.SignerSigned))
	h.Set(webhooks.SignatureHeader, webhooks.Sign(secret, now, h, signedBody))

	// The floor: a pre-keyed HMAC-SHA256 over the same signed string,
	// a constant-time compare, json.Unmarshal into one struct.
	signed := h.Get(webhooks.SignatureHeader)
	v1, _ := hex.DecodeString(signed[strings.LastIndex(signed, "=")+1:])
	prefix := []byte(fmt.Sprintf("%d.content-type x-event-id x-event-type.application/json.%s.%s.",
		now.Unix(), eventID, webhooks.SignerSigned))
	floorMAC := hmac.New(sha256.New, []byte(secret))

	// Stripe.
	sp := stripewebhook.GenerateTestSignedPayload(&stripewebhook.UnsignedPayload{Payload: signedBody, Secret: secret, Timestamp: now})

	// Svix and Standard Webhooks: their own secrets and headers.
	key := "whsec_" + base64.StdEncoding.EncodeToString([]byte("bench-key-of-32-bytes-0123456789"))
	sv, err := svix.NewWebhook(key)
	if err != nil {
		tb.Fatal(err)
	}
	svSig, err := sv.Sign("msg_1", now, signedBody)
	if err != nil {
		tb.Fatal(err)
	}
	svH := http.Header{"Svix-Id": {"msg_1"}, "Svix-Timestamp": {fmt.Sprint(now.Unix())}, "Svix-Signature": {svSig}}
	sw, err := standardwebhooks.NewWebhook(key)
	if err != nil {
		tb.Fatal(err)
	}
	swSig, err := sw.Sign("msg_1", now, signedBody)
	if err != nil {
		tb.Fatal(err)
	}
	swH := http.Header{"Webhook-Id": {"msg_1"}, "Webhook-Timestamp": {fmt.Sprint(now.Unix())}, "Webhook-Signature": {swSig}}

	ctx := context.Background()
	return []contender{
		{"floor", func() error {
			floorMAC.Reset()
			floorMAC.Write(prefix)
			floorMAC.Write(payload)
			var sum [sha256.Size]byte
			if !hmac.Equal(floorMAC.Sum(sum[:0]), v1) {
				return fmt.Errorf("floor: mismatch")
			}
			var e event
			return json.Unmarshal(payload, &e)
		}},
		{"signkit", func() error {
			_, err := ours.Verify(ctx, h, payload)
			return err
		}},
		{"stripe", func() error {
			_, err := stripewebhook.ConstructEvent(payload, sp.Header, secret)
			return err
		}},
		{"svix", func() error {
			if err := sv.Verify(payload, svH); err != nil {
				return err
			}
			var e event
			return json.Unmarshal(payload, &e)
		}},
		{"standard-webhooks", func() error {
			if err := sw.Verify(payload, swH); err != nil {
				return err
			}
			var e event
			return json.Unmarshal(payload, &e)
		}},
	}
}

// TestContendersVerify: each contender accepts its delivery, and refuses
// it once a byte of the body changes (so the benchmark times real checks).
func TestContendersVerify(t *testing.T) {
	b := body(t)
	for _, c := range contenders(t, b, b) {
		if err := c.verify(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	changed := slices.Clone(b)
	changed[len(changed)-5] = 'y'
	for _, c := range contenders(t, b, changed) {
		if err := c.verify(); err == nil {
			t.Errorf("%s accepted a changed body", c.name)
		}
	}
}

// BenchmarkVerify runs interleaved rounds: each round times a batch of
// every contender, in an order that rotates from round to round, and the
// reported figures are medians over the rounds of ns per verification and
// of each contender's ratio to the floor measured in the same round.
func BenchmarkVerify(b *testing.B) {
	payload := body(b)
	cs := contenders(b, payload, payload)
	for _, c := range cs {
		if err := c.verify(); err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
	}
	const batch = 500
	per := make([][]float64, len(cs))   // ns/op per round
	ratio := make([][]float64, len(cs)) // to the floor, per round
	b.ReportAllocs()
	round := 0
	for b.Loop() {
		ns := make([]float64, len(cs))
		for k := range cs {
			i := (k + round) % len(cs)
			start := time.Now()
			for range batch {
				if err := cs[i].verify(); err != nil {
					b.Fatal(err)
				}
			}
			ns[i] = float64(time.Since(start).Nanoseconds()) / batch
		}
		for i := range cs {
			per[i] = append(per[i], ns[i])
			ratio[i] = append(ratio[i], ns[i]/ns[0])
		}
		round++
	}
	for i, c := range cs {
		b.ReportMetric(median(per[i]), c.name+"-ns/op")
		if i > 0 {
			b.ReportMetric(median(ratio[i]), c.name+"/floor")
		}
	}
	b.ReportMetric(float64(round), "rounds")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
