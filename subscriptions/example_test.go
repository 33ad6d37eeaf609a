package subscriptions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// Subscribe an endpoint to the events of completed case files; the answer
// carries the secret that signs the deliveries, which the receiver's
// webhooks.Verifier needs (store it).
func ExampleClient_Create() {
	ctx := context.Background()
	// In real code: signkit.NewClient(signkit.Config{Endpoints: signkit.Sandbox, Credentials: ...}).
	client, stop := exampleClient()
	defer stop()

	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint:   "https://example.com/hooks/signkit",
		EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted, webhooks.SignerSigned},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sub) // the secret prints as [redacted]
	if _, err := webhooks.NewVerifier(sub.Secret); err != nil {
		log.Fatal(err)
	}
	// Output:
	// subscriptions.Subscription{ID:"sub-1", CustomerID:42, IsActive:true, Secret:[redacted], Endpoint:"https://example.com/hooks/signkit", EventTypes:[sign.casefile.completed sign.signer.signed]}
}

// A request is checked before it is sent: every problem is listed, and
// nothing reaches the service.
func ExampleRequest_Validate() {
	err := (&subscriptions.Request{
		Endpoint:   "http://example.com/hooks", // http only on loopback hosts
		EventTypes: []webhooks.EventType{webhooks.SignerSigned, webhooks.SignerSigned},
	}).Validate()
	fmt.Println(errors.Is(err, signkit.ErrValidation))
	var verr *signkit.ValidationError
	if errors.As(err, &verr) {
		for _, p := range verr.Problems {
			fmt.Printf("%s: %s\n", p.Field, p.Message)
		}
	}
	// Output:
	// true
	// endpoint: must use https (http is accepted only for loopback hosts)
	// eventTypes[1]: "sign.signer.signed" is listed twice
}

// List the subscriptions, and re-enable those that delivery failures
// disabled: Update sends the fields it is given and keeps the others.
func ExampleClient_Update() {
	ctx := context.Background()
	client, stop := exampleClient()
	defer stop()
	for _, r := range []*subscriptions.Request{
		{Endpoint: "https://example.com/a", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}},
		{Endpoint: "https://example.com/b", EventTypes: []webhooks.EventType{webhooks.SignerSigned}, IsActive: signkit.Ptr(false)},
	} {
		if _, err := client.Subscriptions.Create(ctx, r); err != nil {
			log.Fatal(err)
		}
	}

	subs, err := client.Subscriptions.List(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range subs {
		if s.IsActive {
			continue
		}
		s2, err := client.Subscriptions.Update(ctx, s.ID, &subscriptions.Request{IsActive: signkit.Ptr(true)})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("re-enabled", s2.ID, s2.Endpoint, s2.EventTypes)
	}
	// Output:
	// re-enabled sub-2 https://example.com/b [sign.signer.signed]
}

// Delete a subscription; reading it afterwards answers signkit.ErrNotFound.
func ExampleClient_Delete() {
	ctx := context.Background()
	client, stop := exampleClient()
	defer stop()
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: "https://example.com/hooks", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
	if err != nil {
		log.Fatal(err)
	}

	if err := client.Subscriptions.Delete(ctx, sub.ID); err != nil {
		log.Fatal(err)
	}
	_, err = client.Subscriptions.Get(ctx, sub.ID)
	fmt.Println("gone:", errors.Is(err, signkit.ErrNotFound))
	// Output:
	// gone: true
}

// Ask for a test event, and receive it with a webhooks.Verifier built from
// the subscription's secret: the end-to-end check of a new receiver.
func ExampleClient_SendTestEvent() {
	ctx := context.Background()
	client, stop := exampleClient()
	defer stop()

	// The receiver, in real code at the public https URL of the endpoint.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint:   "http://" + ln.Addr().String() + "/hooks", // http: a loopback host
		EventTypes: []webhooks.EventType{webhooks.SubscriptionTest},
	})
	if err != nil {
		log.Fatal(err)
	}
	verifier, err := webhooks.NewVerifier(sub.Secret)
	if err != nil {
		log.Fatal(err)
	}
	received := make(chan string, 1)
	go func() {
		_ = http.Serve(ln, verifier.Handler(func(_ context.Context, ev *webhooks.Event) error {
			received <- fmt.Sprintf("%s: %s", ev.Type, ev.Message)
			return nil
		}))
	}()

	if err := client.Subscriptions.SendTestEvent(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println(<-received)
	// Output:
	// webhook.subscription.test: This is a test event
}

