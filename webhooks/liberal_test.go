package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/queue"
)

// logLines are the records a JSON slog handler wrote to a lockedBuilder.
func logLines(t *testing.T, log *lockedBuilder) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, rec)
	}
	return out
}

// unreadableLogged returns the members the log names as unreadable, "" when
// it names none; a second such record fails the test.
func unreadableLogged(t *testing.T, log *lockedBuilder) string {
	t.Helper()
	members := ""
	for _, rec := range logLines(t, log) {
		if !strings.Contains(rec["msg"].(string), "could not be read") {
			continue
		}
		if members != "" || rec["level"] != "WARN" {
			t.Fatalf("unexpected record %v", rec)
		}
		members, _ = rec["members"].(string)
	}
	return members
}

const liberalTime = `{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"}`

// liberalCases are correctly signed deliveries whose members are numeric
// strings or of unexpected types: each is accepted, with what could be read.
var liberalCases = []struct {
	name    string
	typ     webhooks.EventType
	body    string
	want    webhooks.Event // without ID, Type and Raw
	members string         // logged as unreadable
}{
	{"the vendor's sample, numbers", webhooks.CaseFileRejected,
		`{"topic":"casefile","eventType":"rejected","payload":{"id":531,"status":2}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 531, Status: 2}}, ""},
	{"case file, numeric strings", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":` + liberalTime + `,"payload":{"id":"531","status":"5"}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 531, Status: 5}, Time: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}, ""},
	{"signer, caseFile of numeric strings", webhooks.SignerSigned,
		`{"topic":"signer","eventType":"signed","payload":{"id":12,"caseFile":{"id":"7","status":"1"}}}`,
		webhooks.Event{Signer: &webhooks.SignerRef{ID: 12}, CaseFile: &webhooks.CaseFileRef{ID: 7, Status: 1}}, ""},
	{"signer, all strings", webhooks.SignerFinalized,
		`{"topic":"signer","eventType":"finalized","payload":{"id":"-12","caseFile":{"status":"5","id":"9007199254740993"}}}`,
		webhooks.Event{Signer: &webhooks.SignerRef{ID: -12}, CaseFile: &webhooks.CaseFileRef{ID: 9007199254740993, Status: 5}}, ""},
	{"timezone_type as a string", webhooks.CaseFileExpired,
		`{"topic":"casefile","eventType":"expired","eventTime":{"date":"2026-01-01 00:00:00","timezone_type":"3"},"payload":{"id":1,"status":3}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 1, Status: 3}, Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, ""},
	{"status an object", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","payload":{"id":531,"status":{"x":1}}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 531}}, "payload.status"},
	{"eventTime a number", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":42,"payload":{"id":531,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 531, Status: 5}}, "eventTime"},
	{"eventTime a string", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":"2026-01-01","payload":{"id":531,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 531, Status: 5}}, "eventTime"},
	{"month 13", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-13-01 00:00:00"},"payload":{"id":1,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 1, Status: 5}}, "eventTime.date"},
	{"30 February", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-02-30 00:00:00"},"payload":{"id":1,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 1, Status: 5}}, "eventTime.date"},
	{"a date without time", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-01-01"},"payload":{"id":1,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 1, Status: 5}}, "eventTime.date"},
	{"ten fraction digits", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-01-01 00:00:00.1234567890"},"payload":{"id":1,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 1, Status: 5}}, "eventTime.date"},
	{"unknown zone", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-01-01 00:00:00","timezone":"Mars/Olympus"},"payload":{"id":1,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 1, Status: 5}}, "eventTime.timezone"},
	{"timezone_type an object", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-01-01 00:00:00","timezone_type":{}},"payload":{"id":1,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{ID: 1, Status: 5}, Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, "eventTime.timezone_type"},
	{"payload an array", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","payload":[531,5]}`, webhooks.Event{}, "payload"},
	{"id a fraction", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","payload":{"id":1.5,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{Status: 5}}, "payload.id"},
	{"id too large", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","payload":{"id":99999999999999999999,"status":5}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{Status: 5}}, "payload.id"},
	{"id a string that is no integer", webhooks.CaseFileCompleted,
		`{"topic":"casefile","eventType":"completed","payload":{"id":" 531","status":"5.0"}}`,
		webhooks.Event{CaseFile: &webhooks.CaseFileRef{}}, "payload.id, payload.status"},
	{"signer's caseFile a number", webhooks.SignerSigned,
		`{"topic":"signer","eventType":"signed","payload":{"id":3,"caseFile":7}}`,
		webhooks.Event{Signer: &webhooks.SignerRef{ID: 3}}, "payload.caseFile"},
	{"several members at once", webhooks.SignerSigned,
		`{"topic":"signer","eventType":"signed","eventTime":true,"payload":{"id":{"x":1},"caseFile":{"id":"7","status":{"x":1}}}}`,
		webhooks.Event{Signer: &webhooks.SignerRef{}, CaseFile: &webhooks.CaseFileRef{ID: 7}},
		"eventTime, payload.id, payload.caseFile.status"},
	{"test event, payload a number", webhooks.SubscriptionTest,
		`{"topic":"subscription","eventType":"test","payload":7}`, webhooks.Event{}, "payload"},
	{"test event, message a number", webhooks.SubscriptionTest,
		`{"topic":"subscription","eventType":"test","payload":{"message":7}}`, webhooks.Event{}, "payload.message"},
	{"unknown topic, any payload", "sign.folder.moved",
		`{"topic":"folder","eventType":"moved","payload":{"id":{"x":1},"status":[]}}`, webhooks.Event{}, ""},
}

// TestLiberalPayloads: Verify and ParseEvent accept each of liberalCases,
// read numbers from numeric strings, leave what they cannot read zero, and
// Verify's logger names exactly those members at warn level.
func TestLiberalPayloads(t *testing.T) {
	t.Parallel()
	for _, tt := range liberalCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := tt.want
			want.Topic, want.EventType = tt.typ.Topic(), string(tt.typ)[strings.LastIndexByte(string(tt.typ), '.')+1:]
			want.ID, want.Type, want.Raw = uid(tt.name), tt.typ, []byte(tt.body)
			h := signed(uid(tt.name), tt.typ, tt.body)

			parsed, err := webhooks.ParseEvent(h, []byte(tt.body))
			if err != nil || !eventsEqual(parsed, &want) {
				t.Fatalf("ParseEvent = %+v, %v\nwant %+v", parsed, err, want)
			}
			log := &lockedBuilder{}
			v := newVerifier(t, webhooks.WithLogger(slog.New(slog.NewJSONHandler(log, nil))))
			ev, err := v.Verify(context.Background(), h, []byte(tt.body))
			if err != nil || !eventsEqual(ev, &want) {
				t.Fatalf("Verify = %+v, %v\nwant %+v", ev, err, want)
			}
			if got := unreadableLogged(t, log); got != tt.members {
				t.Fatalf("logged unreadable %q, want %q (log %s)", got, tt.members, log.String())
			}
		})
	}
}

// A topic or eventType that is not a string is read as absent: ParseEvent
// accepts the body, and Verify refuses it because it no longer names the
// X-Event-Type's topic and event (ErrHeaderMismatch).
func TestLiberalTopicStaysBound(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"topic":1,"eventType":"completed","payload":{"id":1,"status":5}}`,
		`{"topic":"casefile","eventType":{},"payload":{"id":1,"status":5}}`,
		`{"topic":["casefile"],"eventType":"completed"}`,
	} {
		h := signed(uid(body), webhooks.CaseFileCompleted, body)
		if _, err := webhooks.ParseEvent(h, []byte(body)); err != nil {
			t.Errorf("ParseEvent(%s): %v", body, err)
		}
		if _, err := newVerifier(t).Verify(context.Background(), h, []byte(body)); !errors.Is(err, webhooks.ErrHeaderMismatch) {
			t.Errorf("Verify(%s): %v", body, err)
		}
	}
}

// refusedCases are correctly signed deliveries that security still refuses.
var refusedCases = []struct {
	name, id string
	typ      webhooks.EventType
	body     string
	want     error
}{
	{"truncated", uid("t"), webhooks.CaseFileCompleted, `{"topic":"casefile","eventType":"completed","payload":{"id":"531"`, webhooks.ErrInvalidPayload},
	{"trailing data", uid("t"), webhooks.CaseFileCompleted, `{"topic":"casefile","eventType":"completed"} {}`, webhooks.ErrInvalidPayload},
	{"an array", uid("t"), webhooks.CaseFileCompleted, `[{"topic":"casefile","eventType":"completed"}]`, webhooks.ErrInvalidPayload},
	{"a string", uid("t"), webhooks.CaseFileCompleted, `"casefile"`, webhooks.ErrInvalidPayload},
	{"null", uid("t"), webhooks.CaseFileCompleted, `null`, webhooks.ErrInvalidPayload},
	{"X-Event-Id with a dot", "evt.1", webhooks.CaseFileCompleted, `{"topic":"casefile","eventType":"completed","payload":{"id":"531","status":"5"}}`, webhooks.ErrHeaderMismatch},
	{"X-Event-Type of the wrong form", uid("t"), "Sign.casefile.completed", `{"topic":"casefile","eventType":"completed","payload":{"id":"531","status":"5"}}`, webhooks.ErrHeaderMismatch},
	{"topic contradicts X-Event-Type", uid("t"), webhooks.SignerSigned, `{"topic":"casefile","eventType":"signed","payload":{"id":"531","status":"5"}}`, webhooks.ErrHeaderMismatch},
	{"eventType contradicts X-Event-Type", uid("t"), webhooks.CaseFileCompleted, `{"topic":"casefile","eventType":"expired","payload":{"id":"531","status":"5"}}`, webhooks.ErrHeaderMismatch},
}

// handlerKind is one of the two handlers under test, built on v around fn;
// accepted is its answer to a new event, and stop waits for its work.
type handlerKind struct {
	name     string
	accepted int
	build    func(t *testing.T, v *webhooks.Verifier, fn func(context.Context, *webhooks.Event) error) (http.Handler, func())
}

var handlerKinds = []handlerKind{
	{"Handler", http.StatusNoContent, func(_ *testing.T, v *webhooks.Verifier, fn func(context.Context, *webhooks.Event) error) (http.Handler, func()) {
		return v.Handler(fn), func() {}
	}},
	{"AsyncHandler", http.StatusAccepted, func(t *testing.T, v *webhooks.Verifier, fn func(context.Context, *webhooks.Event) error) (http.Handler, func()) {
		a := v.AsyncHandler(queue.NewMemory(4), fn, fast)
		return a, func() { shutdown(t, a) }
	}},
}

// TestLiberalReceivers delivers liberalCases and refusedCases to Handler and
// AsyncHandler on a memory queue: the first reach fn with what could be
// read, the unreadable members named in a warning; the second are answered
// 400 without reaching fn, and logged with their reason.
func TestLiberalReceivers(t *testing.T) {
	t.Parallel()
	for _, r := range handlerKinds {
		for _, tt := range liberalCases {
			t.Run(r.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				want := tt.want
				want.Topic, want.EventType = tt.typ.Topic(), string(tt.typ)[strings.LastIndexByte(string(tt.typ), '.')+1:]
				want.ID, want.Type, want.Raw = uid(tt.name), tt.typ, []byte(tt.body)
				got, code, log := receive(t, r, signed(want.ID, tt.typ, tt.body), tt.body)
				if code != r.accepted || len(got) != 1 || !eventsEqual(got[0], &want) {
					t.Fatalf("status %d, events %+v; want %d, %+v", code, got, r.accepted, want)
				}
				if members := unreadableLogged(t, log); members != tt.members {
					t.Fatalf("logged unreadable %q, want %q", members, tt.members)
				}
			})
		}
		for _, tt := range refusedCases {
			t.Run(r.name+"/refused/"+tt.name, func(t *testing.T) {
				t.Parallel()
				got, code, log := receive(t, r, signed(tt.id, tt.typ, tt.body), tt.body)
				if code != http.StatusBadRequest || len(got) != 0 {
					t.Fatalf("status %d, %d events; want 400, none", code, len(got))
				}
				recs := logLines(t, log)
				if len(recs) != 1 || !strings.Contains(recs[0]["reason"].(string), tt.want.Error()) {
					t.Fatalf("log %v does not give the reason %q", recs, tt.want)
				}
			})
		}
	}
}

// receive delivers body with headers h to a fresh handler of kind r and
// returns the events fn saw, the answer's status and the log.
func receive(t *testing.T, r handlerKind, h http.Header, body string) ([]*webhooks.Event, int, *lockedBuilder) {
	t.Helper()
	log := &lockedBuilder{}
	v := newVerifier(t, webhooks.WithLogger(slog.New(slog.NewJSONHandler(log, nil))))
	var mu sync.Mutex
	var got []*webhooks.Event
	handler, stop := r.build(t, v, func(_ context.Context, ev *webhooks.Event) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ev)
		return nil
	})
	w := deliver(t, handler, http.MethodPost, h, body)
	stop()
	mu.Lock()
	defer mu.Unlock()
	for _, ev := range got {
		if !bytes.Equal(ev.Raw, []byte(body)) {
			t.Fatalf("Raw %q is not the body %q", ev.Raw, body)
		}
	}
	return got, w.Code, log
}

// Without WithLogger, the first event with unreadable members is logged
// through slog.Default at warn level, naming the members and not their
// values; later ones are not. Not parallel: it swaps slog's default logger.
func TestUnreadableLoggedOnceWithoutLogger(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	v, err := webhooks.NewVerifier(vecSecret, webhooks.WithClock(func() time.Time { return time.Unix(vecUnix, 0) }))
	if err != nil {
		t.Fatal(err)
	}
	body := `{"topic":"casefile","eventType":"completed","payload":{"id":"98765432101","status":{"note":"a-value-not-to-log"}}}`
	for i := range 3 {
		if _, err := v.Verify(context.Background(), signed(uid("once"+itoa(i)), webhooks.CaseFileCompleted, body), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	out := buf.String()
	if n := strings.Count(out, "could not be read"); n != 1 || !strings.Contains(out, "level=WARN") ||
		!strings.Contains(out, "members=payload.status") || !strings.Contains(out, uid("once0")) {
		t.Fatalf("want one warning naming payload.status and the event id:\n%s", out)
	}
	if strings.Contains(out, "a-value-not-to-log") || strings.Contains(out, "98765432101") || strings.Contains(out, vecSecret) {
		t.Fatalf("the log shows a value or the secret:\n%s", out)
	}
}
