package webhooks

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzParseSignatureHeader: the parser never panics, and what it accepts is
// well formed and survives a round trip through its canonical form.
func FuzzParseSignatureHeader(f *testing.F) {
	f.Add("t=1763805600,h=content-type x-event-id x-event-type,v1=90d2176f1a2d719d1368c84b30a1daf6f763b6ff797cd89d6fdfbf4d5f9c8533")
	f.Add("v1=00,t=1,h=a")
	f.Add("t=1,t=2,h=a,v1=" + strings.Repeat("a", 64))
	f.Fuzz(func(t *testing.T, value string) {
		var sig signature
		if err := parseSignature(value, &sig); err != nil {
			return
		}
		if sig.h == "" || sig.n < 1 || sig.n > maxSignatures || sig.unix < 0 {
			t.Fatalf("accepted %q as %+v", value, sig)
		}
		if n, err := strconv.ParseInt(sig.t, 10, 64); err != nil || n != sig.unix {
			t.Fatalf("t %q vs %d", sig.t, sig.unix)
		}
		canon := "t=" + sig.t + ",h=" + sig.h
		for _, v := range sig.v1[:sig.n] {
			canon += ",v1=" + hex.EncodeToString(v[:])
		}
		var again signature
		if err := parseSignature(canon, &again); err != nil || again != sig {
			t.Fatalf("%q: round trip %q: %v", value, canon, err)
		}
	})
}

// FuzzParseEvent: the decoder never panics, refuses exactly the bodies that
// are not one whole JSON object, with ErrInvalidPayload, agrees with
// encoding/json on the topic and eventType, and its one-pass decoding
// agrees with the liberal two-step one, members it could not read
// included.
func FuzzParseEvent(f *testing.F) {
	f.Add(`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`, "sign.casefile.completed")
	f.Add(`{"topic":"signer","eventType":"signed","payload":{"id":1,"caseFile":{"id":2,"status":1}}}`, "sign.signer.signed")
	f.Add(`{"topic":"signer","eventType":"signed","eventTime":null,"payload":{"id":1,"caseFile":{"id":2,"status":1},"x":[}}`, "sign.signer.signed")
	f.Add(`{"topic":"subscription","eventType":"test","payload":"hi"}`, "webhook.subscription.test")
	f.Add(`{"topic":"x","payload":[1,{"a":"\u00e9\n"},true,null,-1.5e3]}`, "")
	f.Add(`{"topic":"casefile","eventType":"completed","payload":{"id":"531","status":"5"}}`, "sign.casefile.completed")
	f.Add(`{"topic":"signer","eventTime":42,"payload":{"id":"7","caseFile":{"id":"7","status":{"x":1}}}}`, "sign.signer.signed")
	f.Add(`{"topic":"casefile","payload":{"id":1},"payload":{"status":"2"},"payload":null}`, "")
	f.Fuzz(func(t *testing.T, body, typ string) {
		ev, bad, err := decodeEvent("id", EventType(typ), []byte(body))
		var members map[string]json.RawMessage
		object := json.Valid([]byte(body)) && json.Unmarshal([]byte(body), &members) == nil && members != nil
		if err != nil {
			if !errors.Is(err, ErrInvalidPayload) {
				t.Fatalf("%q: %v does not match ErrInvalidPayload", body, err)
			}
			if object {
				t.Fatalf("refused %q, which is one JSON object: %v", body, err)
			}
			return
		}
		if !object {
			t.Fatalf("accepted %q, which is not one JSON object", body)
		}
		if string(ev.Raw) != body {
			t.Fatalf("Raw %q, body %q", ev.Raw, body)
		}
		if bad >= 1<<len(unreadableNames) {
			t.Fatalf("%q: unreadable bits %b name no member", body, bad)
		}
		var std struct{ Topic, EventType string }
		_ = json.Unmarshal([]byte(body), &std)
		if std.Topic != ev.Topic || std.EventType != ev.EventType {
			t.Fatalf("%q: topic %q, eventType %q disagree with encoding/json", body, ev.Topic, ev.EventType)
		}
		// The one-pass decoding agrees with the two-step one.
		loose, looseBad, err := decodeLoose([]byte(body), EventType(typ))
		if err != nil {
			t.Fatalf("%q: one pass accepted, two steps refused: %v", body, err)
		}
		loose.ID, loose.Type, loose.Raw = ev.ID, ev.Type, ev.Raw
		if !sameEvent(ev, loose) || bad != looseBad {
			t.Fatalf("%q: one pass %+v (%s), two steps %+v (%s)", body, ev, bad, loose, looseBad)
		}
	})
}

// sameEvent compares two events field by field, references by value.
func sameEvent(a, b *Event) bool {
	same := func(x, y any) bool { return fmt.Sprint(x) == fmt.Sprint(y) }
	return a.ID == b.ID && a.Type == b.Type && a.Topic == b.Topic && a.EventType == b.EventType &&
		a.Time.Equal(b.Time) && a.Time.Location().String() == b.Time.Location().String() &&
		(a.CaseFile == nil) == (b.CaseFile == nil) && (a.CaseFile == nil || *a.CaseFile == *b.CaseFile) &&
		(a.Signer == nil) == (b.Signer == nil) && (a.Signer == nil || *a.Signer == *b.Signer) &&
		a.Message == b.Message && same(a.Raw, b.Raw)
}

