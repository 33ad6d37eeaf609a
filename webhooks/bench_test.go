package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// benchBody is a signer event padded to exactly 1 KiB with the kind of fields
// a richer payload carries (text, numbers, nested objects, an array), in the
// platform's order: the payload's id and caseFile come first.
func benchBody(tb testing.TB) []byte { return eventBody(tb, false) }

// eventBody builds the 1 KiB signer event; with idsLast the payload's id
// and caseFile come after everything else, so decoding reads every byte.
func eventBody(tb testing.TB, idsLast bool) []byte {
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
	if idsLast {
		b = []byte(top + note + "," + ids + "}}")
	}
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

// floorVerify is the least a verifier must do: one HMAC-SHA256 over the same
// bytes, a hex decode of v1 and a constant-time comparison.
func floorVerify(prefix, body []byte, v1 string) bool {
	m := hmac.New(sha256.New, []byte(vecSecret))
	m.Write(prefix)
	m.Write(body)
	var sum, want [sha256.Size]byte
	m.Sum(sum[:0])
	for i := range want {
		want[i] = fromHex(v1[2*i])<<4 | fromHex(v1[2*i+1])
	}
	return hmac.Equal(sum[:], want[:])
}

func fromHex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

func floorPrefix() []byte {
	return []byte("1763805600.content-type x-event-id x-event-type.application/json." + vecID + "." + string(webhooks.SignerSigned) + ".")
}

func benchFloor(b *testing.B, h http.Header, body []byte) {
	sig := h.Get("X-Event-Signature")
	v1 := sig[strings.Index(sig, "v1=")+3:]
	prefix := floorPrefix()
	if !floorVerify(prefix, body, v1) {
		b.Fatal("floor does not verify")
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if !floorVerify(prefix, body, v1) {
			b.Fatal("mismatch")
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

// BenchmarkFloor is the HMAC floor alone.
func BenchmarkFloor(b *testing.B) {
	h, body := benchRequest(b)
	benchFloor(b, h, body)
}

// BenchmarkVerify measures Verify of a 1 KiB body without replay checks
// (ns/op and allocs/op: goal at most 2 per verify). With the timer stopped
// it then compares Verify with the floor (see floorVerify) in alternating
// batches of 256, so that both run under the same machine load, and reports
// Verify's time as a multiple of the floor's (x-floor; goal: at most 1.3)
// and the floor's time (floor-ns/op).
func BenchmarkVerify(b *testing.B) {
	h, body := benchRequest(b)
	benchVerifyVsFloor(b, h, body)
}

// BenchmarkVerifyIDsLast is BenchmarkVerify on the same event with the
// payload's id and caseFile after its other members: decoding reads and
// checks every byte, the most Verify does for a body of this size.
func BenchmarkVerifyIDsLast(b *testing.B) {
	h, body := signedRequest(b, eventBody(b, true))
	benchVerifyVsFloor(b, h, body)
}

func benchVerifyVsFloor(b *testing.B, h http.Header, body []byte) {
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
	sig := h.Get("X-Event-Signature")
	v1 := sig[strings.Index(sig, "v1=")+3:]
	prefix := floorPrefix()
	for done := 0; done < n; done += batch {
		t0 := time.Now()
		for range batch {
			if _, err := v.Verify(ctx, h, body); err != nil {
				b.Fatal(err)
			}
		}
		t1 := time.Now()
		for range batch {
			if !floorVerify(prefix, body, v1) {
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
// decoded without the HMAC, read up to the payload's caseFile.
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
