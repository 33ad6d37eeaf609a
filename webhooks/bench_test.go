package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// benchBody is a signer event padded to exactly 1 KiB with the kind of fields
// a richer payload carries (text, numbers, nested objects, an array).
func benchBody(tb testing.TB) []byte {
	const (
		top   = `{"topic":"signer","eventType":"signed","eventTime":{"date":"2026-11-22 10:00:00.123456","timezone_type":3,"timezone":"UTC"},"payload":{`
		ids   = `"id":90817,"caseFile":{"id":531,"status":1}`
		other = `"name":"Jane Q. Example","email":"jane.example@example.com",` +
			`"role":"signer","signOrder":2,"signedAt":1763805599,"documents":[{"id":1,"title":"Service agreement 2026"},{"id":2,"title":"Annex A: prices"}],` +
			`"note":"`
	)
	n := 1024 - len(top) - len(ids) - len(other) - len(`",`) - len(`}}`)
	if n < 0 {
		tb.Fatal("head too long")
	}
	note := other + strings.Repeat("Signed on behalf of the company, see annex. ", n/44+1)[:n] + `"`
	b := []byte(top + ids + "," + note + "}}")
	if len(b) != 1024 {
		tb.Fatalf("body is %d bytes", len(b))
	}
	return b
}

func benchRequest(tb testing.TB) (http.Header, []byte) {
	return signedRequest(tb, benchBody(tb))
}

func signedRequest(tb testing.TB, body []byte) (http.Header, []byte) {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Event-Id", vecID)
	h.Set("X-Event-Type", string(webhooks.SignerSigned))
	h.Set("X-Event-Signature", webhooks.Sign(vecSecret, time.Unix(vecUnix, 0), h, body))
	return h, body
}

// floorEvent is what the floor decodes: the fields Verify decodes from a
// signer event, in one struct.
type floorEvent struct {
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

// floor is the least a verifier must do: a pre-keyed HMAC-SHA256 over the
// same bytes, a constant-time comparison with the decoded v1, and one
// json.Unmarshal of the body into one struct.
type floor struct {
	mac    hash.Hash
	prefix []byte
	v1     []byte
}

func newFloor(h http.Header) *floor {
	sig := h.Get("X-Event-Signature")
	v1, _ := hex.DecodeString(sig[strings.Index(sig, "v1=")+3:])
	prefix := []byte(strconv.FormatInt(vecUnix, 10) + ".content-type x-event-id x-event-type.application/json." +
		h.Get("X-Event-Id") + "." + h.Get("X-Event-Type") + ".")
	return &floor{mac: hmac.New(sha256.New, []byte(vecSecret)), prefix: prefix, v1: v1}
}

func (f *floor) verify(body []byte) bool {
	f.mac.Reset()
	f.mac.Write(f.prefix)
	f.mac.Write(body)
	var sum [sha256.Size]byte
	var ev floorEvent
	return hmac.Equal(f.mac.Sum(sum[:0]), f.v1) && json.Unmarshal(body, &ev) == nil
}

func benchFloor(b *testing.B, h http.Header, body []byte) {
	f := newFloor(h)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if !f.verify(body) {
			b.Fatal("floor does not verify")
		}
	}
}

func benchVerify(b *testing.B, v *webhooks.Verifier, h http.Header, body []byte, setID func(int)) {
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	i := 0
	for b.Loop() {
		if setID != nil {
			setID(i)
			i++
		}
		if _, err := v.Verify(ctx, h, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFloor is the floor alone (see floor).
func BenchmarkFloor(b *testing.B) {
	h, body := benchRequest(b)
	benchFloor(b, h, body)
}

// BenchmarkVerify measures Verify of a 1 KiB body without replay checks
// (ns/op, allocs/op). With the timer stopped it then compares Verify with
// the floor in alternating batches of 256, so that both run under the same
// machine load, and reports Verify's time as a multiple of the floor's
// (x-floor; goal at most 1.2) and the floor's time (floor-ns/op). The
// comparison with other libraries is in the bench module.
func BenchmarkVerify(b *testing.B) {
	h, body := benchRequest(b)
	v := newVerifier(b, webhooks.WithDedup(nil))
	benchVerify(b, v, h, body, nil)
	b.StopTimer()
	n := max(b.N, 20_000)
	verify, floor := interleaved(b, v, h, body, n)
	b.ReportMetric(float64(floor.Nanoseconds())/float64(n), "floor-ns/op")
	b.ReportMetric(float64(verify)/float64(floor), "x-floor")
}

// interleaved runs n verifies and n floors in alternating batches and
// returns the time each took in all.
func interleaved(b *testing.B, v *webhooks.Verifier, h http.Header, body []byte, n int) (verify, floor time.Duration) {
	const batch = 256
	ctx := context.Background()
	f := newFloor(h)
	for done := 0; done < n; done += batch {
		t0 := time.Now()
		for range batch {
			if _, err := v.Verify(ctx, h, body); err != nil {
				b.Fatal(err)
			}
		}
		t1 := time.Now()
		for range batch {
			if !f.verify(body) {
				b.Fatal("floor does not verify")
			}
		}
		verify, floor = verify+t1.Sub(t0), floor+time.Since(t1)
	}
	return verify, floor
}

// BenchmarkVerifyMemoryDedup is Verify with the default memory store: every
// iteration is a new event id, signed ahead of the loop.
func BenchmarkVerifyMemoryDedup(b *testing.B) {
	_, body := benchRequest(b)
	const n = 4096
	headers := make([]http.Header, n)
	for i := range headers {
		h := http.Header{}
		h.Set("Content-Type", "application/json")
		h.Set("X-Event-Id", vecID[:len(vecID)-4]+strings.Repeat("0", 4-len(itoa(i)))+itoa(i))
		h.Set("X-Event-Type", string(webhooks.SignerSigned))
		h.Set("X-Event-Signature", webhooks.Sign(vecSecret, time.Unix(vecUnix, 0), h, body))
		headers[i] = h
	}
	ctx := context.Background()
	var v *webhooks.Verifier
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	i := 0
	for b.Loop() {
		if i%n == 0 {
			b.StopTimer()
			v = newVerifier(b) // a fresh store, so that every id is new
			b.StartTimer()
		}
		if _, err := v.Verify(ctx, headers[i%n], body); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var buf [20]byte
	n := len(buf)
	for ; i > 0; i /= 10 {
		n--
		buf[n] = byte('0' + i%10)
	}
	return string(buf[n:])
}

// BenchmarkParseEvent is the decoding part of Verify alone: the 1 KiB body
// checked whole and decoded, without the HMAC.
func BenchmarkParseEvent(b *testing.B) {
	h, body := benchRequest(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := webhooks.ParseEvent(h, body); err != nil {
			b.Fatal(err)
		}
	}
}
