package webhooks_test

import (
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"
	_ "time/tzdata" // the named-zone case runs without a system zone database

	"github.com/signkit/signkit-go/webhooks"
)

func TestEventTypes(t *testing.T) {
	t.Parallel()
	all := webhooks.AllEventTypes()
	if len(all) != 17 || all[0] != webhooks.CaseFileCompleted || all[16] != webhooks.SubscriptionTest {
		t.Fatalf("AllEventTypes = %v", all)
	}
	all[0] = "changed" // the caller's copy
	if webhooks.AllEventTypes()[0] != webhooks.CaseFileCompleted {
		t.Fatal("AllEventTypes shares its slice")
	}
	for _, et := range webhooks.AllEventTypes() {
		if !et.IsKnown() {
			t.Errorf("%s not known", et)
		}
	}
	if webhooks.EventType("sign.casefile.unknown").IsKnown() || webhooks.EventType("").IsKnown() {
		t.Error("unknown type known")
	}
	for et, topic := range map[webhooks.EventType]string{
		webhooks.SignerRequestActivated: "signer", webhooks.CaseFileRejected: "casefile",
		webhooks.SubscriptionTest: "subscription", "nodots": "", "one.dot": "",
	} {
		if got := et.Topic(); got != topic {
			t.Errorf("%s.Topic() = %q, want %q", et, got, topic)
		}
	}
}

func hdr(id string, typ webhooks.EventType) http.Header {
	h := http.Header{}
	h.Set("X-Event-Id", id)
	h.Set("X-Event-Type", string(typ))
	return h
}

func TestParseEvent(t *testing.T) {
	t.Parallel()
	cph, err := time.LoadLocation("Europe/Copenhagen")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		typ  webhooks.EventType
		body string
		want webhooks.Event
	}{
		{"case file", webhooks.CaseFileRejected,
			`{"topic":"casefile","eventType":"rejected","eventTime":{"date":"2026-01-02 03:04:05.123456","timezone_type":3,"timezone":"UTC"},"payload":{"id":7,"status":2}}`,
			webhooks.Event{Topic: "casefile", EventType: "rejected", Time: time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC),
				CaseFile: &webhooks.CaseFileRef{ID: 7, Status: 2}}},
		{"signer", webhooks.SignerFinalized,
			` { "payload" : { "caseFile" : {"status":5,"id":9007199254740993}, "id" : 12 , "extra":[1,{"a":null}]}, "topic":"signer", "eventType":"finalized" } `,
			webhooks.Event{Topic: "signer", EventType: "finalized", Signer: &webhooks.SignerRef{ID: 12},
				CaseFile: &webhooks.CaseFileRef{ID: 9007199254740993, Status: 5}}},
		{"test string", webhooks.SubscriptionTest,
			`{"topic":"subscription","eventType":"test","payload":"Hello \"world\" \u00e9"}`,
			webhooks.Event{Topic: "subscription", EventType: "test", Message: `Hello "world" é`}},
		{"test object", webhooks.SubscriptionTest,
			`{"topic":"subscription","eventType":"test","payload":{"message":"ping","n":1}}`,
			webhooks.Event{Topic: "subscription", EventType: "test", Message: "ping"}},
		{"unknown type", "sign.folder.moved",
			`{"topic":"folder","eventType":"moved","payload":{"id":"abc","deep":[[[]]]}}`,
			webhooks.Event{Topic: "folder", EventType: "moved"}},
		{"topic from header", webhooks.CaseFileCompleted,
			`{"payload":{"id":3,"status":5}}`,
			webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 3, Status: 5}}},
		{"topic after payload wins", webhooks.CaseFileCompleted,
			`{"payload":{"id":3,"caseFile":{"id":4,"status":1}},"topic":"signer"}`,
			webhooks.Event{Topic: "signer", Signer: &webhooks.SignerRef{ID: 3}, CaseFile: &webhooks.CaseFileRef{ID: 4, Status: 1}}},
		{"payload valid only for the later topic", webhooks.SignerSigned,
			`{"payload":{"id":3,"status":5,"caseFile":7},"topic":"casefile"}`,
			webhooks.Event{Topic: "casefile", CaseFile: &webhooks.CaseFileRef{ID: 3, Status: 5}}},
		{"nulls", webhooks.SignerSigned,
			`{"topic":null,"eventTime":null,"payload":{"id":null,"caseFile":null}}`,
			webhooks.Event{Signer: &webhooks.SignerRef{}}},
		{"offset zone", webhooks.CaseFileExpired,
			`{"eventTime":{"date":"2026-06-30 23:59:59","timezone_type":1,"timezone":"+02:00"}}`,
			webhooks.Event{Time: time.Date(2026, 6, 30, 23, 59, 59, 0, time.FixedZone("+02:00", 7200))}},
		{"named zone", webhooks.CaseFileExpired,
			`{"eventTime":{"date":"2026-06-30 12:00:00.000000","timezone_type":3,"timezone":"Europe/Copenhagen"}}`,
			webhooks.Event{Time: time.Date(2026, 6, 30, 12, 0, 0, 0, cph)}},
		{"escaped keys", webhooks.CaseFileFailed,
			`{"top\u0069c":"case\u0066ile","payload":{"\u0069d":5}}`,
			webhooks.Event{Topic: "casefile", CaseFile: &webhooks.CaseFileRef{ID: 5}}},
		{"empty object", "", `{}`, webhooks.Event{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ev, err := webhooks.ParseEvent(hdr(uid("1"), tt.typ), []byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.ID, want.Type, want.Raw = uid("1"), tt.typ, []byte(tt.body)
			if !eventsEqual(ev, &want) {
				t.Fatalf("got  %+v %+v %+v\nwant %+v %+v %+v", ev, ev.CaseFile, ev.Signer, want, want.CaseFile, want.Signer)
			}
		})
	}
}

