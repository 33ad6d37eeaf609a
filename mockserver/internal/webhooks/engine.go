package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
)

// Delivery limits of the spec: a connection that takes longer than
// connectTimeout fails, and so does a response later than responseTimeout.
const (
	connectTimeout  = 200 * time.Millisecond
	responseTimeout = time.Second
	// deliveryWorkers bounds the delivery attempts in flight at once.
	deliveryWorkers = 64
	// maxAckBody is how much of a receiver's answer is read before the
	// connection is reused or closed.
	maxAckBody = 64 << 10
)

// signedHeaderNames is the h value of X-Event-Signature: the signed headers,
// in order.
const signedHeaderNames = "content-type x-event-id x-event-type"

// Event is one event of a customer to deliver: its type (such as
// sign.casefile.completed) and its JSON body.
type Event struct {
	CustomerID int64
	Type       string
	Body       []byte
}

// delivery is one event on its way to one subscription, across attempts.
type delivery struct {
	subID   string
	gen     uint64 // the subscription's generation when the event arrived
	eventID string // X-Event-Id: the same on every attempt
	typ     string
	body    []byte
	attempt int  // attempts made so far
	replay  bool // sent again by Replay (the dashboard's button)
}

// deliveryEngine posts events to subscriptions. Each subscription has a
// queue that one goroutine at a time drains in order, so a subscription's
// events leave in the order they became due; the queues of different
// subscriptions drain concurrently, bounded by a pool of worker slots, so a
// slow or dead endpoint holds up only its own queue.
type deliveryEngine struct {
	svc    *Service
	client atomic.Pointer[http.Client]
	slots  chan struct{}

	mu     sync.Mutex
	queues map[string]*subQueue
}

// subQueue is the deliveries of one subscription that are due now.
type subQueue struct {
	items   []*delivery
	running bool
}

func newDeliveryEngine(svc *Service) *deliveryEngine {
	e := &deliveryEngine{svc: svc, slots: make(chan struct{}, deliveryWorkers), queues: map[string]*subQueue{}}
	e.client.Store(newDeliveryClient(nil))
	return e
}

// newDeliveryClient is the HTTP client of deliveries: the spec's connect
// timeout, no proxy, redirects not followed, TLS as tlsConf says (nil: the
// system's roots).
func newDeliveryClient(tlsConf *tls.Config) *http.Client {
	tr := &http.Transport{
		TLSClientConfig:     tlsConf,
		Proxy:               nil, // deliveries go straight to the endpoint
		DialContext:         (&net.Dialer{Timeout: connectTimeout}).DialContext,
		TLSHandshakeTimeout: responseTimeout,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: deliveryWorkers,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse // a redirect is a failed delivery, not followed
	}}
}

// SetTLSConfig sets the TLS configuration of deliveries to https
// endpoints; nil returns to the system's roots. Attempts that have started
// keep the configuration they started with.
func (svc *Service) SetTLSConfig(c *tls.Config) {
	if c != nil {
		c = c.Clone()
	}
	old := svc.engine.client.Swap(newDeliveryClient(c))
	old.CloseIdleConnections()
}

// reset forgets queued deliveries (the clock has dropped scheduled retries).
func (e *deliveryEngine) reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, q := range e.queues {
		q.items = nil
	}
	e.client.Load().CloseIdleConnections()
}

// Publish hands an event of a customer to the engine: every active
// subscription of the customer that lists its type gets it, the first
// attempt starting at once in the background.
func (svc *Service) Publish(ev Event) {
	for _, sub := range svc.subs.targets(ev.CustomerID, ev.Type) {
		svc.engine.submit(&delivery{subID: sub.ID, gen: sub.gen, eventID: ids.UUID(), typ: ev.Type, body: ev.Body})
	}
}

// submit queues a delivery whose next attempt is due now and makes sure its
// subscription's queue is being drained.
func (e *deliveryEngine) submit(d *delivery) {
	e.mu.Lock()
	defer e.mu.Unlock()
	q := e.queues[d.subID]
	if q == nil {
		q = &subQueue{}
		e.queues[d.subID] = q
	}
	q.items = append(q.items, d)
	if !q.running {
		q.running = true
		e.svc.cfg.Clock.Go(func() { e.drain(d.subID, q) })
	}
}

// drain makes the attempts queued for one subscription, in order, until the
// queue is empty.
func (e *deliveryEngine) drain(subID string, q *subQueue) {
	for {
		e.mu.Lock()
		if len(q.items) == 0 || e.svc.cfg.Clock.Closed() {
			q.items, q.running = nil, false
			if e.queues[subID] == q {
				delete(e.queues, subID)
			}
			e.mu.Unlock()
			return
		}
		d := q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
		e.mu.Unlock()

		e.slots <- struct{}{}
		e.attempt(d)
		<-e.slots
	}
}

