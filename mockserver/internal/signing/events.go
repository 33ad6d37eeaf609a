package signing

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ring"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// maxEvents bounds the event log; the oldest events are dropped first.
// Listeners see every event when it is emitted, whatever the bound.
const MaxEvents = 100_000

// eventTimeLayout is the date format of eventTime in event payloads.
const eventTimeLayout = "2006-01-02 15:04:05.000000"

// Event types the signing simulation emits (spec, Event types).
const (
	evCaseFileCompleted  = "sign.casefile.completed"
	evCaseFileExpired    = "sign.casefile.expired"
	evCaseFileFailed     = "sign.casefile.failed"
	evCaseFileRejected   = "sign.casefile.rejected"
	evSignerActivated    = "sign.signer.requestActivated"
	evSignerRequestSent  = "sign.signer.requestSent"
	evSignerReminderSent = "sign.signer.reminderSent"
	evSignerReqOpened    = "sign.signer.requestOpened"
	evSignerUndeliver    = "sign.signer.undeliverable"
	evSignerOpened       = "sign.signer.opened"
	evSignerRejected     = "sign.signer.rejected"
	evSignerSigned       = "sign.signer.signed"
	evSignerFinalized    = "sign.signer.finalized"
	evSignerDeleted      = "sign.signer.deleted"
	evSignerBounce       = "sign.signer.transientBounce"
	// evSignerSignedWithNAP is a type subscriptions may list that the
	// simulation never emits; SampleEvent makes one.
	evSignerSignedWithNAP = "sign.signer.signedWithImageUploadAndNAP"
	// evSubscriptionTest is the test event's type.
	evSubscriptionTest = "webhook.subscription.test"
)

// Event is one entry of the event log: what the webhook delivery engine
// sends, once per subscription that lists Type.
type Event struct {
	Seq        int64     // position in the server's log, from 1, never reused (not even by reset)
	ID         string    // UUID: the X-Event-Id of every delivery attempt
	Type       string    // X-Event-Type, e.g. "sign.signer.signed"
	CustomerID int64     // whose subscriptions receive it
	CaseFileID int64     // 0 when the event concerns no case file (the test event)
	At         time.Time // mock time of emission
	Body       []byte    // the JSON body, exactly as delivered
}

// eventTime is the eventTime object of a payload.
type eventTime struct {
	Date         string `json:"date"`
	TimezoneType int    `json:"timezone_type"`
	Timezone     string `json:"timezone"`
}

func newEventTime(t time.Time) eventTime {
	return eventTime{Date: t.UTC().Format(eventTimeLayout), TimezoneType: 3, Timezone: "UTC"}
}

// eventBody is the JSON body of an event; its field order is the spec's.
type eventBody struct {
	Topic     string    `json:"topic"`
	EventType string    `json:"eventType"`
	EventTime eventTime `json:"eventTime"`
	Payload   any       `json:"payload"`
}

// CaseFileRef is {id, status} of a case file in a payload.
type CaseFileRef struct {
	ID     int64 `json:"id"`
	Status int   `json:"status"`
}

// SignerPayload is the payload of a signer event.
type SignerPayload struct {
	ID       int64       `json:"id"`
	CaseFile CaseFileRef `json:"caseFile"`
}

// eventLog is the ordered log of every customer's events. Emitting appends
// an event and calls the listeners synchronously, in log order.
type eventLog struct {
	notifyMu  sync.Mutex // held while an event is appended and its listeners run
	mu        sync.Mutex // guards events, seq, listeners
	events    *ring.Ring[*Event]
	seq       int64
	listeners map[int64]func(*Event)
	nextID    int64
}

func newEventLog() *eventLog {
	return &eventLog{events: ring.New[*Event](MaxEvents), listeners: map[int64]func(*Event){}}
}

// reset forgets every event; listeners stay, and sequence numbers keep
// growing so that a consumer's position stays meaningful.
func (l *eventLog) reset() {
	l.events.Reset()
}