func eventsEqual(a, b *webhooks.Event) bool {
	return a.ID == b.ID && a.Type == b.Type && a.Topic == b.Topic && a.EventType == b.EventType &&
		a.Time.Equal(b.Time) && a.Time.Location().String() == b.Time.Location().String() &&
		ptrEqual(a.CaseFile, b.CaseFile) && ptrEqual(a.Signer, b.Signer) &&
		a.Message == b.Message && slices.Equal(a.Raw, b.Raw)
}

func ptrEqual[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// TestParseEventInvalid: only a body that is not one whole JSON object is
// refused. Members of unexpected types are not (TestLiberalPayloads).
func TestParseEventInvalid(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		``, ` `, `null`, `[]`, `"event"`, `42`, `true`, `{`, `{"topic":"casefile"`, `{"topic":"casefile"}x`,
		`{"topic":"casefile"} []`, `{"eventTime":{"date":"2026-01-01"}`, `{"topic":"casefile","payload":[}`,
		"{\"topic\":\"a\tb\"}", `{"topic":"\x"}`, `{"topic":"\u12"}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`,
		`{"a":1e}`, `{"a":tru}`, `{"a":[1,]}`, `{"a":1,}`, `{,}`, `{"a" 1}`, `{'a':1}`,
	} {
		if _, err := webhooks.ParseEvent(nil, []byte(body)); !errors.Is(err, webhooks.ErrInvalidPayload) {
			t.Errorf("%q: err = %v", body, err)
		}
	}
}

// TestParseEventChecksWholeBody: malformed JSON anywhere in the body is
// refused, also after the last field an Event carries.
func TestParseEventChecksWholeBody(t *testing.T) {
	t.Parallel()
	const head = `{"topic":"signer","eventType":"signed","eventTime":null,`
	for name, body := range map[string]string{
		"after the signer's fields":                      head + `"payload":{"id":1,"caseFile":{"id":2,"status":1},"note":[}`,
		"after the case file's fields":                   `{"topic":"casefile","eventType":"completed","eventTime":null,"payload":{"status":5,"id":2,"x":}`,
		"after another topic's payload":                  `{"topic":"other","eventType":"x","eventTime":null,"payload":[1],"x":}`,
		"after the test message":                         `{"topic":"subscription","eventType":"test","eventTime":null,"payload":{"message":"hi","x":]}`,
		"number cut short":                               `{"topic":"casefile","eventType":"completed","eventTime":null,"payload":{"id":531,"status":05}}`,
		"ends after the fields":                          `{"topic":"casefile","eventType":"completed","eventTime":null,"payload":{"id":531,"status":5`,
		"truncated after the payload":                    `{"topic":"casefile","eventType":"completed","eventTime":null,"payload":{"id":531,"status":5},`,
		"a second object":                                `{"topic":"casefile"}{"topic":"signer"}`,
		"invalid UTF-8 is replaced, bad escapes are not": `{"topic":"casefile","x":"\ud800\q"}`,
	} {
		if _, err := webhooks.ParseEvent(nil, []byte(body)); !errors.Is(err, webhooks.ErrInvalidPayload) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
