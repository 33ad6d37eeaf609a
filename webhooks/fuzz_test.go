package webhooks

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
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

// FuzzParseEvent: the decoder never panics and reports failures as
// ErrInvalidPayload. What it accepts is valid JSON up to where it stopped
// reading (it stops once it has every field an Event carries); and on valid
// JSON without repeated member names it agrees with encoding/json on the
// fields it decodes.
func FuzzParseEvent(f *testing.F) {
	f.Add(`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`, "sign.casefile.completed")
	f.Add(`{"topic":"signer","eventType":"signed","payload":{"id":1,"caseFile":{"id":2,"status":1}}}`, "sign.signer.signed")
	f.Add(`{"topic":"signer","eventType":"signed","eventTime":null,"payload":{"id":1,"caseFile":{"id":2,"status":1},"x":[}}`, "sign.signer.signed")
	f.Add(`{"topic":"subscription","eventType":"test","payload":"hi"}`, "webhook.subscription.test")
	f.Add(`{"topic":"x","payload":[1,{"a":"\u00e9\n"},true,null,-1.5e3]}`, "")
	f.Fuzz(func(t *testing.T, body, typ string) {
		box := &eventBox{ev: Event{Type: EventType(typ)}}
		read, err := box.decode([]byte(body))
		_, evErr := decodeEvent("id", EventType(typ), []byte(body))
		if (err == nil) != (evErr == nil) || evErr != nil && !errors.Is(evErr, ErrInvalidPayload) {
			t.Fatalf("%q: decode %v, decodeEvent %v", body, err, evErr)
		}
		if err != nil {
			return
		}
		ev := &box.ev
		if !json.Valid([]byte(body)) {
			var syntax *json.SyntaxError
			// What decode read is valid JSON, up to the ',' or '}' after the
			// last value it needed, where it stopped.
			if read >= len(body) || body[read] != ',' && body[read] != '}' ||
				!errors.As(json.Unmarshal([]byte(body), new(any)), &syntax) || syntax.Offset <= int64(read) {
				t.Fatalf("%q: accepted invalid JSON before offset %d", body, read)
			}
			return
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &members); err != nil {
			t.Fatalf("accepted a non-object %q: %v", body, err)
		}
		if !uniqueNames([]byte(body)) {
			return
		}
		var std struct{ Topic, EventType *string }
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

// uniqueNames reports whether no object in the valid JSON doc repeats a
// member name.
func uniqueNames(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var value func() bool
	value = func() bool {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				name, _ := dec.Token()
				if seen[name.(string)] {
					return false
				}
				seen[name.(string)] = true
				if !value() {
					return false
				}
			}
			_, _ = dec.Token() // '}'
		case json.Delim('['):
			for dec.More() {
				if !value() {
					return false
				}
			}
			_, _ = dec.Token() // ']'
		}
		return true
	}
	return value()
}

// FuzzSkipValue: skipValue accepts exactly what encoding/json's Valid
// accepts, and stops just after the value.
func FuzzSkipValue(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,{"b":null},"\u00e9\n",true,false,-0.5e+3],"c":{}}`, ` [ ] `, `"x"`, `{"a" : 1 , "b":[ ]}`,
		`[1,]`, `{"a":1,}`, `{"a"}`, `[1 2]`, `{"a":[}`, `01`, `-`, `1.`, `1e`, `"\x"`, `"\u12g4"`, "\"a\tb\"",
		strings.Repeat("[", 70) + strings.Repeat("]", 70), strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70),
		strings.Repeat("[", 70) + strings.Repeat("]", 69) + "}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		b := []byte(doc)
		end, err := skipValue(b, 0, 0)
		got := err == nil && space(b, end) == len(b)
		if want := json.Valid(b); got != want {
			t.Fatalf("%q: skipValue ends at %d with %v; json.Valid says %v", doc, end, err, want)
		}
	})
}

// TestSkipValueDepth checks the nesting limit of encoding/json at the
// limit and one past it, for arrays, objects and both mixed.
func TestSkipValueDepth(t *testing.T) {
	for _, tc := range []struct{ open, close string }{{"[", "]"}, {`{"k":`, "}"}, {`[{"k":`, "}]"}} {
		for _, n := range []int{maxDepth, maxDepth + 1} {
			reps := (n + len(tc.close) - 1) / len(tc.close) // each rep opens len(close) levels
			doc := []byte(strings.Repeat(tc.open, reps) + "0" + strings.Repeat(tc.close, reps))
			_, err := skipValue(doc, 0, 0)
			if want := json.Valid(doc); (err == nil) != want {
				t.Errorf("%s×%d: skipValue %v; json.Valid %v", tc.open, reps, err, want)
			}
			if n > maxDepth && !errors.Is(err, errDepth) {
				t.Errorf("%s×%d: %v, want errDepth", tc.open, reps, err)
			}
		}
	}
}

// TestDecodeHex checks the SWAR hex decoder against encoding/hex for every
// hex digit, in either case, at every position.
func TestDecodeHex(t *testing.T) {
	for pos := 0; pos < 64; pos++ {
		for _, c := range "0123456789abcdefABCDEF" {
			b := []byte("0f1e2d3c4b5a69788796a5b4c3d2e1f00123456789abcdefABCDEF9876543210")
			b[pos] = byte(c)
			want, err := hex.DecodeString(string(b))
			if err != nil {
				t.Fatal(err)
			}
			var got [32]byte
			decodeHex(&got, string(b))
			if !bytes.Equal(got[:], want) {
				t.Fatalf("decodeHex(%s) = %x, want %x", b, got, want)
			}
		}
	}
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

// TestParseFraction checks fractions of every length against time.Parse.
func TestParseFraction(t *testing.T) {
	for n := 1; n <= 9; n++ {
		frac := "." + "987654321"[:n]
		want, err := time.Parse("05.000000000"[:3+n], "00"+frac)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := parseFraction([]byte(frac)); !ok || got != want.Nanosecond() {
			t.Errorf("parseFraction(%q) = %d, %v; want %d", frac, got, ok, want.Nanosecond())
		}
	}
	for _, bad := range []string{".", "1", ".1234567890", ".12a"} {
		if _, ok := parseFraction([]byte(bad)); ok {
			t.Errorf("parseFraction(%q) accepted", bad)
		}
	}
}