// subscribe registers fn to be called with each event as it is emitted, in
// log order, on the emitter's goroutine while the emitter holds its locks.
// fn must return quickly and must not emit events or call into the case
// file store or the signing simulation: start slow work with s.clock.Go.
// The returned function removes the listener.
func (l *eventLog) subscribe(fn func(*Event)) (cancel func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.nextID++
	id := l.nextID
	l.listeners[id] = fn
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.listeners, id)
	}
}

// topicAndType answers the topic and eventType of an event body of type
// typ ("sign.signer.signed" → "signer", "signed").
func topicAndType(typ string) (topic, short string) {
	parts := strings.Split(typ, ".")
	if len(parts) != 3 {
		return typ, typ
	}
	return parts[1], parts[2]
}

// emit appends an event with the given type and payload for a customer and
// notifies the listeners. The topic and eventType of the body come from
// typ (topicAndType).
func (l *eventLog) emit(customerID, caseFileID int64, typ string, at time.Time, payload any) *Event {
	topic, short := topicAndType(typ)
	body, err := json.Marshal(eventBody{Topic: topic, EventType: short, EventTime: newEventTime(at), Payload: payload})
	if err != nil { // payloads are plain structs and strings; this cannot happen
		body = []byte(`{}`)
	}
	ev := &Event{ID: ids.UUID(), Type: typ, CustomerID: customerID, CaseFileID: caseFileID, At: at, Body: body}
	l.notifyMu.Lock()
	defer l.notifyMu.Unlock()
	l.mu.Lock()
	l.seq++
	ev.Seq = l.seq
	l.events.Add(ev)
	fns := make([]func(*Event), 0, len(l.listeners))
	for _, id := range slices.Sorted(maps.Keys(l.listeners)) {
		fns = append(fns, l.listeners[id])
	}
	l.mu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
	return ev
}

// since answers the events of a customer (0: every customer) with a
// sequence number above after, oldest first.
func (l *eventLog) since(customerID, after int64) []*Event {
	var out []*Event
	for _, ev := range l.events.After(func(ev *Event) bool { return ev.Seq > after }) {
		if customerID == 0 || ev.CustomerID == customerID {
			out = append(out, ev)
		}
	}
	return out
}

// EmitCaseFile emits a case file event with payload {id, status}.
func (s *state) EmitCaseFile(cf *CaseFile, typ string) {
	s.sign.events.emit(cf.CustomerID, cf.ID, typ, s.Now(), CaseFileRef{ID: cf.ID, Status: cf.Status})
}

// emitSigner emits a signer event with payload {id, caseFile:{id, status}}.
func (s *state) emitSigner(cf *CaseFile, sg *Signer, typ string) {
	s.sign.events.emit(cf.CustomerID, cf.ID, typ, s.Now(),
		SignerPayload{ID: sg.ID, CaseFile: CaseFileRef{ID: cf.ID, Status: cf.Status}})
}

// EventJSON is an event as GET /mock/events lists it.
type EventJSON struct {
	Seq        int64           `json:"seq"`
	EventID    string          `json:"eventId"`
	EventType  string          `json:"eventType"`
	CustomerID int64           `json:"customerId"`
	CaseFileID int64           `json:"caseFileId,omitempty"`
	At         time.Time       `json:"at"`
	Body       json.RawMessage `json:"body"`
}

// CtlEvents is GET /mock/events[?customerId=n][&after=seq]: the event log.
// Another parameter is a 400 that names it, and so is a value that is not a
// non-negative integer
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#journals).
func (s *Control) CtlEvents(w http.ResponseWriter, r *http.Request) error {
	if err := wire.OnlyParams(r, "customerId", "after"); err != nil {
		return err
	}
	var p wire.Problems
	num := func(name string) int64 {
		v := r.URL.Query().Get(name)
		if v == "" {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			p.Add(name, "must be a non-negative integer")
		}
		return n
	}
	cust, after := num("customerId"), num("after")
	if err := p.BadQuery(); err != nil {
		return err
	}
	items := []EventJSON{}
	for _, ev := range s.sign.events.since(cust, after) {
		items = append(items, EventJSON{Seq: ev.Seq, EventID: ev.ID, EventType: ev.Type, CustomerID: ev.CustomerID,
			CaseFileID: ev.CaseFileID, At: ev.At.UTC(), Body: ev.Body})
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}