// attempt makes one delivery attempt, journals it and, when it failed,
// schedules the next one (or gives up and disables the subscription). The
// attempt is journaled as pending before its request leaves, so that a receiver
// that reads the journal on getting the event finds it there
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#webhook-delivery),
// and completed with its outcome once the receiver answered or the attempt
// failed.
func (e *deliveryEngine) attempt(d *delivery) {
	sub, ok := e.svc.subs.current(d.subID, d.gen, d.typ)
	if !ok {
		return // deleted, disabled, re-enabled since, or no longer listing the type
	}
	d.attempt++
	at := e.svc.cfg.Clock.Now()
	entry := Delivery{EventID: d.eventID, EventType: d.typ, SubscriptionID: d.subID, Attempt: d.attempt, Replay: d.replay,
		At: at, Outcome: OutcomePending, body: string(d.body)}
	pos := e.svc.deliveries.Put(entry)
	start := time.Now()
	status, err := e.post(sub, d, at)
	entry.Outcome, entry.Status, entry.DurationMs = OutcomeDelivered, status, time.Since(start).Milliseconds()
	if err != nil {
		entry.Outcome, entry.Error = OutcomeFailed, err.Error()
	}
	// Completed in place; or, when the journal (JournalSize attempts) came
	// round while it was in flight, journaled again as the newest entry, so
	// that its outcome is not lost; after a reset, forgotten
	// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#webhook-delivery).
	_ = e.svc.deliveries.Complete(pos, entry)
	if err != nil {
		e.failed(d, at)
	}
}

// post sends one attempt: POST with the event headers and a signature made
// at mock time at. It answers the status (0 without an answer) and an
// error unless the receiver answered 2xx within the time limits.
func (e *deliveryEngine) post(sub subscription, d *delivery, at time.Time) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), responseTimeout)
	defer cancel()
	req, err := NewDeliveryRequest(ctx, sub.Endpoint, sub.Secret, d.eventID, d.typ, d.body, at)
	if err != nil {
		return 0, err
	}
	resp, err := e.client.Load().Do(req)
	if err != nil {
		return 0, describeDeliveryError(err)
	}
	_, copyErr := io.Copy(io.Discard, io.LimitReader(resp.Body, maxAckBody))
	_ = resp.Body.Close()
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return resp.StatusCode, fmt.Errorf("endpoint answered %d %s, not 2xx", resp.StatusCode, http.StatusText(resp.StatusCode))
	case copyErr != nil:
		return resp.StatusCode, describeDeliveryError(copyErr)
	}
	return resp.StatusCode, nil
}

// describeDeliveryError names the spec's failure: a slow connection, a slow
// response, or another transport error. The text carries no secret.
func describeDeliveryError(err error) error {
	var opErr *net.OpError
	switch {
	case errors.As(err, &opErr) && opErr.Op == "dial" && opErr.Timeout():
		return fmt.Errorf("connection took longer than %v: %w", connectTimeout, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no complete response within %v: %w", responseTimeout, err)
	}
	return fmt.Errorf("delivery failed: %w", err)
}

// NewDeliveryRequest answers the POST of one delivery attempt of an event
// to endpoint: its headers (Content-Type, X-Event-Id, X-Event-Type) and
// X-Event-Signature made with secret at time at. The delivery engine sends
// it, and so does `signkit-mock trigger`.
func NewDeliveryRequest(ctx context.Context, endpoint, secret, eventID, typ string, body []byte, at time.Time) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header = http.Header{
		"Content-Type": {"application/json"},
		"X-Event-Id":   {eventID},
		"X-Event-Type": {typ},
		"User-Agent":   {"signkit-mock-webhooks/1"},
	}
	req.Header["X-Event-Signature"] = []string{signEvent(secret, at, req.Header, body)}
	return req, nil
}

// signEvent answers the X-Event-Signature value for a delivery
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#delivery-to-the-integrator): t=<unix>,h=content-type x-event-id x-event-type,v1=<hex> where
// v1 is HMAC-SHA256(secret, t "." h "." values of those headers joined by "."
// "." body).
func signEvent(secret string, at time.Time, h http.Header, body []byte) string {
	ts := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	_, _ = io.WriteString(mac, ts+"."+signedHeaderNames+".")
	_, _ = io.WriteString(mac, h.Get("Content-Type")+"."+h.Get("X-Event-Id")+"."+h.Get("X-Event-Type")+".")
	_, _ = mac.Write(body)
	return "t=" + ts + ",h=" + signedHeaderNames + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}