// TestPropertySignedDeliveries generates bodies and headers, signs them
// with Sign, and checks that Verify either returns an event whose Raw is
// valid JSON and whose headers agree with its body, or rejects the delivery
// with one of its documented errors. About half of the cases are honest
// deliveries, which must verify; the rest are changed after or before
// signing in one of the ways a broken or hostile sender could.
func TestPropertySignedDeliveries(t *testing.T) {
	t.Parallel()
	const secret = "whsec-property"
	now := time.Unix(1763805600, 0)
	rng := rand.New(rand.NewPCG(17, 2026))
	var honest, verified int
	for i := range 5000 {
		c := genDelivery(rng)
		h := http.Header{}
		h.Set("Content-Type", "application/json")
		h.Set(EventIDHeader, c.id)
		h.Set(EventTypeHeader, c.typ)
		body := []byte(c.body)
		h.Set(SignatureHeader, Sign(secret, now, h, body))
		if c.shift { // move the dot between id and type, keeping the signature
			h.Set(EventIDHeader, c.id+"."+strings.SplitN(c.typ, ".", 2)[0])
			h.Set(EventTypeHeader, strings.SplitN(c.typ, ".", 2)[1])
		}
		v, err := NewVerifier(secret, WithClock(func() time.Time { return now }), WithDedup(nil), WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		ev, err := v.Verify(context.Background(), h, body)
		if c.honest {
			honest++
			if err != nil {
				t.Fatalf("case %d: honest delivery rejected: %v\nid %q type %q body %s", i, err, c.id, c.typ, c.body)
			}
		}
		if err != nil {
			if !isRejection(err) {
				t.Fatalf("case %d: %v is not a documented rejection", i, err)
			}
			continue
		}
		verified++
		if !json.Valid(ev.Raw) || !bytes.Equal(ev.Raw, body) {
			t.Fatalf("case %d: verified a body that is not valid JSON: %q", i, ev.Raw)
		}
		segs := strings.Split(string(ev.Type), ".")
		if checkEventID(ev.ID) != nil || len(segs) < 3 || segs[len(segs)-2] != ev.Topic || segs[len(segs)-1] != ev.EventType {
			t.Fatalf("case %d: verified headers %q %q that disagree with the body %s", i, ev.ID, ev.Type, ev.Raw)
		}
	}
	if honest < 1000 || verified < honest {
		t.Fatalf("honest %d, verified %d: the generator no longer exercises the success path", honest, verified)
	}
	t.Logf("%d honest deliveries verified, %d verified in all, of 5000", honest, verified)
}

// delivery is a generated test case: honest when the headers and the body
// are as the platform would send them.
type delivery struct {
	id, typ, body string
	honest, shift bool
}

func genDelivery(rng *rand.Rand) delivery {
	typ := allEventTypes[rng.IntN(len(allEventTypes))]
	segs := strings.Split(string(typ), ".")
	topic, name := segs[1], segs[2]
	id := fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", rng.Uint32(), rng.IntN(1<<16), rng.IntN(1<<12),
		rng.IntN(1<<16), rng.Uint64()&(1<<48-1))
	if rng.IntN(2) == 0 {
		id = strings.ToUpper(id)
	}
	payload := fmt.Sprintf(`{"id":%d,"status":%d}`, rng.Int64N(1<<40), rng.IntN(10))
	switch topic {
	case TopicSigner:
		payload = fmt.Sprintf(`{"id":%d,"caseFile":{"id":%d,"status":%d},"x":[1,"\u00e9",null]}`,
			rng.Int64N(1<<40), rng.Int64N(1<<40), rng.IntN(10))
	case TopicSubscription:
		payload = `"This is a test event from the webhook service."`
	}
	body := fmt.Sprintf(`{"topic":%q,"eventType":%q,"eventTime":{"date":"2026-11-24 13:01:%02d.%06d","timezone_type":3,"timezone":"UTC"},"payload":%s}`,
		topic, name, rng.IntN(60), rng.IntN(1e6), payload)
	d := delivery{id: id, typ: string(typ), body: body, honest: true}
	switch rng.IntN(12) {
	case 0: // truncated body
		d.body, d.honest = body[:rng.IntN(len(body))], false
	case 1: // trailing bytes
		d.body, d.honest = body+[]string{" {}", "x", ",", "}"}[rng.IntN(4)], false
	case 2: // the dot moved from the type into the id
		d.shift, d.honest = true, false
	case 3: // another type in the header
		d.typ, d.honest = string(allEventTypes[rng.IntN(len(allEventTypes))]), false
		d.honest = d.typ == string(typ)
	case 4: // an id of another form: accepted when printable ASCII, dotless and not too long
		ids := []struct {
			id     string
			honest bool
		}{
			{"evt-1", true}, {id[:35], true}, {strings.ReplaceAll(id, "-", ""), true},
			{strings.Repeat("Z", MaxEventIDLength), true}, {"{" + id + "}~!", true},
			{"evt.1", false}, {id + ".", false}, {"evt 1", false}, {"\u00e9vt", false}, {"evt\x00", false},
			{strings.Repeat("Z", MaxEventIDLength+1), false}, {"", false},
		}
		pick := ids[rng.IntN(len(ids))]
		d.id, d.honest = pick.id, pick.honest
	case 5: // an unknown type of the same form, bound to the body
		d.typ = "app" + strconv.Itoa(rng.IntN(9)) + "." + topic + "." + name
	case 6: // one byte changed anywhere in the body
		b := []byte(body)
		b[rng.IntN(len(b))] = byte(rng.IntN(128))
		d.body = string(b)
		d.honest = d.body == body
	}
	return d
}