// exampleClient returns a client of a small in-memory webhook service, and
// the function that stops it.
func exampleClient() (*signkit.Client, func()) {
	srv := httptest.NewServer(newFakeService())
	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(srv.URL),
		Credentials: auth.Credentials{ClientID: "id", ClientSecret: "secret", APIKey: "key", APISecret: "api-secret"},
	})
	if err != nil {
		log.Fatal(err)
	}
	return client, srv.Close
}

// fakeService is the webhook service of the examples, with the login
// service's token endpoint: enough of both for the calls of this package,
// under signkit.LocalEndpoints' paths. It keeps its subscriptions in
// memory and delivers test events at once.
type fakeService struct {
	mux *http.ServeMux

	mu   sync.Mutex
	subs []subscriptions.Subscription
	next int
}

const fakeToken = "example-token"

func newFakeService() *fakeService {
	f := &fakeService{mux: http.NewServeMux()}
	f.mux.HandleFunc("POST /auth/oauth/token", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"access_token": fakeToken, "token_type": "Bearer", "expires_in": 600})
	})
	const subs = "/webhook/api/v1/subscriptions"
	f.mux.HandleFunc("POST "+subs+"/test", f.sendTest)
	f.mux.HandleFunc("POST "+subs, f.create)
	f.mux.HandleFunc("GET "+subs, f.list)
	f.mux.HandleFunc("GET "+subs+"/{id}", f.get)
	f.mux.HandleFunc("PUT "+subs+"/{id}", f.replace)
	f.mux.HandleFunc("DELETE "+subs+"/{id}", f.delete)
	return f
}

func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/auth/") && r.Header.Get("Authorization") != "Bearer "+fakeToken {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"statusCode": 401, "message": "no token"})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mux.ServeHTTP(w, r)
}

func (f *fakeService) create(w http.ResponseWriter, r *http.Request) {
	var req subscriptions.Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"statusCode": 400, "message": err.Error()})
		return
	}
	f.next++
	n := strconv.Itoa(f.next)
	s := subscriptions.Subscription{ID: "sub-" + n, CustomerID: 42, IsActive: req.IsActive == nil || *req.IsActive,
		Secret: "whsec-example-" + n, Endpoint: req.Endpoint, EventTypes: req.EventTypes}
	f.subs = append(f.subs, s)
	writeJSON(w, http.StatusCreated, s)
}

func (f *fakeService) list(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"items": f.subs})
}

func (f *fakeService) get(w http.ResponseWriter, r *http.Request) {
	if i := f.find(w, r); i >= 0 {
		writeJSON(w, http.StatusOK, f.subs[i])
	}
}

// replace stores the whole subscription the body gives, as the service
// does: what the body leaves out is cleared.
func (f *fakeService) replace(w http.ResponseWriter, r *http.Request) {
	i := f.find(w, r)
	if i < 0 {
		return
	}
	var body struct {
		Endpoint   string               `json:"endpoint"`
		EventTypes []webhooks.EventType `json:"eventTypes"`
		IsActive   bool                 `json:"isActive"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"statusCode": 400, "message": err.Error()})
		return
	}
	s := &f.subs[i]
	s.Endpoint, s.EventTypes, s.IsActive = body.Endpoint, body.EventTypes, body.IsActive
	writeJSON(w, http.StatusOK, *s)
}

func (f *fakeService) delete(w http.ResponseWriter, r *http.Request) {
	if i := f.find(w, r); i >= 0 {
		f.subs = append(f.subs[:i], f.subs[i+1:]...)
		w.WriteHeader(http.StatusNoContent)
	}
}

// sendTest delivers a signed test event to every active subscription that
// lists its type, before it answers.
func (f *fakeService) sendTest(w http.ResponseWriter, _ *http.Request) {
	body := []byte(`{"topic":"subscription","eventType":"test","eventTime":{"date":"` +
		time.Now().UTC().Format("2006-01-02 15:04:05.000000") + `","timezone_type":3,"timezone":"UTC"},"payload":"This is a test event"}`)
	for i, s := range f.subs {
		if !s.IsActive || !slices.Contains(s.EventTypes, webhooks.SubscriptionTest) {
			continue
		}
		req, err := http.NewRequest(http.MethodPost, s.Endpoint, bytes.NewReader(body))
		if err != nil {
			continue
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Event-Id", fmt.Sprintf("test-%d-%d", f.next, i))
		req.Header.Set("X-Event-Type", string(webhooks.SubscriptionTest))
		req.Header.Set("X-Event-Signature", webhooks.Sign(s.Secret, time.Now(), req.Header, body))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// find returns the index of the subscription the path names, or answers 404
// and returns -1.
func (f *fakeService) find(w http.ResponseWriter, r *http.Request) int {
	for i, s := range f.subs {
		if s.ID == r.PathValue("id") {
			return i
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]any{"statusCode": 404, "error": "not_found", "message": "no subscription"})
	return -1
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
