package webhooks

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
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
			if len(v) != 64 || !allHex(v) {
				t.Fatalf("v1 %q", v)
			}
			canon += ",v1=" + v
		}
		var again signature
		if err := parseSignature(canon, &again); err != nil || again != sig {
			t.Fatalf("%q: round trip %q: %v", value, canon, err)
		}
	})
}

// FuzzParseEvent: the decoder never panics, accepts only valid JSON objects,
// reports failures as ErrInvalidPayload, and agrees with encoding/json on the
// fields it decodes.
func FuzzParseEvent(f *testing.F) {
	f.Add(`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`, "sign.casefile.completed")
	f.Add(`{"topic":"signer","eventType":"signed","payload":{"id":1,"caseFile":{"id":2,"status":1}}}`, "sign.signer.signed")
	f.Add(`{"topic":"subscription","eventType":"test","payload":"hi"}`, "webhook.subscription.test")
	f.Add(`{"topic":"x","payload":[1,{"a":"\u00e9\n"},true,null,-1.5e3]}`, "")
	f.Fuzz(func(t *testing.T, body, typ string) {
		ev, err := decodeEvent("id", EventType(typ), []byte(body))
		if err != nil {
			if !errors.Is(err, ErrInvalidPayload) {
				t.Fatalf("%q: %v", body, err)
			}
			return
		}
		if !json.Valid([]byte(body)) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		var std struct {
			Topic     *string `json:"topic"`
			EventType *string `json:"eventType"`
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &members); err != nil {
			t.Fatalf("accepted a non-object %q: %v", body, err)
		}
		exact := func(key string, dst **string) {
			if raw, ok := members[key]; ok {
				_ = json.Unmarshal(raw, dst)
			}
		}
		exact("topic", &std.Topic)
		exact("eventType", &std.EventType)
		if std.Topic != nil && *std.Topic != ev.Topic || std.EventType != nil && *std.EventType != ev.EventType {
			t.Fatalf("%q: topic %q, eventType %q disagree with encoding/json", body, ev.Topic, ev.EventType)
		}
	})
}

// TestAllHex checks the SWAR hex test against isHex for every byte at every
// position of a word.
func TestAllHex(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			b := []byte("0123abcd")
			b[pos] = byte(c)
			want := isHex(byte(c))
			if got := allHex(string(b)); got != want {
				t.Fatalf("allHex(%q) = %v", b, got)
			}
		}
	}
}

// TestKeyword checks that key identifies member names by their words
// exactly as nameKeyword does by comparison, on the fast path (name and
// colon directly followed by enough bytes) and on the slow paths.
func TestKeyword(t *testing.T) {
	names := []string{"topic", "eventType", "eventTime", "payload", "id", "caseFile",
		"status", "date", "timezone_type", "timezone", "message",
		"", "i", "ids", "d", "topics", "topi", "Topic", "eventTyp", "eventTypeX", "eventTim",
		"eventTimes", "timezone_typ", "timezone_types", "timezone_", "timezones", "caseFil",
		"caseFiles", "payloa", "payloads", "messag", "status_", "dat", "dates", "note", "signOrder"}
	for _, name := range names {
		want := nameKeyword(name)
		for _, body := range []string{
			`"` + name + `":1,"padding padding padding"`,
			`"` + name + `" :1,"padding padding padding"`,
			`"` + name + `":1`,
			`"` + strings.ReplaceAll(name, "e", `\u0065`) + `":1,"padding padding padding"`,
		} {
			s := scanner{b: []byte(body)}
			got, err := s.key()
			if err != nil || got != want || s.b[s.i] != '1' {
				t.Errorf("key of %q = %d, %v at %d; want %d", body, got, err, s.i, want)
			}
		}
	}
	for _, name := range names[:11] {
		if nameKeyword(name) == kwOther {
			t.Errorf("%q is not a keyword", name)
		}
	}
}
